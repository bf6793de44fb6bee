/**
 * Core placement on a small machine: the measured side (this process) on one core, the emulator on
 * the other, so the emulator's CPU is never charged to what is measured. Uses `taskset` when the
 * machine has it and at least two cores; otherwise everything shares the cores (said in the report).
 */
import { execFileSync } from "node:child_process";
import { availableParallelism } from "node:os";

function hasTaskset(): boolean {
  try {
    execFileSync("taskset", ["-V"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

export const CORES = availableParallelism();
export const PINNED = CORES >= 2 && process.env.BENCH_NO_PIN !== "1" && hasTaskset();
/** The emulator's core: the last one. The measured side: core 0. */
const EMULATOR_CORE = String(CORES - 1);
const MEASURED_CORE = "0";
const ALL_CORES = `0-${CORES - 1}`;

/** Pins every thread of this process (main, GC and libuv helpers) to the measured core. */
export function pinSelf(): void {
  if (PINNED) execFileSync("taskset", ["-a", "-p", "-c", MEASURED_CORE, String(process.pid)], { stdio: "ignore" });
}

/** Lets this process use every core again (for phases that spawn a whole Node-RED). */
export function unpinSelf(): void {
  if (PINNED) execFileSync("taskset", ["-a", "-p", "-c", ALL_CORES, String(process.pid)], { stdio: "ignore" });
}

/** The command line that runs `argv` on the emulator's core. */
export function onEmulatorCore(argv: string[]): string[] {
  return PINNED ? ["taskset", "-c", EMULATOR_CORE, ...argv] : argv;
}
