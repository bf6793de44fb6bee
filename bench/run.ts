/**
 * `npm run bench`: what our nodes cost over the HTTP call itself, against raw undici and against
 * Node-RED's core http request node, plus Open API cold start, all pages, reply parsing, throughput
 * under a rate limit and start-up time. A benchmark, not a test (not part of `npm test`). Prints a
 * table and writes bench/results.json.
 */
import { availableParallelism } from "node:os";
import { allPages } from "./all-pages";
import { browserSteps } from "./browser";
import { coldStart } from "./cold-start";
import { PINNED, pinSelf, unpinSelf } from "./cpu";
import { startEmulatorProcess } from "./emulator-process";
import { exactJson } from "./exact-json";
import { round } from "./measure";
import { perRequest } from "./per-request";
import { rateLimited } from "./rate-limited";
import { ratios, table, writeResults, type Figures } from "./report";
import { startup } from "./startup";
import { watchPhase } from "./watch";

/**
 * The whole run must stay under 5 minutes on a 2-core machine; past this it gives up. It takes 2 to
 * 3 minutes: phase 7 waits out a minute of rate limit, so its two measurements run side by side.
 */
const DEADLINE_MS = 4.5 * 60_000;

async function main(): Promise<void> {
  const began = performance.now();
  const phase = (name: string): void => console.error(`[bench ${round((performance.now() - began) / 1000, 1)} s] ${name}`);
  pinSelf();

  phase("1-3: raw undici, list-profiles node, floor node, core http request at concurrency 1 and 64");
  const small = await startEmulatorProcess({});
  let per: Figures["perRequest"];
  try {
    per = await perRequest(small);
  } finally {
    await small.stop();
  }
  phase("4: Open API cold start, 1,000 concurrent list-apps messages");
  const cold = await coldStart();
  phase("5: all pages, 100,000 profiles");
  const pages = await allPages();
  phase("7: under a rate limit of 600 a minute, 1,200 messages paced and 1,200 unpaced, side by side (over a minute)");
  const limited = await rateLimited();
  phase("8: reply parsing, parseJsonExact against JSON.parse");
  const parse = await exactJson();
  phase("9: the browser node against playwright-core on a held connection, and the first step after start");
  const browser = await browserSteps();
  phase("11: the watch node: detection time, calls per poll, 1,000 phones changing state");
  const watch = await watchPhase();
  // Node-RED start-up is a whole process of its own: give it every core.
  unpinSelf();
  phase("6: Node-RED start with and without the package");
  const start = await startup();

  const figures: Figures = { perRequest: per, coldStart: cold, allPages: pages, startup: start, rateLimited: limited, exactJson: parse, browser, watch };
  const list = ratios(figures);
  const meta = { date: new Date().toISOString(), node: process.version, cores: availableParallelism(), pinned: PINNED, seconds: round((performance.now() - began) / 1000, 1) };
  const file = writeResults(figures, list, meta);
  console.log(table(figures, list, meta));
  console.log(`\nFigures written to ${file}.`);
  const missed = list.filter((ratio) => ratio.pass === false).map((ratio) => ratio.name);
  console.log(missed.length ? `Targets missed: ${missed.join(", ")}` : "All targets met.");
}

const deadline = setTimeout(() => {
  console.error(`bench: still running after ${DEADLINE_MS / 60_000} minutes; giving up`);
  process.exit(2);
}, DEADLINE_MS);
deadline.unref();

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
