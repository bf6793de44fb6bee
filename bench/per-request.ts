/**
 * Phases 1-3: one list call (POST /api/env/page, pageSize 10) at a fixed concurrency, done by raw
 * undici (the limit), by our morelogin-list-profiles node, by the `bench-floor` node (the Node-RED
 * runtime's own cost) and by the core http request node (the peer), all against the same emulator.
 * The variants take turns, round after round, so drift on the machine hits them all alike; each
 * figure is the round with the median rate.
 */
import { inRotatingRounds, medianRun, throughput, type Throughput } from "./measure";
import { BenchRuntime, type EmulatorAddress } from "./node-red-runtime";
import { PAGE_BODY, PAGE_PATH, rawClient } from "./raw-undici";

export const VARIANTS = ["raw", "ours", "floor", "coreHttp"] as const;
export type Variant = (typeof VARIANTS)[number];

export const LABELS: Record<Variant, string> = {
  raw: "raw undici request()",
  ours: "morelogin-list-profiles",
  floor: "floor: minimal node doing raw undici",
  coreHttp: "core http request + JSON",
};

/** Concurrency → requests measured per round. */
export const LOADS: ReadonlyArray<{ concurrency: number; requests: number }> = [
  { concurrency: 1, requests: 500 },
  { concurrency: 64, requests: 2_500 },
];
/**
 * Many short rounds rather than a few long ones: this machine's speed drifts by tens of percent
 * within seconds, and the median of many interleaved rounds is what stays put from run to run.
 */
const ROUNDS = 11;

export type PerRequestResult = Record<Variant, { median: Throughput[]; rounds: Throughput[][] }>;

export async function perRequest(emulator: EmulatorAddress): Promise<PerRequestResult> {
  const raw = rawClient(emulator.localUrl);
  const runtime = await BenchRuntime.start(emulator, [
    { id: "bench-ours", type: "morelogin-list-profiles", server: "config1", pageNo: "1", pageNoType: "num", pageSize: "10", pageSizeType: "num", output: "array" },
    { id: "bench-floor-1", type: "bench-floor", url: emulator.localUrl },
    { id: "bench-core", type: "http request", method: "POST", ret: "obj", paytoqs: "ignore", url: `${emulator.localUrl}${PAGE_PATH}`, persist: true, senderr: false, headers: [] },
  ]);
  const operations: Record<Variant, () => Promise<void>> = {
    raw: () => raw.listPage(),
    ours: () => runtime.run("bench-ours", { payload: "" }),
    floor: () => runtime.run("bench-floor-1", { payload: { ...PAGE_BODY } }),
    coreHttp: () => runtime.run("bench-core", { payload: { ...PAGE_BODY }, headers: { "content-type": "application/json" } }),
  };
  try {
    // Warm-up: JIT, keep-alive sockets up to concurrency 64, the first-use paths of every node.
    for (const variant of VARIANTS) await throughput(64, 1_000, operations[variant]);

    // Each variant starts from a collected heap: the core http request node leaves the most garbage.
    const runs = await inRotatingRounds(VARIANTS, LOADS, ROUNDS, (variant, { concurrency, requests }) => throughput(concurrency, requests, operations[variant]));
    const result = {} as PerRequestResult;
    for (const variant of VARIANTS) result[variant] = { median: runs[variant].map(medianRun), rounds: runs[variant] };
    return result;
  } finally {
    await runtime.stop();
    await raw.close();
  }
}
