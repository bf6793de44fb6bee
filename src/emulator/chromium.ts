import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { messageOf } from "../client/errors";
import type { BrowserIdentity } from "./browser-identity";
import { guard, release } from "./exit-guard";
import { profileFolders } from "./profile-folders";

const ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-dev-shm-usage",
  "--no-first-run",
  "--no-default-browser-check",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  // MoreLogin's kernel is an anti-detect browser: its pages do not see navigator.webdriver (assumed, docs/EMULATOR.md).
  "--disable-blink-features=AutomationControlled",
  "--remote-debugging-port=0",
  // Chromium exits by itself once this pipe closes, also when the emulator is SIGKILLed.
  "--remote-debugging-pipe",
];
const FOLDER_PREFIX = "morelogin-emulator-chromium-";
const DEVTOOLS_LINE = /DevTools listening on ws:\/\/[^\s/]+:(\d+)\/devtools\/browser\//;
const KILL_GRACE_MS = 2_000;
/** How much of stderr is kept: enough to find the DevTools line and explain a failed start. */
const STDERR_KEPT = 65_536;
const STDERR_GRACE_MS = 5_000;

/** Chromium did not start: it could not be run, exited early or never opened its DevTools port. */
export class BrowserStartError extends Error {}

export interface ChromiumProcess {
  readonly port: number;
  readonly pid: number;
  /** Stops the browser (SIGTERM, SIGKILL after 2 s); resolves once it has exited and its folder is removed. */
  close(): Promise<void>;
}

export interface LaunchOptions {
  /** Called when the browser exits without close() having been asked, e.g. after a crash. */
  onExit?: () => void;
  startTimeoutMs?: number;
  /** The profile's clock, languages and proxy. */
  identity?: BrowserIdentity;
}

/** Chromium's switches and environment for a profile's identity; its proxy is used for loopback pages too (the emulator's own). */
function identityLaunch(identity: BrowserIdentity | undefined): { args: string[]; env: NodeJS.ProcessEnv } {
  const args: string[] = [];
  if (identity?.languages?.length) args.push(`--lang=${identity.languages[0]}`, `--accept-lang=${identity.languages.join(",")}`);
  if (identity?.proxyServer) args.push(`--proxy-server=${identity.proxyServer}`, "--proxy-bypass-list=<-loopback>");
  return { args, env: identity?.timezone ? { ...process.env, TZ: identity.timezone } : process.env };
}

/** Starts a headless Chromium with its own temporary user data folder; resolves once its DevTools port is known. */
export async function launchChromium(binary: string, options: LaunchOptions = {}): Promise<ChromiumProcess> {
  const folder = await mkdtemp(join(tmpdir(), FOLDER_PREFIX));
  let child: ChildProcess;
  try {
    const { args, env } = identityLaunch(options.identity);
    child = spawn(binary, [...ARGS, ...args, `--user-data-dir=${folder}`, "about:blank"], { stdio: ["ignore", "ignore", "pipe", "pipe", "pipe"], env });
  } catch (error) {
    await removeFolder(folder);
    throw new BrowserStartError(`could not run ${binary}: ${messageOf(error)}`);
  }
  const browser = new Browser(child, folder, options.onExit);
  const port = await browser.port(binary, options.startTimeoutMs ?? 15_000);
  return { port, pid: browser.pid, close: () => browser.close() };
}

class Browser {
  readonly pid: number;
  private readonly exited: Promise<void>;
  private hasExited = false;
  private closing: Promise<void> | undefined;
  private spawnError: Error | undefined;
  private stderr = "";

  constructor(
    private readonly child: ChildProcess,
    folder: string,
    onExit: (() => void) | undefined,
  ) {
    this.pid = child.pid ?? 0;
    const guarded = { pid: this.pid, folder };
    if (child.pid !== undefined) guard(guarded);
    this.exited = new Promise<void>((resolve) => {
      const finish = async (): Promise<void> => {
        if (this.hasExited) return;
        this.hasExited = true;
        release(guarded);
        if (this.closing === undefined) onExit?.();
        child.stdio[3]?.destroy();
        child.stdio[4]?.destroy();
        // The last lines may still be on their way; a helper process that inherited stderr may hold it open.
        await ended(child.stderr, STDERR_GRACE_MS);
        for (const owned of profileFolders(folder)) await removeFolder(owned);
        resolve();
      };
      child.once("exit", finish);
      child.on("error", (error) => {
        // Without a process there is no "exit" to wait for; a later error (a failed kill) changes nothing.
        if (child.pid !== undefined) return;
        this.spawnError = error;
        finish();
      });
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      this.stderr = (this.stderr + chunk.toString()).slice(-STDERR_KEPT);
    });
    // Never written to; read only so that Chromium can never block on a full pipe.
    const replies = child.stdio[4];
    if (replies instanceof Readable) replies.resume();
  }

  /** The DevTools port from Chromium's "DevTools listening on ws://..." line on stderr. */
  port(binary: string, timeoutMs: number): Promise<number> {
    return new Promise<number>((resolve, reject) => {
      let settled = false;
      const settle = (): boolean => {
        if (settled) return false;
        settled = true;
        clearTimeout(timer);
        this.child.stderr?.off("data", onData);
        return true;
      };
      const onData = (): void => {
        const match = DEVTOOLS_LINE.exec(this.stderr);
        if (match && settle()) resolve(Number(match[1]));
      };
      const timer = setTimeout(() => {
        if (!settle()) return;
        const error = new BrowserStartError(`${binary}: it did not report a DevTools port within ${timeoutMs / 1000} s${this.lastLines()}`);
        this.close().then(() => reject(error));
      }, timeoutMs);
      this.child.stderr?.on("data", onData);
      this.exited.then(() => {
        if (!settle()) return;
        const why = this.spawnError ? `could not run it: ${this.spawnError.message}` : `it exited (${exitOf(this.child)}) before it opened its DevTools port`;
        reject(new BrowserStartError(`${binary}: ${why}${this.lastLines()}`));
      });
    });
  }

  close(): Promise<void> {
    this.closing ??= this.stop();
    return this.closing;
  }

  private async stop(): Promise<void> {
    if (this.hasExited) return this.exited;
    this.child.kill("SIGTERM");
    const timer = setTimeout(() => {
      if (!this.hasExited) this.child.kill("SIGKILL");
    }, KILL_GRACE_MS);
    await this.exited;
    clearTimeout(timer);
  }

  private lastLines(): string {
    const lines = this.stderr
      .split("\n")
      .map((line) => line.trim())
      .filter((line) => line !== "");
    return lines.length === 0 ? "" : `; its last output: ${lines.slice(-3).join(" | ")}`;
  }
}

function exitOf(child: ChildProcess): string {
  return child.signalCode ? `signal ${child.signalCode}` : `code ${child.exitCode}`;
}

/** Resolves when `stream` has closed, or after `ms`, when it is destroyed. */
function ended(stream: Readable | null, ms: number): Promise<void> {
  if (stream === null || stream.closed) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => stream.destroy(), ms);
    stream.once("close", () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

async function removeFolder(folder: string): Promise<void> {
  // Chromium's helper processes can still be writing for a moment after the browser exits.
  await rm(folder, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 }).catch(() => undefined);
}
