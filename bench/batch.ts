/**
 * Phase 12, what the batch node costs per item and whether that cost grows with the list: a real
 * Node-RED process on its default settings (context in memory; the batch keeps its journal under the
 * user directory, every item fsynced as out before it leaves), no-op items (a function node that passes
 * each message back) at parallel 50, through the batch node and through a plain loop (a function node
 * keeping the list in memory, sending the next item as one comes back). The per-item overhead is (batch
 * time − loop time) ÷ items, at 1,000, 10,000 and 100,000 items, median of the rounds. The journal's own
 * bytes and fsyncs per item are counted on a runner and journal in this process, at 10,000 items.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BatchRunner, LocalBatchWork, type BatchTag } from "../src/batch";
import { deployAndStart, freePort, startNodeRed, type FlowNode } from "../tools/sandbox";
import { batchUserDir } from "../test/support/batch-flow";
import { nodeBinary, redJs } from "../test/support/runtime";
import { startRecorder, type Recorder } from "../test/support/recorder";
import { median, round } from "./measure";

export interface BatchResult {
  parallel: number;
  sizes: BatchSize[];
  /** The list size `batch_overhead_ms_per_item` is read at. */
  overheadAt: number;
  journal: JournalFigures;
  /**
   * How the cost of an item grows with the list: the per-item overhead at the largest list ÷ at the
   * smallest when both are above zero; when the batch node costs no more than the plain loop (the
   * overhead is at or below zero, noise around nothing), the batch's own time per item at the largest
   * list ÷ at the smallest, since a ratio of two figures at or below zero says nothing.
   */
  growth: number;
  growthOf: "overhead" | "batch time per item";
}

export interface BatchSize {
  items: number;
  rounds: number;
  batchMs: number;
  loopMs: number;
  overheadMsPerItem: number;
}

/** What the journal writes for a list of no-op items (bench rows), once the list itself is written. */
export interface JournalFigures {
  items: number;
  /** The list's own record. */
  listBytes: number;
  /** Bytes written after the list (out and done of each item, the compaction at the end), per item. */
  bytesPerItem: number;
  fsyncsPerItem: number;
}

const PARALLEL = 50;
/** Rounds per size: fewer at 100,000 items (a run there takes seconds). */
const SIZES = [
  { items: 1_000, rounds: 5 },
  { items: 10_000, rounds: 5 },
  { items: 100_000, rounds: 3 },
];
const OVERHEAD_AT = 10_000;
const JOURNAL_ITEMS = 10_000;

const fn = (id: string, func: string, wires: string[][]): FlowNode => ({ id, type: "function", z: "bench", func, outputs: wires.length, noerr: 0, initialize: "", finalize: "", libs: [], wires });
const post = (id: string, url: string): FlowNode => ({ id, type: "http request", z: "bench", method: "POST", ret: "txt", paytoqs: "ignore", url, wires: [[]] });
const httpIn = (id: string, url: string, next: string): FlowNode[] => [
  { id, type: "http in", z: "bench", url, method: "post", upload: false, wires: [[`${id}-ok`, next]] },
  { id: `${id}-ok`, type: "http response", z: "bench", statusCode: "200", headers: {}, wires: [] },
];

/** The plain loop: the list in memory, `PARALLEL` items out, the next one sent as each comes back. */
const LOOP = `
const store = 'memoryOnly';
if (Array.isArray(msg.payload)) {
  const items = msg.payload;
  context.set('items', items, store);
  context.set('back', 0, store);
  const first = Math.min(${PARALLEL}, items.length);
  context.set('next', first, store);
  const out = [];
  for (let i = 0; i < first; i++) out.push({ payload: items[i], topic: String(i), loopIndex: i });
  node.send([out, null]);
  return null;
}
const items = context.get('items', store);
const back = context.get('back', store) + 1;
context.set('back', back, store);
if (back === items.length) return [null, { topic: 'done' }];
const next = context.get('next', store);
if (next < items.length) {
  context.set('next', next + 1, store);
  return [{ payload: items[next], topic: String(next), loopIndex: next }, null];
}
return null;
`;

function flows(recorderUrl: string): FlowNode[] {
  return [
    { id: "bench", type: "tab", label: "batch bench" },
    ...httpIn("in-batch", "/bench/batch", "unwrap-batch"),
    fn("unwrap-batch", "return { payload: msg.payload.items };", [["batch"]]),
    { id: "batch", type: "morelogin-batch", z: "bench", parallel: String(PARALLEL), retries: "0", itemTimeout: "0", resend: false, wires: [["noop-batch"], ["done-batch"]] },
    fn("noop-batch", "return msg;", [["batch"]]),
    fn("done-batch", "return msg.topic === 'done' ? { payload: 'done' } : null;", [["post-batch"]]),
    post("post-batch", `${recorderUrl}/batch`),
    ...httpIn("in-loop", "/bench/loop", "unwrap-loop"),
    fn("unwrap-loop", "return { payload: msg.payload.items };", [["loop"]]),
    fn("loop", LOOP, [["noop-loop"], ["post-loop"]]),
    fn("noop-loop", "return msg;", [["loop"]]),
    post("post-loop", `${recorderUrl}/loop`),
  ];
}

