/**
 * Phase 7, under a rate limit: 1,200 list-profiles messages sent at once through one config node,
 * against an emulator (a process of its own) that accepts at most 600 requests to each API in any 60
 * seconds and refuses the others as MoreLogin does: HTTP 429 `{code: 429}`, without Retry-After.
 * Two measurements, run at the same time against two emulators, on two config nodes of one runtime:
 *
 * - paced: the config node's `localRpm` is 600, so the client itself never sends more than the
 *   server allows;
 * - unpaced: `localRpm` is 0, so the server's 429 replies are the only signal the client gets; it
 *   waits until the oldest request it made in the last 60 s stops counting, and sends again.
 *
 * Both must end every message with an output (0 failures). The figure is how close the wall time
 * comes to the least time the limit allows (`leastSeconds`).
 */
import type { EmulatorStats } from "../src/emulator";
import { startEmulatorProcess, type EmulatorProcess } from "./emulator-process";
import { round } from "./measure";
import { BenchRuntime } from "./node-red-runtime";

/** The server's limit: requests per API per 60-second window. */
export const RATE_LIMIT_PER_MINUTE = 600;
export const RATE_LIMITED_MESSAGES = 1_200;
const WINDOW_SECONDS = 60;
const PAGE_ROUTE = "local POST /api/env/page";

/**
 * The least wall time the limit allows for `messages` requests at `perMinute` per 60-second window:
 * the first `perMinute` go in the first window, and each further `perMinute` needs one more full
 * window after the first request: (ceil(messages ÷ perMinute) − 1) × 60 s. For 1,200 at 600 a
 * minute, one window lies between the first request and the 601st: 60 s. (The time the last
 * window's requests themselves take is not counted: a ratio of 1 is out of reach, by that much.)
 */
export function leastSeconds(messages: number, perMinute: number): number {
  return (Math.ceil(messages / perMinute) - 1) * WINDOW_SECONDS;
}

export const LEAST_SECONDS_FORMULA = "least seconds = (ceil(messages ÷ limit per minute) − 1) × 60 s; ratio = least seconds ÷ wall seconds";

export interface RateLimitedFigure {
  /** The config node's localRpm (0 = no pacing: the server's 429s are the only signal). */
  localRpm: number;
  messages: number;
  succeeded: number;
  failed: number;
  /** Up to 5 distinct error texts of the failed messages. */
  errors: string[];
  /** From sending all messages to the last one's output. */
  seconds: number;
  leastSeconds: number;
  /** leastSeconds ÷ seconds. */
  ratio: number;
  /** Requests the emulator refused with 429 (pacing that works keeps this at 0). */
  refused: number;
  /** List requests the emulator saw: one per message plus one per refusal. */
  pageRequests: number;
}

export interface RateLimitedResult {
  perMinute: number;
  /** Whether the two measurements ran at the same time (each against its own emulator process). */
  concurrent: boolean;
  formula: string;
  paced: RateLimitedFigure;
  unpaced: RateLimitedFigure;
}

const NODES = { paced: "bench-rate-paced", unpaced: "bench-rate-unpaced" } as const;
const CONFIGS = { paced: "config-paced", unpaced: "config-unpaced" } as const;
const RPM = { paced: RATE_LIMIT_PER_MINUTE, unpaced: 0 } as const;

async function burst(runtime: BenchRuntime, emulator: EmulatorProcess, kind: keyof typeof NODES): Promise<RateLimitedFigure> {
  const begin = performance.now();
  let last = begin;
  const outcomes = await Promise.allSettled(
    Array.from({ length: RATE_LIMITED_MESSAGES }, () =>
      runtime.run(NODES[kind], { payload: "" }).finally(() => {
        last = performance.now();
      }),
    ),
  );
  const seconds = (last - begin) / 1000;
  const stats: EmulatorStats = await emulator.stats();
  const errors = new Set<string>();
  for (const outcome of outcomes) if (outcome.status === "rejected" && errors.size < 5) errors.add(String((outcome.reason as Error)?.message ?? outcome.reason));
  const succeeded = outcomes.filter((outcome) => outcome.status === "fulfilled").length;
  const least = leastSeconds(RATE_LIMITED_MESSAGES, RATE_LIMIT_PER_MINUTE);
  return {
    localRpm: RPM[kind],
    messages: RATE_LIMITED_MESSAGES,
    succeeded,
    failed: RATE_LIMITED_MESSAGES - succeeded,
    errors: [...errors],
    seconds: round(seconds, 2),
    leastSeconds: least,
    ratio: round(least / seconds, 3),
    refused: stats.rateLimited,
    pageRequests: stats.requests[PAGE_ROUTE] ?? 0,
  };
}

/**
 * Both measurements at once. They are honest side by side: each has its own emulator process (its
 * own limit and window) and its own config node (its own client, pacing and sockets); what they
 * share is this process's CPU, which they need for a second or so at the start and after a minute,
 * against a wall time of over 60 s spent waiting. `concurrent: false` runs them one after the other.
 */
export async function rateLimited(concurrent = true): Promise<RateLimitedResult> {
  // The published answer to a request over the limit: HTTP 429, {code: 429}, no Retry-After.
  const options = { profiles: 25, rateLimitPerMinute: RATE_LIMIT_PER_MINUTE, rateLimitRetryAfter: false };
  const [paced, unpaced] = await Promise.all([startEmulatorProcess(options), startEmulatorProcess(options)]);
  try {
    const runtime = await BenchRuntime.startWith(
      [
        { id: CONFIGS.paced, emulator: paced, settings: { localRpm: String(RPM.paced) } },
        { id: CONFIGS.unpaced, emulator: unpaced, settings: { localRpm: String(RPM.unpaced) } },
      ],
      (["paced", "unpaced"] as const).map((kind) => ({
        id: NODES[kind],
        type: "morelogin-list-profiles",
        server: CONFIGS[kind],
        pageNo: "1",
        pageNoType: "num",
        pageSize: "10",
        pageSizeType: "num",
        output: "array",
      })),
    );
    try {
      if (concurrent) {
        const [pacedFigure, unpacedFigure] = await Promise.all([burst(runtime, paced, "paced"), burst(runtime, unpaced, "unpaced")]);
        return { perMinute: RATE_LIMIT_PER_MINUTE, concurrent, formula: LEAST_SECONDS_FORMULA, paced: pacedFigure, unpaced: unpacedFigure };
      }
      const pacedFigure = await burst(runtime, paced, "paced");
      const unpacedFigure = await burst(runtime, unpaced, "unpaced");
      return { perMinute: RATE_LIMIT_PER_MINUTE, concurrent, formula: LEAST_SECONDS_FORMULA, paced: pacedFigure, unpaced: unpacedFigure };
    } finally {
      await runtime.stop();
    }
  } finally {
    await Promise.all([paced.stop(), unpaced.stop()]);
  }
}
