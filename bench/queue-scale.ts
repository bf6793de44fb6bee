/**
 * What a second and third Node-RED add to a batch (issue 41, `batch_scale_3`): three real Node-RED
 * processes with the same flow, a `morelogin-queue` config node on one redis-server and a batch node
 * (parallel 5) whose items take a fixed 200 ms each (a delay node wired back to it), against one Node-RED
 * alone with the same flow and the same queue mode. Each run sends a list of 300 items to the first
 * Node-RED (http in → batch) and is timed until a `done` (output 2, from whichever Node-RED announces it)
 * reaches a recorder. The one-Node-RED runs use a batch node of another name (so another queue) that only
 * the first Node-RED has: the other two are up, idle, in both. Each round runs one, then three; the ratio
 * is the median of the rounds' time of one ÷ time of three.
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { deployAndStart, startNodeRed, type FlowNode, type RunningNodeRed } from "../tools/sandbox";
import { batchUserDir } from "../test/support/batch-flow";
import { nodeBinary, redJs } from "../test/support/runtime";
import { startRecorder, type Recorder } from "../test/support/recorder";
import type { BatchProgress } from "../src/batch";
import { median, round } from "./measure";
import { startRedis } from "../test/support/redis";
import { runAlone } from "./run-alone";

export interface QueueScaleResult {
  items: number;
  itemMs: number;
  parallel: number;
  nodeReds: number;
  rounds: QueueScaleRound[];
  oneMs: number;
  threeMs: number;
  /** The median of the rounds' one ÷ three (each round runs one, then three, close in time). */
  scale: number;
  /** The ideal: the list's work ÷ the places, one Node-RED and three. */
  idealOneMs: number;
  idealThreeMs: number;
  /** Items each Node-RED did in the last run with three, by worker name. */
  split: Array<{ name: string; done: number }>;
}

export interface QueueScaleRound {
  oneMs: number;
  threeMs: number;
}

const ITEMS = 300;
const ITEM_MS = 200;
const PARALLEL = 5;
const NODE_REDS = 3;
const ROUNDS = 3;
const RUN_LIMIT_MS = 120_000;

const fn = (id: string, z: string, func: string, wires: string[][]): FlowNode => ({ id, type: "function", z, func, outputs: wires.length, noerr: 0, initialize: "", finalize: "", libs: [], wires });

/** POST /bench/<kind>/in → batch (name `batchName`, on the queue) → 200 ms delay → back; its `done` posted to the recorder's /<kind>. */
function batchTab(kind: string, batchName: string, recorderUrl: string): FlowNode[] {
  const z = `${kind}-tab`;
  const batch = `${kind}-batch`;
  return [
    { id: z, type: "tab", label: `queue bench ${kind}` },
    { id: `${kind}-in`, type: "http in", z, url: `/bench/${kind}/in`, method: "post", upload: false, wires: [[`${kind}-ok`, `${kind}-unwrap`]] },
    { id: `${kind}-ok`, type: "http response", z, statusCode: "200", headers: {}, wires: [] },
    fn(`${kind}-unwrap`, z, "return { payload: msg.payload.items };", [[batch]]),
    {
      id: batch,
      type: "morelogin-batch",
      z,
      name: batchName,
      queue: "bench-queue",
      parallel: String(PARALLEL),
      retries: "0",
      itemTimeout: "0",
      resend: false,
      wires: [[`${kind}-work`], [`${kind}-done`]],
    },
    {
      id: `${kind}-work`,
      type: "delay",
      z,
      pauseType: "delay",
      timeout: String(ITEM_MS),
      timeoutUnits: "milliseconds",
      rate: "1",
      nbRateUnits: "1",
      rateUnits: "second",
      randomFirst: "1",
      randomLast: "5",
      randomUnits: "seconds",
      drop: false,
      allowrate: false,
      outputs: 1,
      wires: [[batch]],
    },
    fn(`${kind}-done`, z, "return msg.topic === 'done' ? { payload: JSON.stringify(msg.payload) } : null;", [[`${kind}-post`]]),
    { id: `${kind}-post`, type: "http request", z, method: "POST", ret: "txt", paytoqs: "ignore", url: `${recorderUrl}/${kind}`, wires: [[]] },
  ];
}

