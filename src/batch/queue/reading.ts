import type { Job } from "bullmq";
import { endedOf, type LedgerCounts } from "../ledger";
import type { BatchHeader, WorkerFigures } from "../types";
import type { QueueLink } from "./connection";
import { noBatch, type Mirror } from "./mirror";
import { causeOf, repliesOf } from "./redis-errors";
import { decodeCounts, decodeFailures, decodeHandovers, decodeHeader, decodeInterruptions, decodeListMeta, decodeSummary, decodeWorkerCounts, type ItemJob } from "./redis-records";

/** The queue as one read found it. */
export interface QueueReading {
  mirror: Mirror;
  /** The running batch's ID while its items are not in BullMQ yet (its starter is adding them, or died doing so). */
  enqueuePending: string | undefined;
}

/** Reads the lists waiting, the last summary and the running batch, with its counts, lists and workers. It writes nothing. */
export async function readQueue(link: QueueLink): Promise<QueueReading> {
  const { client, keys } = link;
  const [current, waitingIds, lastJson] = repliesOf(await client.multi().get(keys.current).lrange(keys.waiting, 0, -1).get(keys.last).exec().catch(causeOf)) as [
    string | null,
    string[],
    string | null,
  ];
  const waiting = await readWaiting(link, waitingIds);
  const last = lastJson ? decodeSummary(keys.last, lastJson) : undefined;
  const batch = current ? await readBatch(link, current) : undefined;
  if (!batch) return { mirror: noBatch(waiting, last), enqueuePending: undefined };
  return { mirror: { ...batch.mirror, waiting, last }, enqueuePending: batch.enqueued ? undefined : batch.mirror.header.id };
}

async function readWaiting(link: QueueLink, ids: readonly string[]): Promise<Mirror["waiting"]> {
  if (ids.length === 0) return [];
  const metas = await link.client.mget(...ids.map((id) => link.keys.meta(id)));
  return metas.flatMap((json, at) => (json ? [decodeListMeta(link.keys.meta(ids[at] ?? ""), json)] : []));
}

type BatchMirror = Omit<Mirror, "waiting" | "last"> & { header: BatchHeader };

/** The running batch `id` as Redis and BullMQ hold it; undefined while it has no header yet. */
async function readBatch(link: QueueLink, id: string): Promise<{ mirror: BatchMirror; enqueued: boolean } | undefined> {
  const { client, keys } = link;
  const [header, counts, workersDone, workersFailed, failures, interruptions, workedTwice] = repliesOf(
    await client
      .multi()
      .hgetall(keys.header(id))
      .hgetall(keys.counts(id))
      .hgetall(keys.workersDone(id))
      .hgetall(keys.workersFailed(id))
      .lrange(keys.failures(id), 0, -1)
      .lrange(keys.interruptions(id), 0, -1)
      .lrange(keys.workedTwice(id), 0, -1)
      .exec()
      .catch(causeOf),
  ) as [Record<string, string>, Record<string, string>, Record<string, string>, Record<string, string>, string[], string[], string[]];
  const stored = decodeHeader(keys.header(id), id, header);
  if (!stored) return undefined;
  const active = (await link.queue.getActive()).filter((job) => (job.data as ItemJob | undefined)?.batch === id);
  const ended = decodeCounts(keys.counts(id), counts);
  const workers = workersOf(decodeWorkerCounts(keys.workersDone(id), workersDone), decodeWorkerCounts(keys.workersFailed(id), workersFailed), active);
  const present = workers.length > 0 ? await client.mget(...workers.map((figures) => keys.alive(figures.name))) : [];
  const mirror: BatchMirror = {
    header: stored.batch,
    counts: countsOf(stored.batch, ended, active.length),
    failures: decodeFailures(keys.failures(id), failures),
    interruptions: decodeInterruptions(keys.interruptions(id), interruptions),
    workedTwice: decodeHandovers(keys.workedTwice(id), workedTwice),
    workers: workers.map((figures, at) => (present[at] === null && figures.name !== link.me ? { ...figures, gone: true } : figures)),
  };
  return { mirror, enqueued: stored.enqueued };
}

/** The whole batch's counts: those ended as Redis counted them, those out in BullMQ, the rest waiting (once cancelled: cancelled). */
function countsOf(batch: BatchHeader, ended: LedgerCounts, running: number): LedgerCounts {
  const left = Math.max(0, batch.total - endedOf(ended) - running);
  return batch.cancelled ? { ...ended, running, waiting: 0, cancelled: left } : { ...ended, running, waiting: left, cancelled: 0 };
}

function workersOf(done: ReadonlyMap<string, number>, failed: ReadonlyMap<string, number>, active: readonly Job[]): WorkerFigures[] {
  const names = new Set<string>([...done.keys(), ...failed.keys(), ...active.flatMap((job) => (job.processedBy ? [job.processedBy] : []))]);
  names.delete("");
  return [...names].sort().map((name) => ({
    name,
    running: active.filter((job) => job.processedBy === name).length,
    done: done.get(name) ?? 0,
    failed: failed.get(name) ?? 0,
  }));
}
