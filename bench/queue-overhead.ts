/**
 * What a queue costs a batch per item (issue 41, `queue_overhead_ms_per_item`): the batch's runner in this
 * process with its two works, the local journal (LocalBatchWork, fsynced as in a node) and a queue on a
 * real redis-server (QueueBatchWork), on the same list of no-op items (each back a turn after it left, as
 * Node-RED sends) at the same parallel. It measures the works themselves, not a Node-RED around them:
 * (queue time − local time) ÷ items, median of the paired rounds. Redis's own count of the commands it
 * ran says how many each item costs.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import { BatchRunner, LocalBatchWork, type BatchTag, type BatchWork } from "../src/batch";
import { QueueBatchWork } from "../src/batch/queue-work";
import { median, round } from "./measure";
import { startRedis } from "../test/support/redis";
import { runAlone } from "./run-alone";

export interface QueueOverheadResult {
  items: number;
  parallel: number;
  rounds: QueueOverheadRound[];
  localMs: number;
  queueMs: number;
  /** Median of the rounds' (queue − local) ÷ items. */
  overheadMsPerItem: number;
  /** Commands Redis ran per item in the last queue round (top-level and inside scripts), by command, most first. */
  redisCommandsPerItem: number;
  redisCommands: Array<{ command: string; perItem: number }>;
}

export interface QueueOverheadRound {
  localMs: number;
  queueMs: number;
}

const ITEMS = 2_000;
const PARALLEL = 50;
const ROUNDS = 5;

const rows = (count: number): unknown[] => Array.from({ length: count }, (_, index) => ({ id: String(1_993_244_721_490_000_000n + BigInt(index)), envName: `profile ${index}` }));

/** A runner on `work` whose items come straight back; resolves with the milliseconds from the list to `done`. */
async function timeBatch(work: BatchWork, attach: (runner: BatchRunner) => void, items: unknown[]): Promise<number> {
  let ended: () => void = () => undefined;
  let broke: (error: Error) => void = () => undefined;
  const finished = new Promise<void>((resolve, reject) => {
    ended = resolve;
    broke = reject;
  });
  let ids = 0;
  const runner: BatchRunner = new BatchRunner({ parallel: PARALLEL, retries: 0, itemTimeoutMs: 0, resend: false }, work, {
    sendItem: (msg) => setImmediate(() => runner.back((msg.morelogin as { batch: BatchTag }).batch, undefined)),
    sendProgress: (topic) => {
      if (topic === "done") ended();
    },
    status: () => undefined,
    failed: broke,
    generateId: () => `bench-${++ids}`,
    clone: (value) => value,
    now: () => Date.now(),
    t: (key) => key,
  });
  attach(runner);
  const begin = performance.now();
  await runner.add(items, {});
  await finished;
  const ms = performance.now() - begin;
  runner.stop();
  return ms;
}

async function localRound(items: unknown[]): Promise<number> {
  const folder = mkdtempSync(join(tmpdir(), "morelogin-bench-local-"));
  try {
    const work = await LocalBatchWork.open(join(folder, "batch.jsonl"), { resend: false, onError: (error) => console.error(error) });
    try {
      return await timeBatch(work, () => undefined, items);
    } finally {
      await work.close();
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** A queue of its own for the round, connected (one script run on Redis) before the clock starts. */
async function queueRound(url: string, name: string, items: unknown[]): Promise<number> {
  let runner: BatchRunner | undefined;
  const work = QueueBatchWork.open({ url, queue: name, worker: "bench", workerTimeoutMs: 30_000, resend: false, onChange: () => runner?.changed() });
  try {
    // Nothing waits in a new queue: this only waits for the connection.
    await work.startNext(new Date().toISOString());
    return await timeBatch(
      work,
      (attached) => {
        runner = attached;
      },
      items,
    );
  } finally {
    await work.close();
  }
}

/** Redis's count of calls per command since the last reset (INFO commandstats). */
async function commandCalls(client: Redis): Promise<Map<string, number>> {
  const info = await client.info("commandstats");
  const calls = new Map<string, number>();
  for (const match of info.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) calls.set(match[1] as string, Number(match[2]));
  return calls;
}

export async function queueOverhead(): Promise<QueueOverheadResult> {
  const redis = await startRedis();
  const stats = new Redis(redis.url);
  try {
    const items = rows(ITEMS);
    // One unmeasured run of each warms both paths up.
    await localRound(items);
    await queueRound(redis.url, "bench-overhead-warm", items);
    const rounds: QueueOverheadRound[] = [];
    let calls = new Map<string, number>();
    for (let index = 0; index < ROUNDS; index++) {
      const localMs = await localRound(items);
      await stats.config("RESETSTAT");
      const queueMs = await queueRound(redis.url, `bench-overhead-${index}`, items);
      calls = await commandCalls(stats);
      rounds.push({ localMs: round(localMs), queueMs: round(queueMs) });
    }
    calls.delete("info");
    calls.delete("config|resetstat");
    const redisCommands = [...calls.entries()].map(([command, count]) => ({ command, perItem: round(count / ITEMS, 2) })).sort((a, b) => b.perItem - a.perItem);
    const total = [...calls.values()].reduce((sum, count) => sum + count, 0);
    return {
      items: ITEMS,
      parallel: PARALLEL,
      rounds,
      localMs: round(median(rounds.map((entry) => entry.localMs))),
      queueMs: round(median(rounds.map((entry) => entry.queueMs))),
      overheadMsPerItem: round(median(rounds.map((entry) => (entry.queueMs - entry.localMs) / ITEMS)), 3),
      redisCommandsPerItem: round(total / ITEMS, 2),
      redisCommands,
    };
  } finally {
    stats.disconnect();
    await redis.stop();
  }
}

if (require.main === module) runAlone(queueOverhead);
