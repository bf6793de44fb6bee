/** Turns the phases' figures into named ratios with targets, a printed table and bench/results.json. */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { AllPagesResult } from "./all-pages";
import { browserRatios, firstActionMedianMs, type BrowserResult } from "./browser";
import type { ColdStartResult } from "./cold-start";
import { PARSE_LABELS, PARSE_VARIANTS, type ExactJsonResult } from "./exact-json";
import { median, round, type Throughput } from "./measure";
import { LABELS, LOADS, VARIANTS, type PerRequestResult, type Variant } from "./per-request";
import type { RateLimitedFigure, RateLimitedResult } from "./rate-limited";
import type { StartupResult } from "./startup";
import { watchRatios, type WatchResult } from "./watch";

export interface Ratio {
  name: string;
  value: number;
  target: string;
  pass: boolean | null;
  /** What the ratio compares. */
  means: string;
  /**
   * For a ratio of paired rounds: the spread of the per-round ratios, as the interquartile range
   * (25th to 75th percentile) and the lowest and highest round. A difference between two runs that
   * stays inside this spread is noise, not a cost.
   */
  spread?: Spread;
}

export interface Spread {
  q1: number;
  q3: number;
  min: number;
  max: number;
}

export interface Figures {
  perRequest: PerRequestResult;
  coldStart: ColdStartResult;
  allPages: AllPagesResult;
  startup: StartupResult;
  rateLimited: RateLimitedResult;
  exactJson: ExactJsonResult;
  browser: BrowserResult;
  watch: WatchResult;
}

const at = (figures: Figures, variant: Variant, concurrency: number): Throughput => {
  const found = figures.perRequest[variant].median.find((entry) => entry.concurrency === concurrency);
  if (!found) throw new Error(`no ${variant} figure at concurrency ${concurrency}`);
  return found;
};

/** The q-quantile of ascending `sorted`, interpolated between neighbours. */
function quantile(sorted: readonly number[], q: number): number {
  const at = (sorted.length - 1) * q;
  const low = Math.floor(at);
  const high = Math.ceil(at);
  return (sorted[low] as number) + ((sorted[high] as number) - (sorted[low] as number)) * (at - low);
}

/** `a` ÷ `b` in requests/s, one figure per round (both ran in the same round, close in time). */
function perRoundRatios(figures: Figures, a: Variant, b: Variant, concurrency: number): number[] {
  const index = LOADS.findIndex((load) => load.concurrency === concurrency);
  const first = figures.perRequest[a].rounds[index] ?? [];
  const second = figures.perRequest[b].rounds[index] ?? [];
  if (first.length === 0 || first.length !== second.length) throw new Error(`no paired rounds for ${a} and ${b} at concurrency ${concurrency}`);
  return first.map((run, round) => run.perSecond / (second[round] as Throughput).perSecond);
}

/**
 * The median of the per-round ratios (drift of the machine between rounds cancels out), with their
 * spread.
 */
function pairedRatio(figures: Figures, a: Variant, b: Variant, concurrency: number): { value: number; spread: Spread } {
  return medianWithSpread(perRoundRatios(figures, a, b, concurrency));
}

function medianWithSpread(perRound: readonly number[]): { value: number; spread: Spread } {
  const rounds = [...perRound].sort((x, y) => x - y);
  return {
    value: median(rounds),
    spread: { q1: round(quantile(rounds, 0.25)), q3: round(quantile(rounds, 0.75)), min: round(rounds[0] as number), max: round(rounds.at(-1) as number) },
  };
}

/** How a spread is printed: the interquartile range, then the lowest and highest round. */
export function formatSpread(spread: Spread | undefined): string {
  return spread ? `${spread.q1}–${spread.q3} (min–max ${spread.min}–${spread.max})` : "—";
}

