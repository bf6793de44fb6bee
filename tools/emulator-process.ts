/**
 * The emulator as a process of its own, which `npm start` supervises: it can be stopped (an outage,
 * to see how flows behave) and started again on the same ports without touching Node-RED.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { PrefixedLines } from "./prefixed";
import { ROOT } from "./sandbox";

export interface EmulatorSettings {
  localPort: number;
  openPort: number;
  apiId: string;
  apiKey: string;
  /** Required on Local API calls, when set. */
  localToken?: string;
  /** A Chromium for started profiles, or none. */
  browser?: string;
  /** More of the CLI's options, as given to `npm start` (--profiles 500, say). */
  extraArgs?: readonly string[];
}

/** What the CLI prints once it listens (its last line of the banner). */
const READY = "Press Ctrl+C to stop.";
const STOP_WAIT_MS = 10_000;

export class EmulatorProcess {
  private child: ChildProcess | undefined;
  private stopping = false;
  private readonly say: (text: string) => void;

  /** `report` gets the emulator's output and the supervisor's own notes, as whole lines. */
  constructor(
    private readonly settings: EmulatorSettings,
    private readonly report: (text: string) => void,
    private readonly onUnexpectedExit: (how: string) => void,
  ) {
    this.say = (text) => report(`[emulator] ${text}\n`);
  }

  get localUrl(): string {
    return `http://127.0.0.1:${this.settings.localPort}`;
  }

  get openUrl(): string {
    return `http://127.0.0.1:${this.settings.openPort}`;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  get running(): boolean {
    return this.child !== undefined;
  }

  /** Starts it and resolves once it listens; rejects when it exits first. */
  start(): Promise<void> {
    if (this.child) return Promise.resolve();
    const { localPort, openPort, apiId, apiKey, localToken, browser, extraArgs = [] } = this.settings;
    const args = [join(ROOT, "dist", "emulator", "cli.js"), "--local-port", String(localPort), "--open-port", String(openPort), "--api-id", apiId, "--api-key", apiKey];
    if (localToken) args.push("--local-token", localToken);
    if (browser) args.push("--browser", browser);
    args.push(...extraArgs);
    // A process group of its own: when it dies, the Chromiums of its started profiles go with it (stop()).
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"], detached: true, env: { ...process.env, NODE_OPTIONS: "" } });
    this.child = child;
    const lines = new PrefixedLines("[emulator] ", this.report);
    let seen = "";
    return new Promise<void>((resolve, reject) => {
      let ready = false;
      const read = (chunk: Buffer): void => {
        const text = chunk.toString();
        lines.push(text);
        if (!ready) {
          seen += text;
          if (seen.includes(READY)) {
            ready = true;
            seen = "";
            resolve();
          }
        }
      };
      child.stdout?.on("data", read);
      child.stderr?.on("data", read);
      child.once("error", (error) => {
        if (!ready) reject(error);
      });
      child.once("exit", (code, signal) => {
        lines.flush();
        this.child = undefined;
        killGroup(child);
        const how = signal ? `was killed (${signal})` : `exited with code ${code}`;
        if (!ready) reject(new Error(`the emulator ${how} before it listened`));
        else if (!this.stopping) this.onUnexpectedExit(how);
      });
    });
  }

  /** Stops it (SIGTERM, then SIGKILL after 10 s) with the browsers of its profiles; resolves once it is gone. */
  async stop(): Promise<void> {
    const child = this.child;
    if (!child) return;
    this.stopping = true;
    try {
      await new Promise<void>((resolve) => {
        const kill = setTimeout(() => killGroup(child), STOP_WAIT_MS);
        child.once("exit", () => {
          clearTimeout(kill);
          resolve();
        });
        child.kill("SIGTERM");
      });
    } finally {
      this.stopping = false;
    }
  }

  /** For this process's "exit" event (synchronous): SIGKILL to the emulator and its browsers, so none outlives `npm start`. */
  killNow(): void {
    if (this.child) killGroup(this.child);
  }

  async restart(): Promise<void> {
    await this.stop();
    await this.start();
    this.say(`started again (pid ${this.pid}): ${this.localUrl}, ${this.openUrl}`);
  }
}

/** SIGKILL to every process left in the child's group (its Chromiums), if any. */
function killGroup(child: ChildProcess): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, "SIGKILL");
  } catch {
    // the group is gone already
  }
}
