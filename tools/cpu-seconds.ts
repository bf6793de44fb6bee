import { readFileSync } from "node:fs";

/** Linux's clock ticks a second (`getconf CLK_TCK`), the unit of /proc/<pid>/stat's times. */
const TICKS = 100;

/**
 * CPU-seconds this process used, with those of its children it has waited for (and theirs, when they
 * waited for them): utime, stime, cutime and cstime of /proc/self/stat. Elsewhere than Linux, this
 * process's own.
 */
export function cpuSecondsWithChildren(): number {
  try {
    const stat = readFileSync("/proc/self/stat", "utf8");
    // The command name (field 2) may hold spaces; fields are counted after its closing parenthesis.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // Fields 14-17 of proc(5) are at 11-14 here (field 3 is at 0).
    return [11, 12, 13, 14].reduce((sum, at) => sum + Number(fields[at] ?? 0), 0) / TICKS;
  } catch {
    const usage = process.cpuUsage();
    return (usage.user + usage.system) / 1e6;
  }
}

/**
 * CPU-seconds the whole machine has been busy since it booted (user, nice, system, irq, softirq and
 * steal of /proc/stat's first line), or undefined elsewhere than Linux. Over a run on a machine that
 * does nothing else, the difference is what the run cost, processes no one waited for included.
 */
export function machineBusySeconds(): number | undefined {
  try {
    const [, user, nice, system, , , irq, softirq, steal] = readFileSync("/proc/stat", "utf8").split("\n")[0]?.trim().split(/\s+/).map(Number) ?? [];
    return [user, nice, system, irq, softirq, steal].reduce<number>((sum, value) => sum + (value ?? 0), 0) / TICKS;
  } catch {
    return undefined;
  }
}
