/**
 * Phase 9: the browser node against playwright-core itself. `browser_vs_direct`: 200 sequential
 * `evaluate` steps through the node ÷ 200 `page.evaluate` calls on a connection the script holds,
 * both on the same tab of a real Chromium, in paired rounds. `browser_first_action_ms`: from the
 * start profile node's reply arriving at the browser node to the browser node's result (connect,
 * new tab, demo page loaded), each time with a profile just started.
 */
import type { Node } from "node-red";
import { chromium } from "playwright-core";
import { startEmulator, type Emulator } from "../src/emulator";
import { CHROMIUM } from "../test/support/chromium";
import { CONFIG_ID, helper } from "../test/support/node-red";
import { median, round } from "./measure";
import { BenchRuntime } from "./node-red-runtime";

const STEPS = 200;
const ROUNDS = 7;
/** Steps of one side before the other takes its turn. */
const BLOCK = 20;
const FIRST_ACTIONS = 5;

export interface BrowserResult {
  steps: number;
  /** Per round: steps per second through the node, and directly. */
  rounds: Array<{ node: number; direct: number }>;
  /** Milliseconds from start profile's reply to the first browser step's result, one per fresh profile. */
  firstActionMs: number[];
}

async function startProfile(emulator: Emulator, envId: string): Promise<string> {
  const reply = (await (await fetch(`${emulator.localUrl}/api/env/start`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ envId }) })).json()) as {
    data: { debugPort: string };
  };
  const version = (await (await fetch(`http://127.0.0.1:${reply.data.debugPort}/json/version`)).json()) as { webSocketDebuggerUrl: string };
  return version.webSocketDebuggerUrl;
}

async function closeProfile(emulator: Emulator, envId: string): Promise<void> {
  await fetch(`${emulator.localUrl}/api/env/close`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ envId }) });
}

async function elapsedMs(count: number, step: () => Promise<unknown>): Promise<number> {
  const begin = performance.now();
  for (let i = 0; i < count; i++) await step();
  return performance.now() - begin;
}

export async function browserSteps(): Promise<BrowserResult> {
  // tsx turns source maps on for the whole process, and Playwright captures a stack trace on every
  // call: mapping each frame of the runtime's compiled files would be charged to the node. A user's
  // Node-RED runs without them.
  const sourceMaps = process.sourceMapsEnabled;
  process.setSourceMapsEnabled(false);
  try {
    return await measure();
  } finally {
    process.setSourceMapsEnabled(sourceMaps);
  }
}

async function measure(): Promise<BrowserResult> {
  const emulator = await startEmulator({ browser: CHROMIUM, profiles: FIRST_ACTIONS + 1 });
  const demo = `${emulator.localUrl}/demo`;
  const address = { localUrl: emulator.localUrl, openUrl: emulator.openUrl, apiId: emulator.credentials.apiId, apiKey: emulator.credentials.apiKey };
  // Node ids differ from every action name: Node-RED 4 takes an id equal to another node's string property for a config reference.
  const runtime = await BenchRuntime.start(address, [
    { id: "step-evaluate", type: "morelogin-browser", action: "evaluate", expression: "1 + 1", expressionType: "str" },
    { id: "step-start", type: "morelogin-start-profile", server: CONFIG_ID, wires: [["step-open"]] },
    { id: "step-open", type: "morelogin-browser", action: "open", url: demo, urlType: "str" },
  ]);
  try {
    const [held, ...fresh] = emulator.data.profiles.map((profile) => profile.id);
    const webSocketDebuggerUrl = await startProfile(emulator, held as string);
    const browser = await chromium.connectOverCDP(webSocketDebuggerUrl);
    try {
      // Both act on the browser's first tab: the node's default without msg.morelogin.page.
      const page = browser.contexts()[0]?.pages()[0];
      if (!page) throw new Error("the started browser has no tab");
      await page.goto(demo);
      const msg = { payload: { webSocketDebuggerUrl } };
      const viaNode = (): Promise<void> => runtime.run("step-evaluate", msg);
      const direct = (): Promise<unknown> => page.evaluate("1 + 1");
      await elapsedMs(20, viaNode);
      await elapsedMs(20, direct);
      const rounds: BrowserResult["rounds"] = [];
      for (let index = 0; index < ROUNDS; index++) {
        // Blocks of each in turn, so that a drift of the machine (the browser shares its two cores)
        // falls on both sides of a round.
        let nodeMs = 0;
        let directMs = 0;
        for (let block = 0; block < STEPS / BLOCK; block++) {
          const first = block % 2 === 0 ? viaNode : direct;
          const second = first === viaNode ? direct : viaNode;
          const firstMs = await elapsedMs(BLOCK, first);
          const secondMs = await elapsedMs(BLOCK, second);
          nodeMs += first === viaNode ? firstMs : secondMs;
          directMs += first === viaNode ? secondMs : firstMs;
        }
        rounds.push({ node: round(STEPS / (nodeMs / 1000)), direct: round(STEPS / (directMs / 1000)) });
      }

      const firstActionMs: number[] = [];
      const openNode = helper.getNode("step-open") as Node;
      let arrivedAt = 0;
      openNode.on("input", () => {
        arrivedAt = performance.now();
      });
      for (const envId of fresh) {
        await runtime.run("step-start", { payload: envId });
        firstActionMs.push(round(performance.now() - arrivedAt, 1));
        await closeProfile(emulator, envId);
      }
      return { steps: STEPS, rounds, firstActionMs };
    } finally {
      await browser.close();
    }
  } finally {
    await runtime.stop();
    await emulator.close();
  }
}

/** The node's rate ÷ the direct rate, per round. */
export function browserRatios(result: BrowserResult): number[] {
  return result.rounds.map((entry) => entry.node / entry.direct);
}

export function firstActionMedianMs(result: BrowserResult): number {
  return round(median(result.firstActionMs), 1);
}
