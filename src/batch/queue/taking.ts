import { randomUUID } from "node:crypto";
import type { Job } from "bullmq";
import { itemIdOf } from "../items";
import type { BatchHandover, BatchHeader, BatchInterruption } from "../types";
import type { TakenItem } from "../work";
import { announce, recordEnding } from "./bookkeeping";
import type { QueueLink } from "./connection";
import { causeOf } from "./redis-errors";
import { encodeEntry, type ItemJob } from "./redis-records";

/** An item out on this Node-RED: its BullMQ job, locked with `token`. */
export interface Held {
  job: Job<ItemJob>;
  token: string;
  attempt: number;
  /** Its lock lapsed while this Node-RED was unheard (said once). */
  lost?: boolean;
}

/**
 * Up to `count` items of the running batch (`header`) from BullMQ, each held here (in `held`) and on record
 * as out on this Node-RED. A job of a batch this Node-RED's mirror does not show yet goes back to wait,
 * and `behind` is called to read Redis again.
 */
export async function takeItems(link: QueueLink, header: BatchHeader, count: number, held: Map<number, Held>, behind: () => void): Promise<TakenItem[]> {
  const taken: TakenItem[] = [];
  const handedOver: TakenItem[] = [];
  while (taken.length < count) {
    const token = randomUUID();
    const job = (await link.worker.getNextJob(token, { block: false })) as Job<ItemJob> | undefined;
    if (!job) break;
    const data = job.data;
    if (job.deferredFailure) {
      await interrupt(link, header, job, token);
      continue;
    }
    if (data.batch !== header.id) {
      // A batch this node does not know yet (its mirror is behind): the job waits for it, or for another Node-RED.
      if ((await link.client.get(link.keys.current)) === data.batch) {
        await job.moveToWait(token).catch(() => undefined);
        behind();
        break;
      }
      await complete(job, token);
      continue;
    }
    const stale = held.has(data.index) || (await link.client.hexists(link.keys.ended(header.id), String(data.index))) === 1;
    if (stale) {
      await complete(job, token);
      continue;
    }
    const attempt = data.attempt + (job.stalledCounter ?? 0);
    held.set(data.index, { job, token, attempt });
    const item: TakenItem = { index: data.index, attempt, item: data.item };
    taken.push(item);
    if ((job.stalledCounter ?? 0) > 0) handedOver.push(item);
  }
  if (taken.length > 0) await recordOut(link, header.id, taken, handedOver);
  return taken;
}

/** A job that leaves BullMQ without going out (done with, or not ours to send). */
async function complete(job: Job<ItemJob>, token: string): Promise<void> {
  await job.moveToCompleted(null, token, false).catch(() => undefined);
}

/** Out on a Node-RED that was gone for workerTimeout (BullMQ's stalled job, past its limit): interrupted, not sent again. */
async function interrupt(link: QueueLink, header: BatchHeader, job: Job<ItemJob>, token: string): Promise<void> {
  const data = job.data;
  if (data.batch === header.id) {
    const worker = (await link.client.hget(link.keys.out(header.id), String(data.index))) ?? "";
    const interruption: BatchInterruption = { id: itemIdOf(data.item, data.index), attempt: data.attempt + Math.max(0, (job.stalledCounter ?? 1) - 1), ...(worker ? { worker } : {}) };
    await recordEnding(link, header.id, data.index, "interrupted", worker, encodeEntry(interruption));
  }
  await complete(job, token);
  await announce(link, "interrupted");
}

/**
 * Which Node-RED has each item out, so that one that goes unheard can be named; an item that went out
 * before on a Node-RED unheard since (BullMQ's stalled job, sent again with `resend`) is recorded as
 * worked twice, from that one to this.
 */
async function recordOut(link: QueueLink, batchId: string, taken: readonly TakenItem[], handedOver: readonly TakenItem[]): Promise<void> {
  const { client, keys, me } = link;
  const outKey = keys.out(batchId);
  const before = handedOver.length > 0 ? await client.hmget(outKey, ...handedOver.map((item) => String(item.index))) : [];
  const transaction = client.multi().hset(outKey, Object.fromEntries(taken.map((item) => [String(item.index), me])));
  handedOver.forEach((item, at) => {
    const from = before[at] ?? "";
    if (from === me) return;
    const handover: BatchHandover = { id: itemIdOf(item.item, item.index), attempt: item.attempt, from, to: me };
    transaction.rpush(keys.workedTwice(batchId), encodeEntry(handover));
  });
  await transaction.exec().catch(causeOf);
}
