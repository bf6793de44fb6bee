/**
 * Phase 11: the watch node. `watch_detect_p99_ms`: 200 profiles started at random moments over 30 s,
 * watched every 2 s; the 99th percentile of the time from each start to its message.
 * `watch_calls_per_poll_profiles`: requests per poll with 1,000 profiles of which 300 run.
 * `watch_phone_chains_broken`: a watch of 1,000 phones while phones power on and off every 200 ms;
 * per phone, each message must start where the last one ended and the last one end where the
 * phone is (a change lost or sent twice breaks the chain).
 */
import type { Node, NodeMessage } from "node-red";
import { startEmulator, type Emulator } from "../src/emulator";
import { CONFIG_ID, helper } from "../test/support/node-red";
import { percentile, round } from "./measure";
import { BenchRuntime } from "./node-red-runtime";
import type { Ratio } from "./report";

const INTERVAL_S = 2;
const CHANGES = 200;
const CHANGE_WINDOW_MS = 30_000;
const PHONES = 1_000;
const PHONE_TOGGLE_MS = 200;
const PHONE_WINDOW_MS = 20_000;

export interface WatchResult {
  intervalMs: number;
  /** Milliseconds from a profile's start to the watch's message about it, one per change. */
  detectMs: number[];
  callsPerPoll: number;
  phoneMessages: number;
  phoneChainsBroken: number;
}

