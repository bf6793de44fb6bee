/**
 * Phase 16, a long batch at the API's pace: 200 profiles through a batch node at parallel 10, each
 * item start (lease 60 s) → 1 s of work → close, on a config node with `maxProfiles` 10 and the default
 * pacing of 120 requests a minute, against an emulator (a process of its own) that refuses more than
 * 120 a minute as MoreLogin does. Real time: the client's window is MoreLogin's 60 s, so the run takes
 * a little over 3 minutes (200 items at two requests each, 120 requests a minute).
 *
 * - `openExtraP95Ms`: how long a profile stays open beyond its 1 s of work (start answered to close
 *   answered, minus 1 s), p95 over the items;
 * - `itemsPerMinute` against the API's bound, 120 ÷ 2 = 60 items a minute;
 * - `etaErrorP90`: |predicted − actual remaining| ÷ actual remaining over the batch's progress messages
 *   after the first 10 % of items ended, p90.
 */
import type { NodeMessage } from "node-red";
import { helper } from "../test/support/node-red";
import { startEmulatorProcess } from "./emulator-process";
import { round } from "./measure";
import { BenchRuntime } from "./node-red-runtime";
import { passOnAfter } from "./pass-on-node";
import { runAlone } from "./run-alone";

export const PACED_PROFILES = 200;
const PARALLEL = 10;
const MAX_PROFILES = 10;
const PER_MINUTE = 120;
const CALLS_PER_ITEM = 2;
const WORK_MS = 1_000;
/** Progress messages before this share of the items ended are not scored: there is no pace to know yet. */
const ETA_FROM = 0.1;
const DEADLINE_MS = 8 * 60_000;

export interface PacedResult {
  profiles: number;
  parallel: number;
  maxProfiles: number;
  perMinute: number;
  succeeded: number;
  failed: number;
  /** Requests the emulator refused with 429 (pacing that works keeps this at 0). */
  refused: number;
  seconds: number;
  openExtraP50Ms: number;
  openExtraP95Ms: number;
  openExtraMaxMs: number;
  itemsPerMinute: number;
  /** perMinute ÷ calls per item. */
  boundPerMinute: number;
  /** itemsPerMinute ÷ boundPerMinute. */
  ofBound: number;
  etaErrorP50: number;
  etaErrorP90: number;
  /** Progress messages scored. */
  etaSamples: number;
  /** The longest time without an item ending, after the first one ended. */
  longestStallMs: number;
}

/** `bench-work`: the user's 1 s of work on a running profile. */
const workNodeModule = passOnAfter("bench-work", WORK_MS);

const CONFIG = "config-paced";
const server = { server: CONFIG };

/** What the batch's output 2 carries, as far as this phase reads it. */
interface ProgressPayload {
  done: number;
  failed: number;
  timedOut: number;
  interrupted: number;
  cancelled: number;
  etaMs: number | null;
}

interface ProgressSeen {
  at: number;
  ended: number;
  etaMs: number | null;
}

function quantile(values: number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] as number;
}