function flows(redisUrl: string, recorderUrl: string, index: number): FlowNode[] {
  return [
    { id: "bench-queue", type: "morelogin-queue", name: "bench redis", url: redisUrl, worker: `node-red-${index + 1}`, workerTimeout: "30" },
    ...batchTab("shared", "bench-scale-shared", recorderUrl),
    // Only the first Node-RED has this batch node: its queue is worked by one Node-RED.
    ...(index === 0 ? batchTab("solo", "bench-scale-solo", recorderUrl) : []),
  ];
}

const dones = (recorder: Recorder, kind: string): BatchProgress[] => recorder.requests.filter((request) => request.url === `/${kind}`).map((request) => JSON.parse(request.body) as BatchProgress);

/** Milliseconds from sending the list to the first Node-RED until the recorder hears the batch's `done`. */
async function timeRun(first: RunningNodeRed, recorder: Recorder, kind: "shared" | "solo", items: unknown[]): Promise<{ ms: number; done: BatchProgress }> {
  const before = dones(recorder, kind).length;
  const begin = performance.now();
  const response = await fetch(`${first.url}/bench/${kind}/in`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ items }) });
  if (!response.ok) throw new Error(`/bench/${kind}/in: HTTP ${response.status}`);
  while (dones(recorder, kind).length === before) {
    if (performance.now() - begin > RUN_LIMIT_MS) throw new Error(`the ${kind} batch of ${items.length} items did not end within ${RUN_LIMIT_MS / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  const ms = performance.now() - begin;
  const done = dones(recorder, kind)[before] as BatchProgress;
  if (done.done !== items.length) throw new Error(`the ${kind} batch ended with ${done.done} of ${items.length} items done: ${JSON.stringify(done)}`);
  return { ms, done };
}

const rows = (count: number): unknown[] => Array.from({ length: count }, (_, index) => ({ id: String(1_993_244_721_490_000_000n + BigInt(index)), envName: `profile ${index}` }));

export async function queueScale(): Promise<QueueScaleResult> {
  const redis = await startRedis();
  const recorder = await startRecorder();
  const works = Array.from({ length: NODE_REDS }, () => batchUserDir("morelogin-bench-scale-"));
  const nodeReds: RunningNodeRed[] = [];
  try {
    for (const work of works) nodeReds.push(await startNodeRed({ userDir: join(work, "user"), node: nodeBinary, redJs, settings: {} }));
    await Promise.all(nodeReds.map((nodeRed, index) => deployAndStart(nodeRed, flows(redis.url, recorder.url, index))));
    const first = nodeReds[0] as RunningNodeRed;
    const items = rows(ITEMS);
    // One unmeasured run of each warms both paths up.
    await timeRun(first, recorder, "solo", items);
    await timeRun(first, recorder, "shared", items);
    const rounds: QueueScaleRound[] = [];
    let split: QueueScaleResult["split"] = [];
    for (let index = 0; index < ROUNDS; index++) {
      const one = await timeRun(first, recorder, "solo", items);
      const three = await timeRun(first, recorder, "shared", items);
      split = (three.done.workers ?? []).map((worker) => ({ name: worker.name, done: worker.done }));
      rounds.push({ oneMs: round(one.ms), threeMs: round(three.ms) });
    }
    const oneMs = median(rounds.map((entry) => entry.oneMs));
    const threeMs = median(rounds.map((entry) => entry.threeMs));
    const idealOneMs = (ITEMS / PARALLEL) * ITEM_MS;
    return {
      items: ITEMS,
      itemMs: ITEM_MS,
      parallel: PARALLEL,
      nodeReds: NODE_REDS,
      rounds,
      oneMs: round(oneMs),
      threeMs: round(threeMs),
      scale: round(median(rounds.map((entry) => entry.oneMs / entry.threeMs)), 3),
      idealOneMs,
      idealThreeMs: idealOneMs / NODE_REDS,
      split,
    };
  } finally {
    await Promise.all(nodeReds.map((nodeRed) => nodeRed.stop()));
    await recorder.close();
    await redis.stop();
    for (const work of works) rmSync(work, { recursive: true, force: true });
  }
}

if (require.main === module) runAlone(queueScale);
