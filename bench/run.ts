/**
 * `npm run bench`: what our nodes cost over the HTTP call itself, against raw undici and against
 * Node-RED's core http request node, plus Open API cold start, all pages, reply parsing, throughput
 * under a rate limit and start-up time. A benchmark, not a test (not part of `npm test`). Prints a
 * table and writes bench/results.json.
 */
import { availableParallelism } from "node:os";
import { allPages as allPagesPhase } from "./all-pages";
import { browserSteps } from "./browser";
import { capacity as capacityPhase } from "./capacity";
import { coldStart as coldStartPhase } from "./cold-start";
import { PINNED, pinSelf, unpinSelf } from "./cpu";
import { startEmulatorProcess } from "./emulator-process";
import { exactJson as exactJsonPhase } from "./exact-json";
import { round } from "./measure";
import { perRequest as perRequestPhase } from "./per-request";
import { rateLimited as rateLimitedPhase } from "./rate-limited";
import { ratios, table, writeResults, type NotMeasured, type RunFigures } from "./report";
import { startup as startupPhase } from "./startup";
import { CHROMIUM, chromiumInstalled } from "../test/support/chromium";

/**
 * The whole run must stay under 5 minutes on a 2-core machine; past this it gives up. It takes 2 to
 * 3 minutes: phase 7 waits out a minute of rate limit, so its two measurements run side by side.
 */
const DEADLINE_MS = 4.5 * 60_000;

/** What a phase needs that the machine may lack, checked before anything runs. */
function missingForBrowserPhase(): string | undefined {
  return chromiumInstalled() ? undefined : `no Chromium at ${CHROMIUM} (install it with \`apt-get install -y chromium\`, or name one with MORELOGIN_CHROMIUM)`;
}

async function main(): Promise<void> {
  const began = performance.now();
  const phase = (name: string): void => console.error(`[bench ${round((performance.now() - began) / 1000, 1)} s] ${name}`);
  const failed: string[] = [];
  /** Runs one phase; one that fails is reported and costs only its own figures. */
  const measure = async <T>(name: string, work: () => Promise<T>): Promise<T | NotMeasured> => {
    phase(name);
    try {
      return await work();
    } catch (error) {
      console.error(`bench: phase ${name.split(":")[0]} failed:`, error);
      failed.push(name.split(":")[0] as string);
      return { notMeasured: `failed: ${error instanceof Error ? error.message : String(error)}` };
    }
  };
  const skip = (name: string, why: string): NotMeasured => {
    phase(`${name}: skipped, ${why}`);
    return { notMeasured: `skipped: ${why}` };
  };
  const noBrowser = missingForBrowserPhase();
  if (noBrowser) console.error(`bench: ${noBrowser}; phase 9 (the browser node) will not be measured, every other phase will.`);
  pinSelf();

  const perRequest = await measure("1-3: raw undici, list-profiles node, floor node, core http request at concurrency 1 and 64", async () => {
    const small = await startEmulatorProcess({});
    try {
      return await perRequestPhase(small);
    } finally {
      await small.stop();
    }
  });
  const coldStart = await measure("4: Open API cold start, 1,000 concurrent list-apps messages", () => coldStartPhase());
  const allPages = await measure("5: all pages, 100,000 profiles", () => allPagesPhase());
  const rateLimited = await measure("7: under a rate limit of 600 a minute, 1,200 messages paced and 1,200 unpaced, side by side (over a minute)", () => rateLimitedPhase());
  const capacity = await measure("10: 200 profiles through start, wait, a 1 s step and close with maxProfiles 5", () => capacityPhase());
  const exactJson = await measure("8: reply parsing, parseJsonExact against JSON.parse", () => exactJsonPhase());
  const browserName = "9: the browser node against playwright-core on a held connection, and the first step after start";
  const browser = noBrowser ? skip(browserName, noBrowser) : await measure(browserName, () => browserSteps());
  // Node-RED start-up is a whole process of its own: give it every core.
  unpinSelf();
  const startup = await measure("6: Node-RED start with and without the package", () => startupPhase());

  const figures: RunFigures = { perRequest, coldStart, allPages, startup, rateLimited, exactJson, browser, capacity };
  const list = ratios(figures);
  const meta = { date: new Date().toISOString(), node: process.version, cores: availableParallelism(), pinned: PINNED, seconds: round((performance.now() - began) / 1000, 1) };
  const file = writeResults(figures, list, meta);
  console.log(table(figures, list, meta));
  console.log(`\nFigures written to ${file}.`);
  const missed = list.filter((ratio) => ratio.pass === false).map((ratio) => ratio.name);
  const unmeasured = list.filter((ratio) => ratio.notMeasured).map((ratio) => ratio.name);
  if (missed.length) console.log(`Targets missed: ${missed.join(", ")}`);
  if (unmeasured.length) console.log(`Not measured (no figure, so no pass): ${unmeasured.join(", ")}`);
  if (!missed.length) console.log(unmeasured.length ? "Every target that was measured is met." : "All targets met.");
  if (failed.length) {
    console.error(`bench: phase(s) ${failed.join(", ")} failed; every other figure is in ${file}`);
    process.exitCode = 1;
  }
}

const deadline = setTimeout(() => {
  console.error(`bench: still running after ${DEADLINE_MS / 60_000} minutes; giving up`);
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