export function ratios(figures: Figures): Ratio[] {
  const ratio = (a: Variant, b: Variant, concurrency: number): { value: number; spread: Spread } => pairedRatio(figures, a, b, concurrency);
  const { allPages: pages, coldStart: cold, startup, rateLimited: limited, exactJson: parse } = figures;
  const atLeast = (name: string, value: number, min: number, means: string): Ratio => ({ name, value: round(value), target: `>= ${min}`, pass: value >= min, means });
  const pairedAtLeast = (name: string, paired: { value: number; spread: Spread }, min: number, means: string): Ratio => ({ ...atLeast(name, paired.value, min, means), spread: paired.spread });
  const reported = (name: string, paired: { value: number; spread: Spread }, means: string): Ratio => ({
    name,
    value: round(paired.value),
    target: "(reported)",
    pass: null,
    means,
    spread: paired.spread,
  });
  const atMost = (name: string, value: number, max: number, means: string): Ratio => ({ name, value: round(value), target: `<= ${max}`, pass: value <= max, means });
  return [
    pairedAtLeast("node_vs_raw_c64", ratio("ours", "raw", 64), 0.9, "list-profiles node requests/s ÷ raw undici requests/s, concurrency 64, median of the per-round ratios"),
    pairedAtLeast("node_vs_raw_c1", ratio("ours", "raw", 1), 0.85, "list-profiles node requests/s ÷ raw undici requests/s, concurrency 1, median of the per-round ratios"),
    pairedAtLeast("node_vs_core_http_c64", ratio("ours", "coreHttp", 64), 2, "list-profiles node requests/s ÷ core http request flow requests/s, concurrency 64, median of the per-round ratios"),
    {
      name: "cold_token_grants",
      value: cold.tokenGrants,
      target: "== 1",
      pass: cold.tokenGrants === 1 && cold.succeeded === cold.messages,
      means: `token grants for ${cold.messages} concurrent cold list-apps messages (all must succeed)`,
    },
    atMost("all_pages_vs_raw", pages.array.seconds / pages.raw.seconds, 1.2, "all pages (array) wall time ÷ raw undici page loop wall time"),
    {
      name: "all_pages_rss_growth_mb",
      value: pages.array.peakRssGrowthMb,
      target: "< 300",
      pass: pages.array.peakRssGrowthMb < 300,
      means: `peak RSS growth (MB) while list-profiles collects ${pages.profiles} profiles`,
    },
    atMost("split_vs_array_plus_core_split", pages.split.seconds / pages.arrayThenCoreSplit.seconds, 1, "split output wall time ÷ (array output + core Split node) wall time"),
    underLimit("rate_limited_efficiency", limited.paced, 0.9, limited),
    underLimit("rate_limited_unpaced", limited.unpaced, 0.7, limited),
    pairedAtLeast(
      "browser_vs_direct",
      medianWithSpread(browserRatios(figures.browser)),
      0.8,
      `${figures.browser.steps} sequential evaluate steps through the browser node ÷ the same through playwright-core on a held connection, same tab of a real Chromium, median of the per-round ratios`,
    ),
    // Not targets: what explains the per-request ratios.
    reported("floor_vs_raw_c64", ratio("floor", "raw", 64), "minimal Node-RED node doing raw undici ÷ raw undici, concurrency 64: the runtime's own ceiling"),
    reported("floor_vs_raw_c1", ratio("floor", "raw", 1), "minimal Node-RED node doing raw undici ÷ raw undici, concurrency 1"),
    reported("node_vs_floor_c64", ratio("ours", "floor", 64), "list-profiles node ÷ the minimal node, concurrency 64: what our own code costs"),
    reported("node_vs_floor_c1", ratio("ours", "floor", 1), "list-profiles node ÷ the minimal node, concurrency 1"),
    {
      name: "browser_first_action_ms",
      value: firstActionMedianMs(figures.browser),
      target: "(reported)",
      pass: null,
      means: `ms from start profile's reply to the first browser step's result (connect, new tab, demo page loaded), median of ${figures.browser.firstActionMs.length} freshly started profiles`,
    },
    { name: "startup_added_ms", value: startup.addedMs, target: "(reported)", pass: null, means: "median Node-RED start with the package installed minus without" },
    ...parse.pages.map((page) => ({
      name: `exact_json_vs_json_parse_${page.profiles}`,
      value: page.variants.exact.vsPlain,
      target: "(reported)",
      pass: null,
      means: `parseJsonExact ÷ JSON.parse, CPU time per ${page.profiles}-profile list reply without unsafe integers (the regex pre-check is all it adds), median of the per-round ratios`,
    })),
    ...watchRatios(figures.watch),
  ];
}

/** A rate-limited measurement as a ratio: every message must succeed, and the wall time come close to the least the limit allows. */
function underLimit(name: string, figure: RateLimitedFigure, min: number, limited: RateLimitedResult): Ratio {
  const how = figure.localRpm > 0 ? `the config node paces at ${figure.localRpm} a minute` : "no pacing (localRpm 0): the server's 429 replies are the only signal";
  return {
    name,
    value: figure.ratio,
    target: `>= ${min}, 0 failures`,
    pass: figure.ratio >= min && figure.failed === 0,
    means: `${figure.messages} list-profiles messages at once against a limit of ${limited.perMinute} requests a minute, ${how}; ${limited.formula}, here (ceil(${figure.messages} ÷ ${limited.perMinute}) − 1) × 60 s = ${figure.leastSeconds} s; all must succeed`,
  };
}

