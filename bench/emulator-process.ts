import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import type { EmulatorOptions, EmulatorStats } from "../src/emulator";
import { stopChild } from "../tools/sandbox";
import { onEmulatorCore } from "./cpu";

export interface EmulatorProcess {
  localUrl: string;
  openUrl: string;
  /** Its IP echo, which reports the exit of the emulated proxy a request came through. */
  echoUrl: string;
  apiId: string;
  apiKey: string;
  /** The emulator's counters, asked for over IPC. */
  stats(): Promise<EmulatorStats>;
  stop(): Promise<void>;
}

/**
 * The compiled emulator in a process of its own (on its own core when possible), so its CPU is not
 * charged to what is measured. No faults, no rate limit.
 */
export function startEmulatorProcess(options: EmulatorOptions): Promise<EmulatorProcess> {
  const [command, ...args] = onEmulatorCore([process.execPath, "--import", "tsx", join(__dirname, "emulator-main.ts"), JSON.stringify(options)]);
  const child: ChildProcess = spawn(command as string, args, { stdio: ["ignore", "pipe", "inherit", "ipc"], cwd: join(__dirname, "..") });
  const ask = <T>(type: string, pick: (message: Record<string, unknown>) => T): Promise<T> =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the emulator did not answer "${type}"`)), 10_000);
      const onMessage = (message: Record<string, unknown>): void => {
        if (message?.type !== type) return;
        clearTimeout(timer);
        child.off("message", onMessage);
        resolve(pick(message));
      };
      child.on("message", onMessage);
      child.send({ type });
    });
  return new Promise((resolve, reject) => {
    let output = "";
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`the emulator did not start within 60 s:\n${output}`));
    }, 60_000);
    const onExit = (code: number | null): void => {
      clearTimeout(timer);
      reject(new Error(`the emulator exited with ${String(code)}:\n${output}`));
    };
    child.once("exit", onExit);
    child.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const line = output.split("\n").find((text) => text.startsWith("{"));
      if (!line) return;
      clearTimeout(timer);
      child.off("exit", onExit);
      const urls = JSON.parse(line) as { localUrl: string; openUrl: string; echoUrl: string; apiId: string; apiKey: string };
      resolve({
        ...urls,
        stats: () => ask("stats", (message) => message.stats as EmulatorStats),
        stop: () => stopChild(child),
      });
    });
  });
}
