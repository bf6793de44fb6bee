/**
 * `npm run bench`: what our nodes cost over the HTTP call itself, against raw undici and against
 * Node-RED's core http request node, plus cold start, all pages and start-up time. Not a test.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Pool } from "undici";
import { startEmulator } from "../src/emulator";
import { freePort, packPackage, prepareUserDir, startNodeRed } from "../tools/sandbox";
import { startEmulatorProcess } from "./emulator-process";
import { round, throughput, withPeakRss, type Throughput } from "./measure";
import { BenchRuntime } from "./runtime";

const PAGE_BODY = { pageNo: 1, pageSize: 10 };
const CONCURRENCIES: Array<[number, number]> = [
  [1, 1_500],
  [64, 6_000],
];

async function rawUndici(localUrl: string): Promise<Throughput[]> {
  const pool = new Pool(localUrl, { connections: 128 });
  const call = async (): Promise<void> => {
    const response = await pool.request({ path: "/api/env/page", method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(PAGE_BODY) });
    const reply = (await response.body.json()) as { code: number };
    if (reply.code !== 0) throw new Error("raw call failed");
  };
  const results: Throughput[] = [];
  await throughput(16, 500, call);
  for (const [concurrency, total] of CONCURRENCIES) results.push(await throughput(concurrency, total, call));
  await pool.destroy();
  return results;
}

async function nodeRedFlows(emulator: { localUrl: string; openUrl: string; apiId: string; apiKey: string }): Promise<{ ours: Throughput[]; core: Throughput[] }> {
  const runtime = await BenchRuntime.start(emulator, [
    { id: "bench-ours", type: "morelogin-list-profiles", server: "config1", pageNo: "1", pageNoType: "num", pageSize: "10", pageSizeType: "num", output: "array" },
    { id: "bench-core", type: "http request", method: "POST", ret: "obj", paytoqs: "ignore", url: `${emulator.localUrl}/api/env/page`, persist: true, senderr: false, headers: [] },
  ]);
  const ours = (): Promise<void> => runtime.run("bench-ours", { payload: "" });
  const core = (): Promise<void> => runtime.run("bench-core", { payload: { ...PAGE_BODY }, headers: { "content-type": "application/json" } });
  const result = { ours: [] as Throughput[], core: [] as Throughput[] };
  await throughput(16, 500, ours);
  await throughput(16, 500, core);
  for (const [concurrency, total] of CONCURRENCIES) {
    result.ours.push(await throughput(concurrency, total, ours));
    result.core.push(await throughput(concurrency, total, core));
  }
  await runtime.stop();
  return result;
}

async function coldStart(): Promise<{ messages: number; tokenGrants: number; seconds: number; perSecond: number }> {
  const emulator = await startEmulator({ apps: 30 });
  const runtime = await BenchRuntime.start(
    { localUrl: emulator.localUrl, openUrl: emulator.openUrl, apiId: emulator.credentials.apiId, apiKey: emulator.credentials.apiKey },
    [{ id: "bench-apps", type: "morelogin-list-apps", server: "config1", pageNum: "1", pageNumType: "num", output: "array" }],
  );
  const begin = performance.now();
  await Promise.all(Array.from({ length: 1_000 }, () => runtime.run("bench-apps", { payload: "" })));
  const seconds = (performance.now() - begin) / 1000;
  const tokenGrants = emulator.stats.tokensGranted;
  await runtime.stop();
  await emulator.close();
  return { messages: 1_000, tokenGrants, seconds: round(seconds), perSecond: Math.round(1_000 / seconds) };
}

async function allPages(): Promise<Record<string, unknown>> {
  const profiles = 100_000;
  const emulator = await startEmulatorProcess(profiles);
  const pool = new Pool(emulator.localUrl, { connections: 4 });
  const raw = await withPeakRss(async () => {
    const items: unknown[] = [];
    for (let pageNo = 1; ; pageNo++) {
      const response = await pool.request({ path: "/api/env/page", method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ pageNo, pageSize: 100 }) });
      const page = ((await response.body.json()) as { data: { pages: string; dataList: unknown[] } }).data;
      items.push(...page.dataList);
      if (pageNo >= Number(page.pages)) break;
    }
    return items.length;
  });
  await pool.destroy();

  const runtime = await BenchRuntime.start(emulator, [
    { id: "bench-array", type: "morelogin-list-profiles", server: "config1", all: true, output: "array", maxItems: profiles },
    { id: "bench-split", type: "morelogin-list-profiles", server: "config1", all: true, output: "split", maxItems: profiles },
    { id: "bench-array-then-split", type: "morelogin-list-profiles", server: "config1", all: true, output: "array", maxItems: profiles, wires: [["bench-core-split"]] },
    { id: "bench-core-split", type: "split", splt: "\\n", spltType: "str", arraySplt: 1, arraySpltType: "len", stream: false, addname: "" },
  ]);
  const array = await withPeakRss(() => runtime.run("bench-array", { payload: "" }));
  const split = await withPeakRss(() => runtime.run("bench-split", { payload: "" }, profiles));
  const arrayThenSplit = await withPeakRss(() => runtime.run("bench-array-then-split", { payload: "" }, profiles));
  await runtime.stop();
  await emulator.stop();
  const line = (figures: { seconds: number; peakRssGrowthMb: number }): Record<string, number> => ({
    seconds: round(figures.seconds),
    itemsPerSecond: Math.round(profiles / figures.seconds),
    peakRssGrowthMb: figures.peakRssGrowthMb,
  });
  return { profiles, raw: { ...line(raw), items: raw.result }, array: line(array), split: line(split), arrayThenCoreSplit: line(arrayThenSplit) };
}

async function startup(): Promise<{ withoutMs: number; withMs: number; addedMs: number }> {
  const work = mkdtempSync(join(tmpdir(), "morelogin-bench-"));
  try {
    const tarball = await packPackage(join(work, "pack"));
    await prepareUserDir(join(work, "with"), tarball, { fresh: true });
    mkdirSync(join(work, "without"), { recursive: true });
    const time = async (userDir: string): Promise<number> => {
      const samples: number[] = [];
      for (let i = 0; i < 3; i++) {
        const begin = performance.now();
        const nodeRed = await startNodeRed({ userDir, port: await freePort() });
        samples.push(performance.now() - begin);
        await nodeRed.stop();
      }
      samples.sort((a, b) => a - b);
      return Math.round(samples[1] ?? 0);
    };
    const withoutMs = await time(join(work, "without"));
    const withMs = await time(join(work, "with"));
    return { withoutMs, withMs, addedMs: withMs - withoutMs };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

function ratio(name: string, value: number, target: string, pass: boolean): { name: string; value: number; target: string; pass: boolean } {
  return { name, value: round(value), target, pass };
}

async function main(): Promise<void> {
  const began = performance.now();
  const small = await startEmulatorProcess(25);
  const raw = await rawUndici(small.localUrl);
  const flows = await nodeRedFlows(small);
  await small.stop();
  const cold = await coldStart();
  const pages = await allPages();
  const start = await startup();

  const at = (list: Throughput[], concurrency: number): Throughput => list.find((entry) => entry.concurrency === concurrency) as Throughput;
  const pagesOf = (key: string): { seconds: number; peakRssGrowthMb: number } => pages[key] as { seconds: number; peakRssGrowthMb: number };
  const ratios = [
    ratio("node_vs_raw_c64", at(flows.ours, 64).perSecond / at(raw, 64).perSecond, ">= 0.90", at(flows.ours, 64).perSecond / at(raw, 64).perSecond >= 0.9),
    ratio("node_vs_raw_c1", at(flows.ours, 1).perSecond / at(raw, 1).perSecond, ">= 0.85", at(flows.ours, 1).perSecond / at(raw, 1).perSecond >= 0.85),
    ratio("node_vs_core_http_c64", at(flows.ours, 64).perSecond / at(flows.core, 64).perSecond, ">= 2", at(flows.ours, 64).perSecond / at(flows.core, 64).perSecond >= 2),
    ratio("cold_token_grants", cold.tokenGrants, "== 1", cold.tokenGrants === 1),
    ratio("all_pages_vs_raw", pagesOf("array").seconds / pagesOf("raw").seconds, "<= 1.2", pagesOf("array").seconds / pagesOf("raw").seconds <= 1.2),
    ratio("all_pages_rss_growth_mb", pagesOf("array").peakRssGrowthMb, "< 300", pagesOf("array").peakRssGrowthMb < 300),
    ratio("split_vs_array_plus_core_split", pagesOf("split").seconds / pagesOf("arrayThenCoreSplit").seconds, "<= 1.0", pagesOf("split").seconds <= pagesOf("arrayThenCoreSplit").seconds),
    ratio("startup_added_ms", start.addedMs, "(reported)", true),
  ];
  const results = { date: new Date().toISOString(), node: process.version, cores: (await import("node:os")).cpus().length, raw, ours: flows.ours, coreHttpRequest: flows.core, coldStart: cold, allPages: pages, startup: start, ratios, seconds: round((performance.now() - began) / 1000, 1) };
  writeFileSync(join(__dirname, "results.json"), `${JSON.stringify(results, null, 2)}\n`);

  const rows = (label: string, list: Throughput[]): string[] => list.map((entry) => `| ${label} | ${entry.concurrency} | ${entry.perSecond} | ${entry.p50Ms} | ${entry.p99Ms} |`);
  console.log(["| what | concurrency | requests/s | p50 ms | p99 ms |", "|---|---|---|---|---|", ...rows("raw undici", raw), ...rows("morelogin-list-profiles", flows.ours), ...rows("core http request + JSON", flows.core)].join("\n"));
  console.log(`\ncold start: ${JSON.stringify(cold)}\nall pages: ${JSON.stringify(pages)}\nstart-up: ${JSON.stringify(start)}\n`);
  console.log(["| ratio | value | target | pass |", "|---|---|---|---|", ...ratios.map((entry) => `| ${entry.name} | ${entry.value} | ${entry.target} | ${entry.pass ? "yes" : "NO"} |`)].join("\n"));
  console.log(`\n(${results.seconds} s; figures written to bench/results.json)`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
