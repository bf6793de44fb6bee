/**
 * Phase 10, a cap on running profiles: 200 profiles through start → wait until running → a 1 s step
 * → close, all sent at once through one config node with `maxProfiles` 5, against an emulator (a
 * process of its own). The ideal wall time is 200 ÷ 5 rounds of one profile's time alone through the
 * same flow; the figure is ideal ÷ measured, and the emulator counts the most profiles running at
 * once, which must be exactly 5.
 */
import { startEmulatorProcess } from "./emulator-process";
import { median, round } from "./measure";
import { BenchRuntime } from "./node-red-runtime";
import { passOnAfter } from "./pass-on-node";

export const CAPACITY_PROFILES = 200;
export const CAPACITY_MAX_PROFILES = 5;
/** What the flow does while a profile runs. */
const STEP_MS = 1_000;
/** Single runs that give one profile's time. */
const SINGLE_RUNS = 3;

export interface CapacityResult {
  profiles: number;
  maxProfiles: number;
  succeeded: number;
  /** Up to 5 distinct error texts of the failed messages. */
  errors: string[];
  /** One profile alone through the flow, median of SINGLE_RUNS runs. */
  oneProfileSeconds: number;
  /** ceil(profiles ÷ maxProfiles) × oneProfileSeconds. */
  idealSeconds: number;
  seconds: number;
  /** idealSeconds ÷ seconds. */
  ratio: number;
  /** The most profiles running at once, counted by the emulator. */
  peakRunning: number;
}

/** `bench-step`: stands for the user's work on a running profile; passes the message on after STEP_MS. */
const stepNodeModule = passOnAfter("bench-step", STEP_MS);

const CONFIG = "config-capacity";
const server = { server: CONFIG };

export async function capacity(): Promise<CapacityResult> {
  const emulator = await startEmulatorProcess({ profiles: CAPACITY_PROFILES });
  try {
    const runtime = await BenchRuntime.startWith(
      [{ id: CONFIG, emulator, settings: { maxProfiles: String(CAPACITY_MAX_PROFILES) } }],
      [
        { id: "cap-start", type: "morelogin-start-profile", ...server, wires: [["cap-wait"]] },
        { id: "cap-wait", type: "morelogin-profile-status", ...server, waitFor: "running", wires: [["cap-step"]] },
        { id: "cap-step", type: "bench-step", wires: [["cap-close"]] },
        { id: "cap-close", type: "morelogin-close-profile", ...server },
      ],
      [stepNodeModule],
    );
    try {
      const profileIds = await profileIdsOf(emulator.localUrl, CAPACITY_PROFILES);
      const singles: number[] = [];
      for (let run = 0; run < SINGLE_RUNS; run++) {
        const began = performance.now();
        await runtime.run("cap-start", { payload: profileIds[run] });
        singles.push((performance.now() - began) / 1000);
      }
      const oneProfileSeconds = median(singles);
      const began = performance.now();
      const outcomes = await Promise.allSettled(profileIds.map((envId) => runtime.run("cap-start", { payload: envId })));
      const seconds = (performance.now() - began) / 1000;
      const errors = new Set<string>();
      for (const outcome of outcomes) if (outcome.status === "rejected" && errors.size < 5) errors.add(String((outcome.reason as Error)?.message ?? outcome.reason));
      const idealSeconds = Math.ceil(CAPACITY_PROFILES / CAPACITY_MAX_PROFILES) * oneProfileSeconds;
      return {
        profiles: CAPACITY_PROFILES,
        maxProfiles: CAPACITY_MAX_PROFILES,
        succeeded: outcomes.filter((outcome) => outcome.status === "fulfilled").length,
        errors: [...errors],
        oneProfileSeconds: round(oneProfileSeconds, 3),
        idealSeconds: round(idealSeconds, 2),
        seconds: round(seconds, 2),
        ratio: round(idealSeconds / seconds, 3),
        peakRunning: (await emulator.stats()).peakRunningProfiles,
      };
    } finally {
      await runtime.stop();
    }
  } finally {
    await emulator.stop();
  }
}

/** The emulator's profile IDs, in order, a page of 100 at a time. */
export async function profileIdsOf(localUrl: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let pageNo = 1; ids.length < count; pageNo++) {
    const response = await fetch(`${localUrl}/api/env/page`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ pageNo, pageSize: 100 }),
    });
    const page = ((await response.json()) as { data?: { dataList?: Array<{ id: string }> } }).data?.dataList ?? [];
    if (page.length === 0) throw new Error(`the emulator listed ${ids.length} profiles, not ${count}`);
    ids.push(...page.map((profile) => profile.id));
  }
  return ids.slice(0, count);
}
