/** Keeps `concurrency` operations in flight until `total` have finished; reports rate and latency. */
export interface Throughput {
  concurrency: number;
  requests: number;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
}

export async function throughput(concurrency: number, total: number, operation: () => Promise<void>): Promise<Throughput> {
  const latencies: number[] = [];
  let started = 0;
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
  latencies.sort((a, b) => a - b);
  const at = (q: number): number => round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0);
  return { concurrency, requests: total, perSecond: Math.round(total / seconds), p50Ms: at(0.5), p99Ms: at(0.99) };
}

export function round(value: number, digits = 2): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

/** Samples RSS while `work` runs; returns its result, the wall time and the peak RSS growth. */
export async function withPeakRss<T>(work: () => Promise<T>): Promise<{ result: T; seconds: number; peakRssGrowthMb: number }> {
  const before = process.memoryUsage().rss;
  let peak = before;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 20);
  const begin = performance.now();
  try {
    const result = await work();
    peak = Math.max(peak, process.memoryUsage().rss);
    return { result, seconds: (performance.now() - begin) / 1000, peakRssGrowthMb: round((peak - before) / 1024 / 1024, 1) };
  } finally {
    clearInterval(timer);
  }
}
