import type { BatchProgress, QueuedList } from "../types";
import type { QueueLink } from "./connection";
import type { Mirror } from "./mirror";
import { causeOf } from "./redis-errors";
import { decodeItems, encodeItems, encodeListMeta, encodeSummary, headerFlag, itemJob, startedHeaderArgs, type HeaderFlag, type ItemJob } from "./redis-records";
import { DROP_WAITING, FINISH, RECORD_ENDING, START_NEXT } from "./scripts";

/**
 * The queue's records as Node-REDs change them, beside BullMQ's jobs: each change that several Node-REDs
 * may make at once goes through one of the scripts of src/batch/queue/scripts.ts, and each change is
 * announced on `changed` for the other Node-REDs to read.
 */

/** The records of a batch that ended stay this long (for a late `status`), then Redis drops them. */
const KEEP_ENDED_SECONDS = 7 * 24 * 3600;
/** Items added to BullMQ per call when a list starts. */
const ENQUEUE_CHUNK = 500;
/** Another Node-RED that starts adding a list's items holds this long before a second may try. */
const ENQUEUE_LOCK_MS = 120_000;

/** Tells every Node-RED of the queue that something changed (the word is for whoever watches Redis). */
export async function announce(link: QueueLink, change: string): Promise<void> {
  await link.client.publish(link.keys.changed, change);
}

/** A new list, waiting its turn. */
export async function addList(link: QueueLink, list: QueuedList): Promise<Mirror["waiting"][number]> {
  const { keys } = link;
  const meta = { id: list.id, total: list.items.length, origin: list.origin };
  await link.client
    .multi()
    .set(keys.list(list.id), encodeItems(list.items))
    .set(keys.meta(list.id), encodeListMeta(meta))
    .rpush(keys.waiting, list.id)
    .publish(keys.changed, "add")
    .exec()
    .catch(causeOf);
  return meta;
}

/** The first list waiting becomes the running batch, unless one runs; undefined when none runs and none waits. */
export async function startNextList(link: QueueLink, startedAt: string): Promise<"started" | "running" | undefined> {
  const { keys } = link;
  const answer = (await link.client.eval(START_NEXT, 2, keys.current, keys.waiting, keys.prefix, ...startedHeaderArgs(startedAt))) as string | null;
  if (!answer) return undefined;
  if (!answer.startsWith("started:")) return "running";
  // A batch that ended while paused (its last items were out) left BullMQ's queue paused.
  await link.queue.resume();
  await announce(link, "start");
  return "started";
}

/** A list that became the running batch: its items go into BullMQ (once: one Node-RED at a time, job IDs fixed). */
export async function enqueueItems(link: QueueLink, batchId: string): Promise<void> {
  const { client, keys } = link;
  const locked = await client.set(keys.enqueuing(batchId), link.me, "PX", ENQUEUE_LOCK_MS, "NX");
  if (locked !== "OK") return;
  const json = await client.get(keys.list(batchId));
  const items = json ? decodeItems(keys.list(batchId), json) : [];
  for (let start = 0; start < items.length; start += ENQUEUE_CHUNK) {
    const chunk = items.slice(start, start + ENQUEUE_CHUNK).map((item, offset) => itemJob({ batch: batchId, index: start + offset, attempt: 1, item }));
    await link.queue.addBulk(chunk);
  }
  await client.multi().hset(keys.header(batchId), headerFlag("enqueued", true)).del(keys.enqueuing(batchId)).publish(keys.changed, "enqueued").exec().catch(causeOf);
}

/** An item to be tried again: a job of its own, its next attempt. */
export async function requeue(link: QueueLink, next: ItemJob): Promise<void> {
  const job = itemJob(next);
  await link.queue.add(job.name, job.data, job.opts);
}

/**
 * An item's ending (`entry`: its failure's or its interruption's encoded entry, "" for none) by `worker`:
 * true when this report counted, false when the item had already ended.
 */
export async function recordEnding(link: QueueLink, batchId: string, index: number, state: string, worker: string, entry: string): Promise<boolean> {
  const { keys } = link;
  const ending = [keys.ended(batchId), keys.counts(batchId), keys.workersDone(batchId), keys.workersFailed(batchId), keys.failures(batchId), keys.interruptions(batchId)];
  return (await link.client.eval(RECORD_ENDING, ending.length, ...ending, String(index), state, worker, entry)) === 1;
}

/** Pauses or resumes the running batch on every Node-RED. */
export async function setPaused(link: QueueLink, batchId: string, paused: boolean): Promise<void> {
  await setFlag(link, batchId, "paused", paused);
  if (paused) await link.queue.pause();
  else await link.queue.resume();
}

/** Cancels the running batch: nothing that waits in it goes out any more. */
export async function setCancelled(link: QueueLink, batchId: string, wasPaused: boolean): Promise<void> {
  await setFlag(link, batchId, "cancelled", true);
  await link.queue.drain();
  if (wasPaused) await link.queue.resume();
}

async function setFlag(link: QueueLink, batchId: string, flag: HeaderFlag, on: boolean): Promise<void> {
  await link.client.hset(link.keys.header(batchId), headerFlag(flag, on));
}

/** Takes the lists with these IDs out of the queue before their turn; returns the IDs of those that were still waiting. */
export async function dropWaitingLists(link: QueueLink, ids: readonly string[]): Promise<string[]> {
  const { client, keys } = link;
  const dropped = (await client.eval(DROP_WAITING, 1, keys.waiting, ...ids)) as string[];
  if (dropped.length > 0) {
    await client.del(...dropped.flatMap((id) => [keys.list(id), keys.meta(id)]));
    await announce(link, "drop");
  }
  return dropped;
}

/**
 * The running batch ended with `summary`: true when this Node-RED is the one to announce it (the first
 * to claim it), which then lets the batch's records expire and drops its list.
 */
export async function claimEnd(link: QueueLink, batchId: string, summary: BatchProgress): Promise<boolean> {
  const { client, keys } = link;
  const claimed = (await client.eval(FINISH, 3, keys.current, keys.announced(batchId), keys.last, batchId, link.me, encodeSummary(summary), String(KEEP_ENDED_SECONDS))) === 1;
  if (!claimed) return false;
  const kept = [keys.header, keys.ended, keys.counts, keys.workersDone, keys.workersFailed, keys.failures, keys.interruptions, keys.workedTwice];
  const transaction = client.multi();
  for (const key of kept) transaction.expire(key(batchId), KEEP_ENDED_SECONDS);
  await transaction.del(keys.list(batchId), keys.meta(batchId), keys.out(batchId)).publish(keys.changed, "end").exec().catch(causeOf);
  await link.queue.clean(0, 0, "failed").catch(() => undefined);
  return true;
}
