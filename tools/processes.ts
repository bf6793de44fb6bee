/** Linux process checks from /proc: what the test run uses to find and end the processes a group left behind. */
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

export function commandLineOf(pid: number): string[] {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
  } catch {
    return [];
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

/** Every running process, other than this one. */
export function otherProcesses(): number[] {
  return readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((pid) => pid !== process.pid && isRunning(pid));
}

/**
 * Running processes, other than this one, that work in `folder`: their command line names it or their
 * working directory is in it; and every process descending from one of them (a browser's helpers).
 */
export function processesIn(folder: string): number[] {
  const pids = otherProcesses();
  const found = new Set(pids.filter((pid) => commandLineOf(pid).some((arg) => arg.includes(folder)) || cwdOf(pid)?.startsWith(folder)));
  const descends = (pid: number): boolean => {
    for (let current = parentOf(pid); current !== undefined && current > 1; current = parentOf(current)) if (found.has(current)) return true;
    return false;
  };
  return pids.filter((pid) => found.has(pid) || descends(pid));
}
