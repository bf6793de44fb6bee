/**
 * `cloud_vs_local_browser`: a 10-step browser flow (open, type, click, evaluate, title, open, extract,
 * screenshot, cookies, close the tab) through the browser node on a cloud browser ÷ the same flow on a
 * profile started on this machine, both against the emulator with a real Chromium behind each: the local
 * profile's DevTools port reached directly, the cloud browser's through its gateway (`cdpUrl` with its
 * token), as MoreLogin's cloud is reached. Steps per second, in paired rounds (blocks of each in turn).
 * The emulator runs in a process of its own, on its own core with both Chromiums (bench/cpu.ts), so the
 * gateway's work is not charged to the node's side: it stands for MoreLogin's servers.
 */
import { fetchWebSocketDebuggerUrl } from "../src/client";
import { CHROMIUM } from "../test/support/chromium";
import type { FlowNode } from "../test/support/node-red";
import { startEmulatorProcess, type EmulatorProcess } from "./emulator-process";
import { median, round } from "./measure";
import { BenchRuntime } from "./node-red-runtime";

const ROUNDS = 7;
/** Flows of each side per round, in blocks of one, which side goes first alternating. */
const FLOWS_PER_ROUND = 4;
const WARM_UP_FLOWS = 2;
/** How long the emulator's cloud browser takes to be RUNNING (its --phone-boot-ms). */
const BOOT_MS = 500;

export interface CloudBrowserResult {
  /** Browser steps in one flow. */
  steps: number;
  flowsPerRound: number;
  /** Per round: steps per second on the cloud browser, and on the local profile. */
  rounds: Array<{ cloud: number; local: number }>;
}

/** The ten steps, each a browser node wired to the next; the last one's output is the flow's end. */
function flowNodes(demo: string): FlowNode[] {
  const steps: Array<Record<string, unknown>> = [
    { action: "open", url: `${demo}`, urlType: "str", waitUntil: "load" },
    { action: "type", selector: "#name", selectorType: "str", text: "Node-RED", textType: "str", human: false },
    { action: "click", selector: "#greet", selectorType: "str", human: false },
    { action: "evaluate", expression: "document.querySelector('#greeting').textContent", expressionType: "str" },
    { action: "content", format: "title" },
    { action: "open", url: `${demo}/table`, urlType: "str", waitUntil: "load" },
    { action: "extract", selector: "#products tbody tr", selectorType: "str", attributes: "data-sku", attributesType: "str" },
    { action: "screenshot", fullPage: false },
    { action: "cookies" },
    { action: "closePage" },
  ];
  // Node ids differ from every action name: Node-RED 4 takes an id equal to another node's string property for a config reference.
  return steps.map((step, index) => ({
    id: `flow-step-${index + 1}`,
    type: "morelogin-browser",
    ...step,
    ...(index < steps.length - 1 ? { wires: [[`flow-step-${index + 2}`]] } : {}),
  }));
}

