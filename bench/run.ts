/**
 * `npm run bench`: what our nodes cost over the HTTP call itself, against raw undici and against
 * Node-RED's core http request node, plus Open API cold start, all pages, reply parsing, throughput
 * under a rate limit and start-up time. A benchmark, not a test (not part of `npm test`). Prints a
 * table and writes bench/results.json.
 */
import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { allPages } from "./all-pages";
import { batchPhase } from "./batch";
import { browserSteps } from "./browser";
import { capacity } from "./capacity";
import { cloudVsLocalBrowser } from "./cloud-browser";
import { identityOverhead } from "./identity";
import { coldStart } from "./cold-start";
import { leasePhase } from "./lease";
import { PINNED, pinSelf, unpinSelf } from "./cpu";
import { startEmulatorProcess } from "./emulator-process";
import { exactJson } from "./exact-json";
import { extractVsRaw } from "./extract";
import { round } from "./measure";
import { paced } from "./paced";
import { provision } from "./provision";
import { proxyCheck } from "./proxy-check";
import { metricsPhase } from "./metrics";
import { perRequest } from "./per-request";
import { queueOverhead } from "./queue-overhead";
import { queueScale } from "./queue-scale";
import { rateLimited } from "./rate-limited";
import { serverLogin } from "./server-login";
import { PHASES, phaseNamed, ratios, table, writeResults, type Figures, type NotMeasured, type Phase, type RunFigures } from "./report";
import { startup } from "./startup";
import { watchPhase } from "./watch";
import { CHROMIUM, chromiumInstalled } from "../test/support/chromium";
import { REDIS_SERVER } from "../test/support/redis";

/**
 * Past this the run gives up, writing what it measured so far. It takes 13 to 14 minutes on a 2-core
 * machine: phase 7 waits out a minute of rate limit (its two measurements run side by side), phase 10
 * works 200 profiles through five places, phase 16 works 200 profiles at the API's pace (over 3
 * minutes), phase 19 creates 360 profiles from a CSV at that pace (about 3 minutes), phase 11 watches changes for about a minute, phase 17 runs three Node-REDs for about a
 * minute and a half, and phases 9, 14 and 20 start real browsers (phase 20 about 45 s).
 */
const DEADLINE_MS = 18 * 60_000;

/** What the queue phases need that the machine may lack. */
function missingRedis(): string | undefined {
  return existsSync(REDIS_SERVER) ? undefined : `no redis-server at ${REDIS_SERVER} (install it with \`apt-get install -y redis-server\`)`;
}

/** What a phase needs that the machine may lack, checked before anything runs. */
function missingForBrowserPhase(): string | undefined {
  return chromiumInstalled() ? undefined : `no Chromium at ${CHROMIUM} (install it with \`apt-get install -y chromium\`, or name one with MORELOGIN_CHROMIUM)`;
}

interface PhaseRun<P extends Phase> {
  phase: P;
  title: string;
  run: () => Promise<Figures[P]>;
  /** Why it cannot run on this machine, known before the first phase starts. */
  missing?: string;
}

const began = performance.now();
const say = (text: string): void => console.error(`[bench ${round((performance.now() - began) / 1000, 1)} s] ${text}`);
/** What has been measured so far: the deadline writes it too. */
const measuredSoFar: Partial<RunFigures> = {};
const failed: string[] = [];

/**
 * `npm run bench -- <name> ...` runs only the phases named, by phase (`perRequest`) or by a ratio it
 * gives (`node_vs_raw_c64`); the others are reported as not selected. No name: every phase.
 */
const SELECTED = selectedPhases(process.argv.slice(2));

function selectedPhases(names: readonly string[]): ReadonlySet<Phase> | undefined {
  if (names.length === 0) return undefined;
  const chosen = new Set<Phase>();
  for (const name of names) {
    const phase = phaseNamed(name);
    if (!phase) {
      console.error(`bench: no phase or ratio named "${name}"; phases: ${PHASES.join(", ")}`);
      process.exit(2);
    }
    chosen.add(phase);
  }
  return chosen;
}

/**
 * Keeps a phase's figures, or why it has none. Through a plain record: an assignment to
 * `measuredSoFar[phase]` makes the checker build a union over every phase's figures, which grew too
 * complex for it (TS2590) with the 17th phase.
 */
function record<P extends Phase>(phase: P, figure: Figures[P] | NotMeasured): void {
  (measuredSoFar as Partial<Record<Phase, unknown>>)[phase] = figure;
}

async function runPhase<P extends Phase>({ phase, title, run, missing }: PhaseRun<P>): Promise<void> {
  if (SELECTED && !SELECTED.has(phase)) {
    record(phase, { notMeasured: "not selected" });
    return;
  }
  if (missing) {
    say(`${title}: skipped, ${missing}`);
    record(phase, { notMeasured: `skipped: ${missing}` });
    return;
  }
  say(title);
  try {
    record(phase, await run());
  } catch (error) {
    console.error(`bench: phase ${title.split(":")[0]} failed:`, error);
    failed.push(title.split(":")[0] as string);
    record(phase, { notMeasured: `failed: ${error instanceof Error ? error.message : String(error)}` });
  }
}