/** Milliseconds from sending the list to the end of the run (the recorder hearing of it). */
async function timeRun(url: string, recorder: Recorder, kind: "batch" | "loop", items: unknown[]): Promise<number> {
  const before = recorder.requests.filter((request) => request.url === `/${kind}`).length;
  const begin = performance.now();
  const response = await fetch(`${url}/bench/${kind}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ items }) });
  if (!response.ok) throw new Error(`/bench/${kind}: HTTP ${response.status}`);
  const deadline = begin + 300_000;
  while (recorder.requests.filter((request) => request.url === `/${kind}`).length === before) {
    if (performance.now() > deadline) throw new Error(`the ${kind} of ${items.length} items did not end within 300 s`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  return performance.now() - begin;
}

/** Rows as a list node sends them: 19-digit string IDs and a name. */
const rows = (count: number): unknown[] => Array.from({ length: count }, (_, index) => ({ id: String(1_993_244_721_490_000_000n + BigInt(index)), envName: `profile ${index}` }));

/** The journal's bytes and fsyncs per item: a runner on a real journal, each item back a turn after it left (as Node-RED sends). */
export async function journalFigures(count = JOURNAL_ITEMS): Promise<JournalFigures> {
  const folder = mkdtempSync(join(tmpdir(), "morelogin-bench-journal-"));
  try {
    const work = await LocalBatchWork.open(join(folder, "batch.jsonl"), { resend: false, onError: (error) => console.error(error) });
    let ended: () => void = () => undefined;
    const finished = new Promise<void>((resolve) => {
      ended = resolve;
    });
    const runner: BatchRunner = new BatchRunner({ parallel: PARALLEL, retries: 0, itemTimeoutMs: 0, resend: false }, work, {
      sendItem: (msg) => setImmediate(() => runner.back((msg.morelogin as { batch: BatchTag }).batch, undefined)),
      sendProgress: (topic) => {
        if (topic === "done") ended();
      },
      status: () => undefined,
      failed: (error) => console.error(error),
      generateId: () => "bench",
      clone: (value) => value,
      now: () => Date.now(),
      t: (key) => key,
    });
    const items = rows(count);
    const listBytes = Buffer.byteLength(JSON.stringify({ t: "list", list: { id: "bench", items, origin: {} } })) + 1;
    await runner.add(items, {});
    await finished;
    const stats = work.journalStats;
    await work.close();
    return { items: count, listBytes, bytesPerItem: round((stats.bytesWritten - listBytes) / count, 2), fsyncsPerItem: round(stats.syncs / count, 4) };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

export async function batchPhase(): Promise<BatchResult> {
  const journal = await journalFigures();
  const work = batchUserDir("morelogin-bench-batch-");
  const recorder = await startRecorder();
  // Node-RED's default context store is memory; `memoryOnly` names it for the plain loop. 100,000 rows are a 6 MB body (the http in node's limit is 5 MB).
  const contextStorage = { default: { module: "memory" }, memoryOnly: { module: "memory" } };
  const nodeRed = await startNodeRed({ userDir: join(work, "user"), port: await freePort(), node: nodeBinary, redJs, settings: { contextStorage, apiMaxLength: "50mb" } });
  try {
    await deployAndStart(nodeRed, flows(recorder.url));
    const sizes: BatchSize[] = [];
    for (const { items: count, rounds } of SIZES) {
      const items = rows(count);
      // One unmeasured run of each warms both paths up.
      await timeRun(nodeRed.url, recorder, "loop", items);
      await timeRun(nodeRed.url, recorder, "batch", items);
      const batchRuns: number[] = [];
      const loopRuns: number[] = [];
      for (let round = 0; round < rounds; round++) {
        loopRuns.push(await timeRun(nodeRed.url, recorder, "loop", items));
        batchRuns.push(await timeRun(nodeRed.url, recorder, "batch", items));
      }
      const perItem = batchRuns.map((ms, index) => (ms - (loopRuns[index] ?? 0)) / count);
      sizes.push({ items: count, rounds, batchMs: round(median(batchRuns)), loopMs: round(median(loopRuns)), overheadMsPerItem: round(median(perItem), 4) });
    }
    const smallest = sizes[0];
    const largest = sizes.at(-1);
    if (!smallest || !largest) throw new Error("no list measured");
    if (smallest.overheadMsPerItem > 0 && largest.overheadMsPerItem > 0) {
      return { parallel: PARALLEL, sizes, overheadAt: OVERHEAD_AT, journal, growth: round(largest.overheadMsPerItem / smallest.overheadMsPerItem, 2), growthOf: "overhead" };
    }
    return { parallel: PARALLEL, sizes, overheadAt: OVERHEAD_AT, journal, growth: round(largest.batchMs / largest.items / (smallest.batchMs / smallest.items), 2), growthOf: "batch time per item" };
  } finally {
    await nodeRed.stop();
    await recorder.close();
    rmSync(work, { recursive: true, force: true });
  }
}
