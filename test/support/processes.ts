/** Linux process checks for the tests that start real browsers. */
import type { ChildProcess } from "node:child_process";
import { readdirSync, readFileSync, readlinkSync } from "node:fs";

/** False once the process is gone, or has exited and only waits to be reaped (a zombie). */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

/** The parent of a process, or undefined when it is gone. */
export function parentOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
  } catch {
    return undefined;
  }
}

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

export function commandLineOf(pid: number): string[] {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
  } catch {
    return [];
  }
}

/** The folder a Chromium was started with (`--user-data-dir=`), or undefined. */
export function userDataDirOf(pid: number): string | undefined {
  return commandLineOf(pid)
    .find((arg) => arg.startsWith("--user-data-dir="))
    ?.slice("--user-data-dir=".length);
}

/** Running processes, other than this one, whose command line names `text`: a browser and its helpers. */
export function processesNaming(text: string): number[] {
  return readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((pid) => pid !== process.pid && isRunning(pid) && commandLineOf(pid).some((arg) => arg.includes(text)));
}

/** Waits until `condition` holds; fails with `what` after `ms`. */
export async function waitUntil(condition: () => boolean, what: string, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`not within ${ms / 1000} s: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** SIGKILLs each process still running; for cleanup after a failed test. */
export function killAll(pids: Iterable<number>): void {
  for (const pid of pids) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
}

function cwdOf(pid: number): string | undefined {
  try {
    return readlinkSync(`/proc/${pid}/cwd`);
  } catch {
    return undefined;
  }
}

/**
 * Running processes, other than this one, that work in `folder`: their command line names it or their
 * working directory is in it; and every process descending from one of them (a browser's helpers).
 */
export function processesIn(folder: string): number[] {
  const pids = readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((pid) => pid !== process.pid && isRunning(pid));
  const found = new Set(pids.filter((pid) => commandLineOf(pid).some((arg) => arg.includes(folder)) || cwdOf(pid)?.startsWith(folder)));
  const descends = (pid: number): boolean => {
    for (let current = parentOf(pid); current !== undefined && current > 1; current = parentOf(current)) if (found.has(current)) return true;
    return false;
  };
  return pids.filter((pid) => found.has(pid) || descends(pid));
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
    const finish = (settle: () => void): void => {
      clearTimeout(timer);
      child.stdout?.off("data", look);
      child.stderr?.off("data", look);
      child.off("close", exited);
      settle();
    };
    child.stdout?.on("data", look);
    child.stderr?.on("data", look);
    // "close": the child has exited and all it printed has arrived.
    child.once("close", exited);
    look();
  });
}