/** Writes bench/results.json and prints the tables; phases not reached are listed as not measured, for `why`. */
function report(why: string): string | undefined {
  const figures = Object.fromEntries(PHASES.map((phase) => [phase, measuredSoFar[phase] ?? { notMeasured: why }])) as RunFigures;
  const list = ratios(figures);
  const meta = { date: new Date().toISOString(), node: process.version, cores: availableParallelism(), pinned: PINNED, seconds: round((performance.now() - began) / 1000, 1) };
  const file = writeResults(figures, list, meta);
  console.log(table(figures, list, meta));
  console.log(`\nFigures written to ${file}.`);
  const missed = list.filter((ratio) => ratio.pass === false).map((ratio) => ratio.name);
  const unmeasured = list.filter((ratio) => ratio.notMeasured).map((ratio) => ratio.name);
  if (missed.length) console.log(`Targets missed: ${missed.join(", ")}`);
  if (unmeasured.length) console.log(`Not measured (no figure, so no pass): ${unmeasured.join(", ")}`);
  const judged = list.filter((ratio) => ratio.pass !== null);
  if (!missed.length && judged.length) console.log(unmeasured.length ? "Every target that was measured is met." : "All targets met.");
  return file;
}

async function main(): Promise<void> {
  const noBrowser = missingForBrowserPhase();
  if (noBrowser) console.error(`bench: ${noBrowser}; phases 9, 14 and 20 (the browser node) will not be measured, every other phase will.`);
  const noRedis = missingRedis();
  if (noRedis) console.error(`bench: ${noRedis}; phases 17 and 18 (a batch on a Redis queue) will not be measured.`);
  pinSelf();
  await runPhase({
    phase: "perRequest",
    title: "1-3: raw undici, list-profiles node, floor node, core http request at concurrency 1 and 64",
    run: async () => {
      const small = await startEmulatorProcess({});
      try {
        return await perRequest(small);
      } finally {
        await small.stop();
      }
    },
  });
  await runPhase({ phase: "coldStart", title: "4: Open API cold start, 1,000 concurrent list-apps messages", run: () => coldStart() });
  await runPhase({ phase: "allPages", title: "5: all pages, 100,000 profiles", run: () => allPages() });
  await runPhase({ phase: "rateLimited", title: "7: under a rate limit of 600 a minute, 1,200 messages paced and 1,200 unpaced, side by side (over a minute)", run: () => rateLimited() });
  await runPhase({ phase: "capacity", title: "10: 200 profiles through start, wait, a 1 s step and close with maxProfiles 5", run: () => capacity() });
  await runPhase({ phase: "paced", title: "16: a batch of 200 profiles at the API's pace (120 a minute), parallel 10, maxProfiles 10, 1 s of work each (over 3 minutes)", run: () => paced() });
  await runPhase({
    phase: "provision",
    title: "19: example 20, profiles from a CSV of 360 rows through csv, a batch and create with settings at the API's pace (120 a minute; about 3 minutes)",
    run: () => provision(),
  });
  await runPhase({ phase: "watch", title: "11: the watch node: detection time, calls per poll, 1,000 phones changing state", run: () => watchPhase() });
  await runPhase({
    phase: "batch",
    title: "12: the batch node, 1,000, 10,000 and 100,000 no-op items at parallel 50 against a plain loop (default settings, journal fsynced)",
    run: () => batchPhase(),
  });
  await runPhase({ phase: "proxyCheck", title: "22: the proxy node's check of 100 proxies at concurrency 10 through the emulator's proxies", run: () => proxyCheck() });
  await runPhase({ phase: "metrics", title: "23: the metrics scrape with 1,000 profiles running", run: () => metricsPhase() });
  await runPhase({ phase: "lease", title: "13: 50 profiles started with 2-4 s leases and never closed: lease end to close at the API", run: () => leasePhase() });
  await runPhase({ phase: "serverLogin", title: "15: the server edition's login, 1,000 concurrent list-profiles messages from a cold config node", run: () => serverLogin() });
  await runPhase({ phase: "exactJson", title: "8: reply parsing, parseJsonExact against JSON.parse", run: () => exactJson() });
  await runPhase({ phase: "browser", title: "9: the browser node against playwright-core on a held connection, and the first step after start", run: () => browserSteps(), missing: noBrowser });
  await runPhase({ phase: "extract", title: "14: the browser node's extract of 1,000 rows against playwright-core's $$eval on a held connection", run: () => extractVsRaw(), missing: noBrowser });
  await runPhase({
    phase: "cloudBrowser",
    title: "20: a 10-step browser flow on a cloud browser (through its gateway) against the same on a local profile, a real Chromium behind each",
    run: () => cloudVsLocalBrowser(),
    missing: noBrowser,
  });
  await runPhase({
    phase: "identity",
    title: "21: the browser node's identity check against an open of the same echo page, behind an emulated proxy",
    run: () => identityOverhead(),
    missing: noBrowser,
  });
  // Node-RED start-up is a whole process of its own: give it every core.
  unpinSelf();
  await runPhase({ phase: "startup", title: "6: Node-RED start with and without the package", run: () => startup() });
  // Several Node-REDs and a redis-server: every core, like the start-up phase.
  await runPhase({
    phase: "queueScale",
    title: "17: a batch on a Redis queue, 300 items of 200 ms at parallel 5, on one Node-RED and on three (about a minute)",
    run: () => queueScale(),
    missing: noRedis,
  });
  await runPhase({
    phase: "queueOverhead",
    title: "18: the batch's runner on a Redis queue against the local journal, 2,000 no-op items at parallel 50",
    run: () => queueOverhead(),
    missing: noRedis,
  });

  const file = report("not run");
  if (failed.length) {
    console.error(`bench: phase(s) ${failed.join(", ")} failed; every other figure is in ${file ?? "the table above"}`);
    process.exitCode = 1;
  }
}

const deadline = setTimeout(() => {
  console.error(`bench: still running after ${DEADLINE_MS / 60_000} minutes; giving up, with what was measured so far`);
  report(`not reached within the run's ${DEADLINE_MS / 60_000} minutes`);
  process.exit(2);
}, DEADLINE_MS);
deadline.unref();

main().then(
  () => process.exit(process.exitCode ?? 0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
