/**
 * Phase 5, all pages: 100,000 profiles through morelogin-list-profiles with `all` (array output)
 * against a raw undici loop over the same pages (100 a page, one after another), alternating, with
 * wall time and peak RSS growth; then `split` output against array output followed by the core Split
 * node, also alternating.
 */
import { startEmulatorProcess } from "./emulator-process";
import { median, round, withPeakRss, type Timed } from "./measure";
import { BenchRuntime } from "./node-red-runtime";
import { rawAllPages } from "./raw-undici";

export interface PagesFigure {
  seconds: number;
  itemsPerSecond: number;
  peakRssGrowthMb: number;
  /** Every round: [seconds, peak RSS growth MB]. */
  rounds: Array<[number, number]>;
}

export interface AllPagesResult {
  profiles: number;
  raw: PagesFigure;
  array: PagesFigure;
  split: PagesFigure;
  arrayThenCoreSplit: PagesFigure;
}

const ROUNDS = 3;

export async function allPages(profiles = 100_000): Promise<AllPagesResult> {
  const emulator = await startEmulatorProcess({ profiles });
  try {
    const runtime = await BenchRuntime.start(emulator, [
      { id: "bench-array", type: "morelogin-list-profiles", server: "config1", all: true, output: "array", maxItems: String(profiles) },
      { id: "bench-split", type: "morelogin-list-profiles", server: "config1", all: true, output: "split", maxItems: String(profiles) },
      { id: "bench-array-then-split", type: "morelogin-list-profiles", server: "config1", all: true, output: "array", maxItems: String(profiles), wires: [["bench-core-split"]] },
      { id: "bench-core-split", type: "split", splt: "\\n", spltType: "str", arraySplt: 1, arraySpltType: "len", stream: false, addname: "" },
    ]);
    const runs: Record<"raw" | "array" | "split" | "arrayThenCoreSplit", Array<Timed<unknown>>> = { raw: [], array: [], split: [], arrayThenCoreSplit: [] };
    try {
      // Warm-up on a first walk of each kind (not counted).
      await rawAllPages(emulator.localUrl);
      await runtime.run("bench-array", { payload: "" });
      for (let round = 0; round < ROUNDS; round++) {
        const order = round % 2 === 0 ? (["raw", "array"] as const) : (["array", "raw"] as const);
        for (const kind of order) {
          if (kind === "raw") {
            const timed = await withPeakRss(() => rawAllPages(emulator.localUrl));
            const items = (timed.result as unknown[]).length;
            if (items !== profiles) throw new Error(`the raw loop got ${items} items, expected ${profiles}`);
            runs.raw.push(timed);
          } else {
            runs.array.push(await withPeakRss(() => runtime.run("bench-array", { payload: "" })));
          }
        }
      }
      for (let round = 0; round < 2; round++) {
        const order = round % 2 === 0 ? (["split", "arrayThenCoreSplit"] as const) : (["arrayThenCoreSplit", "split"] as const);
        for (const kind of order) {
          const node = kind === "split" ? "bench-split" : "bench-array-then-split";
          runs[kind].push(await withPeakRss(() => runtime.run(node, { payload: "" }, profiles)));
        }
      }
    } finally {
      await runtime.stop();
    }
    const figure = (list: Array<Timed<unknown>>): PagesFigure => {
      const seconds = median(list.map((run) => run.seconds));
      return {
        seconds: round(seconds, 3),
        itemsPerSecond: Math.round(profiles / seconds),
        // The worst round: the target is a ceiling.
        peakRssGrowthMb: Math.max(...list.map((run) => run.peakRssGrowthMb)),
        rounds: list.map((run) => [round(run.seconds, 3), run.peakRssGrowthMb]),
      };
    };
    return { profiles, raw: figure(runs.raw), array: figure(runs.array), split: figure(runs.split), arrayThenCoreSplit: figure(runs.arrayThenCoreSplit) };
  } finally {
    await emulator.stop();
  }
}
