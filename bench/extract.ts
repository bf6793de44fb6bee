/**
 * Phase 12: the browser node's extract action against Playwright's `$$eval` on a held connection.
 * `extract_vs_raw`: extracts of a 1,000-row table (each row's visible text and one attribute) through
 * the node ÷ the same through `page.$$eval` with the same in-page function, on the same tab of a real
 * Chromium, in rounds of 10 pairs (one of each in turn, which goes first alternating).
 */
import { chromium } from "playwright-core";
import { startEmulator } from "../src/emulator";
import type { Node, NodeMessage } from "node-red";
import { CHROMIUM } from "../test/support/chromium";
import { helper } from "../test/support/node-red";
import { round } from "./measure";
import { BenchRuntime } from "./node-red-runtime";

const ROWS = 1_000;
const ROUNDS = 9;
/** Extracts of each side per round, one of each in turn, so the drift of a busy machine falls on both. */
const PAIRS = 10;
const SELECTOR = "#rows tr";

export interface ExtractResult {
  rows: number;
  /** Per round: extracts per second through the node, and through $$eval. */
  rounds: Array<{ node: number; raw: number }>;
}

/** A table of ROWS rows, each with cells and a data-id, written into the tab. */
const TABLE_SCRIPT = `document.body.innerHTML = '<table id="rows">' + Array.from({ length: ${ROWS} }, (_, i) =>
  '<tr data-id="' + i + '"><td>row ' + i + '</td><td>' + (i * 7 % 100) + '.50</td><td>in stock</td></tr>').join('') + '</table>'; 0`;

async function elapsedMs(count: number, step: () => Promise<unknown>): Promise<number> {
  const begin = performance.now();
  for (let i = 0; i < count; i++) await step();
  return performance.now() - begin;
}

interface Row {
  text: string;
  "data-id": string | null;
}

export async function extractVsRaw(): Promise<ExtractResult> {
  // As in phase 9: tsx's source maps would charge each Playwright call's stack trace to the node.
  const sourceMaps = process.sourceMapsEnabled;
  process.setSourceMapsEnabled(false);
  const emulator = await startEmulator({ browser: CHROMIUM, profiles: 1 });
  const address = { localUrl: emulator.localUrl, openUrl: emulator.openUrl, apiId: emulator.credentials.apiId, apiKey: emulator.credentials.apiKey };
  const runtime = await BenchRuntime.start(address, [
    { id: "step-extract", type: "morelogin-browser", action: "extract", selector: SELECTOR, selectorType: "str", attributes: "data-id", attributesType: "str" },
  ]);
  try {
    const envId = emulator.data.profiles[0]?.id as string;
    const started = (await (await fetch(`${emulator.localUrl}/api/env/start`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ envId }) })).json()) as {
      data: { debugPort: string };
    };
    const { webSocketDebuggerUrl } = (await (await fetch(`http://127.0.0.1:${started.data.debugPort}/json/version`)).json()) as { webSocketDebuggerUrl: string };
    const browser = await chromium.connectOverCDP(webSocketDebuggerUrl);
    try {
      // Both act on the browser's first tab: the node's default without msg.morelogin.page.
      const page = browser.contexts()[0]?.pages()[0];
      if (!page) throw new Error("the started browser has no tab");
      await page.evaluate(TABLE_SCRIPT);
      const msg = { payload: { webSocketDebuggerUrl } };
      const viaNode = (): Promise<void> => runtime.run("step-extract", msg);
      // What a script with its own held connection writes for the same result.
      const raw = (): Promise<Row[]> =>
        // biome-ignore lint/performance/useDomNodeTextContent: the same visible text the node's extract reads
        page.$$eval(SELECTOR, (elements) => elements.map((element) => ({ text: ((element as unknown as { innerText: string }).innerText ?? "").trim(), "data-id": element.getAttribute("data-id") })));
      let fromNode: unknown;
      (helper.getNode("collect") as Node).once("input", (out: NodeMessage) => {
        fromNode = out.payload;
      });
      await elapsedMs(3, viaNode);
      const direct = await raw();
      if (JSON.stringify(fromNode) !== JSON.stringify(direct) || direct.length !== ROWS) throw new Error("the node's extract and $$eval disagree: the bench would compare different work");
      const rounds: ExtractResult["rounds"] = [];
      for (let index = 0; index < ROUNDS; index++) {
        let nodeMs = 0;
        let rawMs = 0;
        for (let pair = 0; pair < PAIRS; pair++) {
          const nodeFirst = (index + pair) % 2 === 0;
          const firstMs = await elapsedMs(1, nodeFirst ? viaNode : raw);
          const secondMs = await elapsedMs(1, nodeFirst ? raw : viaNode);
          nodeMs += nodeFirst ? firstMs : secondMs;
          rawMs += nodeFirst ? secondMs : firstMs;
        }
        rounds.push({ node: round(PAIRS / (nodeMs / 1000)), raw: round(PAIRS / (rawMs / 1000)) });
      }
      return { rows: ROWS, rounds };
    } finally {
      await browser.close();
    }
  } finally {
    await runtime.stop();
    await emulator.close();
    process.setSourceMapsEnabled(sourceMaps);
  }
}

/** The node's rate ÷ $$eval's rate, per round. */
export function extractRatios(result: ExtractResult): number[] {
  return result.rounds.map((entry) => entry.node / entry.raw);
}
