/** Rates, latency percentiles, wall time and peak RSS: the benchmark's only ways of measuring. */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

export interface Throughput {
  concurrency: number;
  requests: number;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** CPU time this process spent per request (user + system, all its threads), in microseconds. */
  cpuUsPerRequest: number;
}

/** Keeps `concurrency` operations in flight until `total` have finished; reports rate and latency. */
export async function throughput(concurrency: number, total: number, operation: () => Promise<void>): Promise<Throughput> {
  const latencies: number[] = [];
  let started = 0;
  const cpuBefore = process.cpuUsage();
  const begin = performance.now();
  const worker = async (): Promise<void> => {
    while (started < total) {
      started++;
      const t0 = performance.now();
      await operation();
      latencies.push(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = (performance.now() - begin) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  latencies.sort((a, b) => a - b);
  return {
    concurrency,
    requests: total,
    perSecond: Math.round(total / seconds),
    p50Ms: round(percentile(latencies, 0.5)),
    p99Ms: round(percentile(latencies, 0.99)),
    cpuUsPerRequest: Math.round((cpu.user + cpu.system) / total),
  };
}

/** The q-quantile of ascending `sorted` (nearest rank). */
export function percentile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] as number;
}

/** The run with the median rate among repeated runs of the same measurement. */
export function medianRun(runs: readonly Throughput[]): Throughput {
  const sorted = [...runs].sort((a, b) => a.perSecond - b.perSecond);
  return sorted[Math.floor((sorted.length - 1) / 2)] as Throughput;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

export function round(value: number, digits = 2): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

/** A full garbage collection, so RSS growth is measured from a settled heap. */
export function collectGarbage(): void {
  gc();
  gc();
}

export interface Timed<T> {
  result: T;
  seconds: number;
  peakRssGrowthMb: number;
}

/** Samples RSS every 10 ms while `work` runs; returns its result, the wall time and the peak RSS growth. */
export async function withPeakRss<T>(work: () => Promise<T>): Promise<Timed<T>> {
  collectGarbage();
  const before = process.memoryUsage.rss();
  let peak = before;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 10);
  const begin = performance.now();
  try {
    const result = await work();
    const seconds = (performance.now() - begin) / 1000;
    peak = Math.max(peak, process.memoryUsage.rss());
    return { result, seconds, peakRssGrowthMb: round((peak - before) / 1024 / 1024, 1) };
  } finally {
    clearInterval(timer);
  }
}

/**
 * The variants take turns, round after round, so drift on the machine hits them all alike. Each round
 * measures every variant once for each setting, in an order rotated by one each round so that no
 * variant always runs first or last, and each from a collected heap, so no variant pays for the
 * garbage the one before it left. Returns, by variant, for each setting (in the order given) the
 * figure of each round.
 */
export async function inRotatingRounds<V extends string, S, F>(
  variants: readonly V[],
  settings: readonly S[],
  rounds: number,
  measure: (variant: V, setting: S) => F | Promise<F>,
): Promise<Record<V, F[][]>> {
  const figures = Object.fromEntries(variants.map((variant) => [variant, settings.map((): F[] => [])])) as Record<V, F[][]>;
  for (let round = 0; round < rounds; round++) {
    const order = variants.map((_, i) => variants[(i + round) % variants.length] as V);
    for (const [index, setting] of settings.entries()) {
      for (const variant of order) {
        collectGarbage();
        figures[variant][index]?.push(await measure(variant, setting));
      }
    }
  }
  return figures;
}