export async function paced(): Promise<PacedResult> {
  const emulator = await startEmulatorProcess({ profiles: PACED_PROFILES, rateLimitPerMinute: PER_MINUTE, rateLimitRetryAfter: false });
  try {
    const runtime = await BenchRuntime.startWith(
      [{ id: CONFIG, emulator, settings: { localRpm: String(PER_MINUTE), openRpm: String(PER_MINUTE), concurrency: "5", maxProfiles: String(MAX_PROFILES) } }],
      [
        { id: "paced-batch", type: "morelogin-batch", parallel: String(PARALLEL), retries: "0", itemTimeout: "0", resend: false, wires: [["paced-start"], ["paced-progress"]] },
        { id: "paced-start", type: "morelogin-start-profile", ...server, lease: "60", wires: [["paced-work", "paced-opened"]] },
        { id: "paced-work", type: "bench-work", wires: [["paced-close"]] },
        { id: "paced-close", type: "morelogin-close-profile", ...server, wires: [["paced-batch", "paced-closed"]] },
        { id: "paced-list", type: "morelogin-list-profiles", ...server, pageNo: "pageNo", pageNoType: "msg", pageSize: "100", pageSizeType: "num" },
        { id: "paced-opened", type: "helper", wires: [] },
        { id: "paced-closed", type: "helper", wires: [] },
        { id: "paced-progress", type: "helper", wires: [] },
      ],
      [workNodeModule],
    );
    try {
      const ids = await profileIdsOf(runtime, PACED_PROFILES);
      const opened = new Map<string, number>();
      const extras: number[] = [];
      const progress: ProgressSeen[] = [];
      const endedAt: number[] = [];
      helper.getNode("paced-opened").on("input", (msg: NodeMessage) => opened.set(String(msg.topic), performance.now()));
      helper.getNode("paced-closed").on("input", (msg: NodeMessage) => {
        const now = performance.now();
        endedAt.push(now);
        const at = opened.get(String(msg.topic));
        if (at !== undefined) extras.push(now - at - WORK_MS);
      });
      let finish: (payload: ProgressPayload) => void = () => undefined;
      const finished = new Promise<ProgressPayload>((resolve) => {
        finish = resolve;
      });
      helper.getNode("paced-progress").on("input", (msg: NodeMessage) => {
        const payload = msg.payload as ProgressPayload;
        if (msg.topic === "done") return finish(payload);
        const ended = payload.done + payload.failed + payload.timedOut + payload.interrupted + payload.cancelled;
        progress.push({ at: performance.now(), ended, etaMs: payload.etaMs });
      });
      const began = performance.now();
      helper.getNode("paced-batch").receive({ payload: ids } as never);
      let deadline: NodeJS.Timeout | undefined;
      const summary = await Promise.race([
        finished,
        new Promise<never>((_, reject) => {
          deadline = setTimeout(() => reject(new Error(`the paced batch did not end within ${DEADLINE_MS / 60_000} minutes`)), DEADLINE_MS);
        }),
      ]).finally(() => clearTimeout(deadline));
      const end = performance.now();
      const seconds = (end - began) / 1000;
      const errors = progress
        .filter((seen) => seen.ended >= PACED_PROFILES * ETA_FROM && seen.ended < PACED_PROFILES && end - seen.at > 0)
        .map((seen) => Math.abs((seen.etaMs ?? 0) - (end - seen.at)) / (end - seen.at));
      let longestStallMs = 0;
      for (let index = 1; index < endedAt.length; index++) longestStallMs = Math.max(longestStallMs, (endedAt[index] as number) - (endedAt[index - 1] as number));
      const itemsPerMinute = (PACED_PROFILES / seconds) * 60;
      const boundPerMinute = PER_MINUTE / CALLS_PER_ITEM;
      return {
        profiles: PACED_PROFILES,
        parallel: PARALLEL,
        maxProfiles: MAX_PROFILES,
        perMinute: PER_MINUTE,
        succeeded: summary.done,
        failed: summary.failed + summary.timedOut,
        refused: (await emulator.stats()).rateLimited,
        seconds: round(seconds, 1),
        openExtraP50Ms: Math.round(quantile(extras, 0.5)),
        openExtraP95Ms: Math.round(quantile(extras, 0.95)),
        openExtraMaxMs: Math.round(Math.max(...extras)),
        itemsPerMinute: round(itemsPerMinute, 1),
        boundPerMinute,
        ofBound: round(itemsPerMinute / boundPerMinute, 3),
        etaErrorP50: round(quantile(errors, 0.5), 3),
        etaErrorP90: round(quantile(errors, 0.9), 3),
        etaSamples: errors.length,
        longestStallMs: Math.round(longestStallMs),
      };
    } finally {
      await runtime.stop();
    }
  } finally {
    await emulator.stop();
  }
}

/** The emulator's profile IDs, a page of 100 at a time, through the config node (its pacing counts them as the emulator does). */
async function profileIdsOf(runtime: BenchRuntime, count: number): Promise<string[]> {
  const ids: string[] = [];
  const collect = (msg: NodeMessage): void => {
    for (const profile of (msg.payload as { dataList: Array<{ id: string }> }).dataList) ids.push(profile.id);
  };
  helper.getNode("collect").on("input", collect);
  try {
    for (let pageNo = 1; ids.length < count; pageNo++) {
      const before = ids.length;
      await runtime.run("paced-list", { pageNo });
      if (ids.length === before) throw new Error(`the emulator listed ${ids.length} profiles, not ${count}`);
    }
  } finally {
    helper.getNode("collect").removeListener("input", collect);
  }
  return ids.slice(0, count);
}

/** `npx tsx bench/paced.ts`: this phase alone, its figures printed as JSON. */
if (require.main === module) runAlone(paced);
