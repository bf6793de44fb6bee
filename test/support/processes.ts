/** Linux process checks for the tests that start real browsers (on top of tools/processes.ts, which the test run uses too). */
import type { ChildProcess } from "node:child_process";
import { readdirSync } from "node:fs";
import { commandLineOf, isRunning, otherProcesses, parentOf } from "../../tools/processes";

/** True when this process started `pid`, directly or through its children (a browser's helpers). */
export function descendsFromThisProcess(pid: number): boolean {
  for (let current: number | undefined = pid; current !== undefined && current > 1; current = parentOf(current)) {
    if (current === process.pid) return true;
  }
  return false;
}

/** Running child processes of this process whose command line has `arg`. */
export function childrenWith(arg: string): number[] {
  return readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((pid) => parentOf(pid) === process.pid && isRunning(pid) && commandLineOf(pid).includes(arg));
}

/** The folder a Chromium was started with (`--user-data-dir=`), or undefined. */
export function userDataDirOf(pid: number): string | undefined {
  return commandLineOf(pid)
    .find((arg) => arg.startsWith("--user-data-dir="))
    ?.slice("--user-data-dir=".length);
}

/** Running processes, other than this one, whose command line names `text`: a browser and its helpers. */
export function processesNaming(text: string): number[] {
  return otherProcesses().filter((pid) => commandLineOf(pid).some((arg) => arg.includes(text)));
}

/**
 * Resolves with the match once `text()` (what the caller collected of the child's output) matches
 * `pattern`, looked at each time the child prints; fails when the child ends first, or after `timeoutMs`.
 * Register it after the listeners that collect the output, so that a chunk is in `text()` when it is looked at.
 */
export function untilPrinted(child: ChildProcess, text: () => string, pattern: RegExp, timeoutMs: number): Promise<RegExpMatchArray> {
  return new Promise((resolve, reject) => {
    const look = (): void => {
      const match = text().match(pattern);
      if (match) finish(() => resolve(match));
    };
    const exited = (): void => {
      const match = text().match(pattern);
      finish(() => (match ? resolve(match) : reject(new Error(`exited (${child.exitCode ?? child.signalCode}) before printing ${pattern}:\n${text()}`))));
    };
    const timer = setTimeout(() => finish(() => reject(new Error(`did not print ${pattern} within ${timeoutMs / 1000} s:\n${text()}`))), timeoutMs);
    const finish = (end: () => void): void => {
      clearTimeout(timer);
      child.stdout?.off("data", look);
      child.stderr?.off("data", look);
      child.off("close", exited);
      end();
    };
    child.stdout?.on("data", look);
    child.stderr?.on("data", look);
    // "close": the child has exited and all it printed has arrived.
    child.once("close", exited);
    look();
  });
}