export function table(figures: Figures, list: Ratio[], meta: Record<string, unknown>): string {
  const lines: string[] = [];
  lines.push("| what | concurrency | requests/s | p50 ms | p99 ms | CPU µs/request (measured side) |", "|---|---|---|---|---|---|");
  for (const concurrency of [1, 64]) {
    for (const variant of VARIANTS) {
      const entry = at(figures, variant, concurrency);
      lines.push(`| ${LABELS[variant]} | ${concurrency} | ${entry.perSecond} | ${entry.p50Ms} | ${entry.p99Ms} | ${entry.cpuUsPerRequest} |`);
    }
  }
  const { coldStart: cold, allPages: pages, startup } = figures;
  const pageLine = (label: string, figure: { seconds: number; itemsPerSecond: number; peakRssGrowthMb: number }): string =>
    `| ${label} | ${figure.seconds} s, ${figure.itemsPerSecond} items/s, peak RSS +${figure.peakRssGrowthMb} MB |`;
  lines.push(
    "",
    "| other figure | value |",
    "|---|---|",
    `| cold start: ${cold.messages} concurrent list-apps messages | ${cold.succeeded} succeeded, ${cold.tokenGrants} token grant(s) (${cold.tokenRequests} token request(s)), ${cold.seconds} s, ${cold.perSecond} messages/s |`,
    pageLine(`all pages (${pages.profiles} profiles), raw undici loop`, pages.raw),
    pageLine("all pages, list-profiles (array)", pages.array),
    pageLine("all pages, list-profiles (split: one message per item)", pages.split),
    pageLine("all pages, list-profiles (array) then core Split node", pages.arrayThenCoreSplit),
    `| browser node: ${figures.browser.steps} evaluate steps, node / direct, steps per second per round | ${figures.browser.rounds.map((entry) => `${entry.node} / ${entry.direct}`).join(", ")} |`,
    `| browser node: first step after start profile, ms | ${figures.browser.firstActionMs.join(", ")} |`,
    `| Node-RED start without / with the package (median of ${startup.samples}) | ${startup.withoutMs} ms / ${startup.withMs} ms (${startup.addedMs >= 0 ? "+" : ""}${startup.addedMs} ms) |`,
    ...(["paced", "unpaced"] as const).map((kind) => {
      const figure = figures.rateLimited[kind];
      const label = `${figure.messages} list messages at once, limit ${figures.rateLimited.perMinute}/min, localRpm ${figure.localRpm}`;
      return `| ${label} | ${figure.succeeded} succeeded, ${figure.failed} failed, ${figure.seconds} s (least ${figure.leastSeconds} s), ${figure.refused} refused with 429, ${figure.pageRequests} requests |`;
    }),
    "",
    `| reply parsing, µs per reply (median of ${figures.exactJson.rounds} rounds; × JSON.parse) | ${figures.exactJson.pages.map((page) => `${page.profiles} profiles (${page.bytes} bytes)`).join(" | ")} |`,
    `|---|${figures.exactJson.pages.map(() => "---").join("|")}|`,
    ...PARSE_VARIANTS.map((variant) => `| ${PARSE_LABELS[variant]} | ${figures.exactJson.pages.map((page) => `${page.variants[variant].us} (× ${page.variants[variant].vsPlain})`).join(" | ")} |`),
    "",
    "| ratio | value | spread of the rounds: IQR (min–max) | target | met |",
    "|---|---|---|---|---|",
    ...list.map((ratio) => `| ${ratio.name} | ${ratio.value} | ${formatSpread(ratio.spread)} | ${ratio.target} | ${ratio.pass === null ? "—" : ratio.pass ? "yes" : "**no**"} |`),
    "",
    `Machine: ${String(meta.cores)} cores, Node ${String(meta.node)}, ${meta.pinned ? "measured side pinned to core 0, emulator to the last core (taskset)" : "no core pinning"}; run took ${String(meta.seconds)} s.`,
  );
  return lines.join("\n");
}

export function writeResults(figures: Figures, list: Ratio[], meta: Record<string, unknown>): string {
  const file = join(__dirname, "results.json");
  writeFileSync(file, `${JSON.stringify({ ...meta, ratios: list, ...figures }, null, 2)}\n`);
  return file;
}
