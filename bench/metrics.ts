/**
 * Phase 23, the metrics scrape: a config node that started 1,000 profiles (the emulator's stand-in debug
 * ports, no Chromium) with a lease each, and the package's registry rendered in Prometheus's text
 * format as GET /morelogin/metrics renders it, timed at 0 and at 1,000 running. The scrape reads the
 * lease book and sends no request, so it must not grow with the profiles. Target: p95 at most 10 ms.
 */
import { profileIdsOf } from "./capacity";
import { startEmulatorProcess } from "./emulator-process";
import { percentile, round } from "./measure";
import { BenchRuntime } from "./node-red-runtime";

export const METRICS_PROFILES = 1_000;
const SCRAPES = 200;
const CONFIG = "config-metrics";

export interface MetricsResult {
  profiles: number;
  scrapes: number;
  /** Scrape time with nothing running, ms. */
  idle: { p50Ms: number; p95Ms: number };
  /** With every profile running under a lease, ms. */
  running: { p50Ms: number; p95Ms: number };
  /** What the scrape said was running (the config node is named "emulator <id>" by BenchRuntime), to check it saw them all. */
  seenRunning: number;
  bytes: number;
}

/** The registry the nodes in this process feed (dist/, as Node-RED loads it). */
function registry(): { metrics(): Promise<string> } {
  const module = require("../dist/nodes/lib/metrics/prometheus.js") as { moreloginMetrics(): { registry: { metrics(): Promise<string> } } };
  return module.moreloginMetrics().registry;
}

async function timeScrapes(): Promise<{ p50Ms: number; p95Ms: number; text: string }> {
  const times: number[] = [];
  let text = "";
  for (let scrape = 0; scrape < SCRAPES; scrape++) {
    const began = performance.now();
    text = await registry().metrics();
    times.push(performance.now() - began);
  }
  times.sort((a, b) => a - b);
  return { p50Ms: round(percentile(times, 0.5), 3), p95Ms: round(percentile(times, 0.95), 3), text };
}

export async function metricsPhase(): Promise<MetricsResult> {
  const emulator = await startEmulatorProcess({ profiles: METRICS_PROFILES });
  try {
    const runtime = await BenchRuntime.startWith([{ id: CONFIG, emulator }], [{ id: "metrics-start", type: "morelogin-start-profile", server: CONFIG, lease: "3600" }]);
    try {
      const idle = await timeScrapes();
      const ids = await profileIdsOf(emulator.localUrl, METRICS_PROFILES);
      for (let from = 0; from < ids.length; from += 100) await Promise.all(ids.slice(from, from + 100).map((envId) => runtime.run("metrics-start", { payload: envId })));
      const running = await timeScrapes();
      const line = running.text.split("\n").find((entry) => entry.startsWith(`morelogin_running{config="emulator ${CONFIG}",kind="profiles"}`));
      return {
        profiles: METRICS_PROFILES,
        scrapes: SCRAPES,
        idle: { p50Ms: idle.p50Ms, p95Ms: idle.p95Ms },
        running: { p50Ms: running.p50Ms, p95Ms: running.p95Ms },
        seenRunning: Number(line?.split(" ").at(-1) ?? 0),
        bytes: Buffer.byteLength(running.text),
      };
    } finally {
      await runtime.stop();
    }
  } finally {
    await emulator.stop();
  }
}
