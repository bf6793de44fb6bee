/**
 * How many test files run at once, steered by how busy the CPU is (tools/test-limits.ts reads the number).
 *
 * The suites mostly wait on timers, so a fixed number of files at once is either too few for a quiet
 * machine (the run takes too long) or too many for a busy one (the load average climbs, and what waits
 * times out). Like `make -l`, a new file starts only while the machine has time to spare: every second
 * the number is raised by one while all its slots are taken and the CPU was at least 30% idle over the
 * last 5 s, and lowered by one while it was under 10% idle; files that run are never stopped.
 */
import { writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { FILE_LIMIT_NAME, holders } from "./test-limits";

const STEP_MS = 1_000;
const WINDOW_STEPS = 5;
/** Steps between two changes: a file started shows in the CPU's figures a few seconds later. */
const STEPS_BETWEEN_CHANGES = 3;
const RAISE_IDLE = 0.3;
const LOWER_IDLE = 0.1;
const LOAD_SAMPLE_MS = 5_000;

export interface SteeringRange {
  min: number;
  max: number;
}

/** What the steering saw, for the run's closing lines. */
export interface SteeringFigures {
  meanLimit: number;
  maxLimit: number;
  meanRunning: number;
  loadMean: number;
  loadMax: number;
}

/** The number of files at once after a step that saw the CPU `idle` (0 to 1) with `running` files. */
export function nextLimit(limit: number, range: SteeringRange, idle: number, running: number): number {
  if (idle >= RAISE_IDLE && running >= limit) return Math.min(range.max, limit + 1);
  if (idle < LOWER_IDLE) return Math.max(range.min, limit - 1);
  return limit;
}

function cpuTimes(): { idle: number; total: number } {
  let idle = 0;
  let total = 0;
  for (const cpu of cpus()) {
    idle += cpu.times.idle;
    total += cpu.times.user + cpu.times.nice + cpu.times.sys + cpu.times.idle + cpu.times.irq;
  }
  return { idle, total };
}

/** Starts steering the file slots in `folder`; `stop` ends it and says what it saw. */
export function steerFileSlots(folder: string, range: SteeringRange): { stop(): SteeringFigures } {
  let limit = range.min;
  writeFileSync(join(folder, FILE_LIMIT_NAME), String(limit));
  let previous = cpuTimes();
  const window: Array<{ idle: number; total: number }> = [];
  let stepsSinceChange = 0;
  let steps = 0;
  let limitSum = 0;
  let runningSum = 0;
  let maxLimit = limit;
  const steering = setInterval(() => {
    const now = cpuTimes();
    window.push({ idle: now.idle - previous.idle, total: now.total - previous.total });
    previous = now;
    if (window.length > WINDOW_STEPS) window.shift();
    const total = window.reduce((sum, step) => sum + step.total, 0);
    const idle = total > 0 ? window.reduce((sum, step) => sum + step.idle, 0) / total : 1;
    const running = holders(folder).length;
    stepsSinceChange++;
    const next = stepsSinceChange >= STEPS_BETWEEN_CHANGES ? nextLimit(limit, range, idle, running) : limit;
    if (next !== limit) {
      limit = next;
      stepsSinceChange = 0;
      writeFileSync(join(folder, FILE_LIMIT_NAME), String(limit));
    }
    steps++;
    limitSum += limit;
    runningSum += running;
    maxLimit = Math.max(maxLimit, limit);
  }, STEP_MS);
  const loads: number[] = [];
  const sampling = setInterval(() => loads.push(loadavg()[0] ?? 0), LOAD_SAMPLE_MS);
  steering.unref();
  sampling.unref();
  return {
    stop(): SteeringFigures {
      clearInterval(steering);
      clearInterval(sampling);
      // A run shorter than one sample still reports the load as it ends.
      if (loads.length === 0) loads.push(loadavg()[0] ?? 0);
      return {
        meanLimit: steps ? limitSum / steps : limit,
        maxLimit,
        meanRunning: steps ? runningSum / steps : 0,
        loadMean: loads.reduce((sum, load) => sum + load, 0) / loads.length,
        loadMax: Math.max(...loads),
      };
    },
  };
}