interface WatchPayload {
  event: string;
  id: string;
  from: unknown;
  to: unknown;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** A runtime with one watch node (`watch-under-bench`); calls `onMessage` for each message it sends, and counts its polls. */
async function watchRuntime(emulator: Emulator, settings: Record<string, unknown>, onMessage: (payload: WatchPayload) => void): Promise<{ runtime: BenchRuntime; polls: () => number }> {
  const address = { localUrl: emulator.localUrl, openUrl: emulator.openUrl, apiId: emulator.credentials.apiId, apiKey: emulator.credentials.apiKey };
  const runtime = await BenchRuntime.start(address, [{ id: "watch-under-bench", type: "morelogin-watch", server: CONFIG_ID, interval: String(INTERVAL_S), ...settings }]);
  helper.getNode("collect").on("input", (msg: NodeMessage) => onMessage(msg.payload as WatchPayload));
  const node = helper.getNode("watch-under-bench") as Node;
  let polls = 0;
  const status = node.status.bind(node);
  node.status = (shown: Parameters<Node["status"]>[0]): void => {
    if (typeof shown === "object" && shown.fill === "green") polls++;
    status(shown);
  };
  return { runtime, polls: () => polls };
}

async function until(condition: () => boolean, what: string, ms = 60_000): Promise<void> {
  const deadline = performance.now() + ms;
  while (!condition()) {
    if (performance.now() > deadline) throw new Error(`watch bench: timed out waiting until ${what}`);
    await sleep(10);
  }
}

async function detectLatency(): Promise<number[]> {
  const emulator = await startEmulator({ profiles: CHANGES });
  const startedAt = new Map<string, number>();
  const latencies: number[] = [];
  const { runtime, polls } = await watchRuntime(emulator, { events: ["started"] }, (payload) => {
    const at = startedAt.get(payload.id);
    if (at !== undefined) latencies.push(performance.now() - at);
  });
  try {
    await until(() => polls() >= 1, "the first poll");
    const moments = emulator.data.profiles.map((profile) => ({ envId: profile.id, at: Math.random() * CHANGE_WINDOW_MS })).sort((a, b) => a.at - b.at);
    const begin = performance.now();
    for (const { envId, at } of moments) {
      const wait = begin + at - performance.now();
      if (wait > 0) await sleep(wait);
      startedAt.set(envId, performance.now());
      await emulator.happen.profileStarts(envId);
    }
    await until(() => latencies.length >= CHANGES, `${CHANGES} messages`, 30_000);
    return latencies.map((ms) => round(ms, 1));
  } finally {
    await runtime.stop();
    await emulator.close();
  }
}

async function callsPerPoll(): Promise<number> {
  const emulator = await startEmulator({ profiles: 1_000 });
  for (const profile of emulator.data.profiles.slice(0, 300)) await emulator.happen.profileStarts(profile.id);
  const { runtime, polls } = await watchRuntime(emulator, {}, () => undefined);
  try {
    await until(() => polls() >= 1, "the first poll");
    emulator.resetStats();
    const from = polls();
    await until(() => polls() >= from + 3, "three polls");
    const requests = Object.values(emulator.stats.requests).reduce((sum, count) => sum + count, 0);
    return round(requests / (polls() - from));
  } finally {
    await runtime.stop();
    await emulator.close();
  }
}

async function phoneChains(): Promise<{ messages: number; broken: number }> {
  const emulator = await startEmulator({ cloudPhones: PHONES, phoneBootMs: 3_000 });
  const chains = new Map<string, WatchPayload[]>();
  let messages = 0;
  const { runtime, polls } = await watchRuntime(emulator, { watch: "phones" }, (payload) => {
    messages++;
    chains.set(payload.id, [...(chains.get(payload.id) ?? []), payload]);
  });
  try {
    await until(() => polls() >= 1, "the first poll");
    const post = (path: string, id: string): Promise<unknown> =>
      fetch(`${emulator.localUrl}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ id }) }).then((response) => response.text());
    const end = performance.now() + PHONE_WINDOW_MS;
    while (performance.now() < end) {
      const phone = emulator.data.cloudPhones[Math.floor(Math.random() * PHONES)];
      if (phone) await (phone.envStatus === 2 ? post("/api/cloudphone/powerOn", phone.id) : post("/api/cloudphone/powerOff", phone.id));
      await sleep(PHONE_TOGGLE_MS);
    }
    // Let every boot end, then two polls see the last states.
    await sleep(3_500);
    const from = polls();
    await until(() => polls() >= from + 2, "two last polls");
    const final = new Map(emulator.data.cloudPhones.map((phone) => [phone.id, phone.envStatus]));
    let broken = 0;
    for (const [id, chain] of chains) {
      const linked = chain.every((payload, index) => index === 0 || payload.from === chain[index - 1]?.to);
      if (!linked || chain.at(-1)?.to !== final.get(id)) broken++;
    }
    return { messages, broken };
  } finally {
    await runtime.stop();
    await emulator.close();
  }
}

export async function watchPhase(): Promise<WatchResult> {
  const detectMs = await detectLatency();
  const calls = await callsPerPoll();
  const phones = await phoneChains();
  return { intervalMs: INTERVAL_S * 1000, detectMs, callsPerPoll: calls, phoneMessages: phones.messages, phoneChainsBroken: phones.broken };
}

export function watchRatios(result: WatchResult): Ratio[] {
  const p99 = round(
    percentile(
      [...result.detectMs].sort((a, b) => a - b),
      0.99,
    ),
  );
  const limit = result.intervalMs + 500;
  return [
    {
      name: "watch_detect_p99_ms",
      value: p99,
      target: `<= ${limit}`,
      pass: p99 <= limit,
      means: `${result.detectMs.length} profiles started at random moments, watched every ${result.intervalMs / 1000} s: 99th percentile of the time from the start to the watch's message`,
    },
    {
      name: "watch_calls_per_poll_profiles",
      value: result.callsPerPoll,
      target: "= 1",
      pass: result.callsPerPoll === 1,
      means: "requests per poll of a profiles watch with 1,000 profiles of which 300 run",
    },
    {
      name: "watch_phone_chains_broken",
      value: result.phoneChainsBroken,
      target: "= 0",
      pass: result.phoneChainsBroken === 0,
      means: `phones (of ${PHONES}, powered on and off every ${PHONE_TOGGLE_MS} ms for ${PHONE_WINDOW_MS / 1000} s; ${result.phoneMessages} messages) whose messages do not chain from one state to the next and end at the phone's state: a change lost or sent twice`,
    },
  ];
}