async function post<T>(emulator: EmulatorProcess, path: string, body: Record<string, unknown>): Promise<T> {
  const response = await fetch(`${emulator.localUrl}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const reply = (await response.json()) as { code: number; msg?: string; data: T };
  if (reply.code !== 0) throw new Error(`${path} refused: ${reply.msg ?? ""} (code ${reply.code})`);
  return reply.data;
}

/** Two profiles: one to start here, one with a proxy (a cloud browser needs one) to start in the cloud. */
async function twoProfiles(emulator: EmulatorProcess): Promise<{ local: string; cloud: string }> {
  const page = await post<{ dataList: Array<{ id: string; proxyId?: string | null }> }>(emulator, "/api/env/page", { pageNo: 1, pageSize: 100 });
  const hasProxy = (row: { proxyId?: string | null }): boolean => Boolean(row.proxyId) && row.proxyId !== "0";
  const cloud = page.dataList.find(hasProxy)?.id;
  const local = page.dataList.find((row) => row.id !== cloud)?.id;
  if (!cloud || !local) throw new Error("the emulator has no profile with a proxy");
  return { local, cloud };
}

/** msg.morelogin.profile as start profile sets it for a profile started here. */
async function startLocal(emulator: EmulatorProcess, envId: string): Promise<Record<string, unknown>> {
  const { debugPort } = await post<{ debugPort: string }>(emulator, "/api/env/start", { envId });
  const cdpUrl = `http://127.0.0.1:${debugPort}`;
  const webSocketDebuggerUrl = await fetchWebSocketDebuggerUrl(cdpUrl, 10_000);
  if (!webSocketDebuggerUrl) throw new Error("the local profile's browser gave no WebSocket URL");
  return { envId, debugPort, cdpUrl, webSocketDebuggerUrl };
}

/** msg.morelogin.profile as start profile (where: cloud) sets it: start, wait until RUNNING, connect. */
async function startCloud(emulator: EmulatorProcess, envId: string): Promise<Record<string, unknown>> {
  await post(emulator, "/api/cloudbrowser/start", { envId });
  const deadline = performance.now() + 60_000;
  for (;;) {
    const page = await post<{ dataList: Array<{ id: string; cloudBrowserStatus: string }> }>(emulator, "/api/cloudbrowser/page", { pageNo: 1, pageSize: 10, envId });
    if (page.dataList.find((row) => row.id === envId)?.cloudBrowserStatus === "RUNNING") break;
    if (performance.now() > deadline) throw new Error("the cloud browser was not RUNNING within 60 s");
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const { cdpUrl } = await post<{ cdpUrl: string }>(emulator, "/api/cloudbrowser/connect", { envId });
  const webSocketDebuggerUrl = await fetchWebSocketDebuggerUrl(cdpUrl, 10_000);
  if (!webSocketDebuggerUrl) throw new Error("the cloud browser's gateway gave no WebSocket URL");
  return { envId, where: "cloud", cdpUrl, webSocketDebuggerUrl };
}

export async function cloudVsLocalBrowser(): Promise<CloudBrowserResult> {
  // As in phase 9: tsx's source maps would charge each Playwright call's stack trace to the node.
  const sourceMaps = process.sourceMapsEnabled;
  process.setSourceMapsEnabled(false);
  const emulator = await startEmulatorProcess({ browser: CHROMIUM, profiles: 4, phoneBootMs: BOOT_MS });
  let runtime: BenchRuntime | undefined;
  try {
    const ids = await twoProfiles(emulator);
    const profiles = { local: await startLocal(emulator, ids.local), cloud: await startCloud(emulator, ids.cloud) };
    const nodes = flowNodes(`${emulator.localUrl}/demo`);
    runtime = await BenchRuntime.start(emulator, nodes);
    const first = nodes[0]?.id as string;
    const flowOn = (side: "local" | "cloud") => (): Promise<void> => (runtime as BenchRuntime).run(first, { payload: "", morelogin: { profile: profiles[side] } });
    const sides = { local: flowOn("local"), cloud: flowOn("cloud") };
    for (let index = 0; index < WARM_UP_FLOWS; index++) {
      await sides.local();
      await sides.cloud();
    }
    const rounds: CloudBrowserResult["rounds"] = [];
    const steps = nodes.length;
    for (let index = 0; index < ROUNDS; index++) {
      const spent = { local: 0, cloud: 0 };
      for (let flow = 0; flow < FLOWS_PER_ROUND; flow++) {
        // Which side goes first alternates, so that a drift of the machine falls on both.
        const order: Array<"local" | "cloud"> = (index + flow) % 2 === 0 ? ["local", "cloud"] : ["cloud", "local"];
        for (const side of order) {
          const began = performance.now();
          await sides[side]();
          spent[side] += performance.now() - began;
        }
      }
      const rate = (ms: number): number => round((FLOWS_PER_ROUND * steps) / (ms / 1000));
      rounds.push({ cloud: rate(spent.cloud), local: rate(spent.local) });
    }
    return { steps, flowsPerRound: FLOWS_PER_ROUND, rounds };
  } finally {
    await runtime?.stop();
    await emulator.stop();
    process.setSourceMapsEnabled(sourceMaps);
  }
}

/** The cloud browser's steps per second ÷ the local profile's, per round. */
export function cloudBrowserRatios(result: CloudBrowserResult): number[] {
  return result.rounds.map((entry) => entry.cloud / entry.local);
}

export const medianRate = (result: CloudBrowserResult, side: "cloud" | "local"): number => round(median(result.rounds.map((entry) => entry[side])));
