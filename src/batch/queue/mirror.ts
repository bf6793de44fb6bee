import { NO_COUNTS, type LedgerCounts } from "../ledger";
import type { BatchFailure, BatchHandover, BatchHeader, BatchInterruption, BatchProgress, QueuedList, WorkerFigures } from "../types";

/**
 * What this Node-RED knows of the queue: Redis as last read (src/batch/queue/reading.ts), with this
 * Node-RED's own changes since, so that the runner sees them before the next read does.
 */
export interface Mirror {
  header: BatchHeader | undefined;
  counts: LedgerCounts;
  failures: BatchFailure[];
  interruptions: BatchInterruption[];
  workedTwice: BatchHandover[];
  /** Every Node-RED with a share of the batch, those unheard for the worker timeout marked `gone`. */
  workers: WorkerFigures[];
  waiting: Array<Pick<QueuedList, "id" | "origin"> & { total: number }>;
  last: BatchProgress | undefined;
}

/** The mirror while no batch runs: only the lists waiting and the last summary. */
export function noBatch(waiting: Mirror["waiting"], last: BatchProgress | undefined): Mirror {
  return { header: undefined, counts: NO_COUNTS, failures: [], interruptions: [], workedTwice: [], workers: [], waiting, last };
}

/** What the runner would show of the mirror (with the items out here): a read that changes none of it does not wake the runner. */
export function signatureOf(mirror: Mirror, outHere: number): string {
  const { header, counts, workers, waiting, last, failures, interruptions, workedTwice } = mirror;
  return JSON.stringify([header?.id, header?.paused, header?.cancelled, counts, workers, waiting.map((list) => list.id), last?.id, failures.length, interruptions.length, workedTwice.length, outHere]);
}

/** Items this Node-RED took: from waiting to running. */
export function markTaken(mirror: Mirror, count: number): void {
  const counts = mirror.counts;
  // Not in this worker's figures: the next read adds them, and that change wakes the runner to show them.
  mirror.counts = { ...counts, running: counts.running + count, waiting: Math.max(0, counts.waiting - count) };
}

/** An item of this Node-RED's waits to be tried again. */
export function markRetried(mirror: Mirror, worker: string): void {
  leaveRunning(mirror, worker);
  mirror.counts = { ...mirror.counts, waiting: mirror.counts.waiting + 1 };
}

/** An item of this Node-RED's ended: counted here too when this report was the one Redis counted. */
export function markEnded(mirror: Mirror, worker: string, state: "done" | "failed" | "timedOut", failure: BatchFailure | undefined, counted: boolean): void {
  leaveRunning(mirror, worker);
  if (!counted) return;
  const counts = { ...mirror.counts };
  counts[state] += 1;
  mirror.counts = counts;
  countWorker(mirror, worker, state === "done" ? { done: 1 } : { failed: 1 });
  if (failure) mirror.failures = [...mirror.failures, failure];
}

/** The running batch (`header`) was cancelled here: what waited in it is cancelled. */
export function markCancelled(mirror: Mirror, header: BatchHeader): void {
  mirror.header = { ...header, cancelled: true };
  mirror.counts = { ...mirror.counts, cancelled: mirror.counts.cancelled + mirror.counts.waiting, waiting: 0 };
}

function leaveRunning(mirror: Mirror, worker: string): void {
  mirror.counts = { ...mirror.counts, running: Math.max(0, mirror.counts.running - 1) };
  countWorker(mirror, worker, { running: -1 });
}

/**
 * This Node-RED's own figures in the mirror's `workers`, changed with the counts until the next read
 * reads them: the summary a batch ends with must add up, workers and counts alike.
 */
function countWorker(mirror: Mirror, name: string, change: Partial<Record<"running" | "done" | "failed", number>>): void {
  const workers = mirror.workers.some((figures) => figures.name === name) ? mirror.workers : [...mirror.workers, { name, running: 0, done: 0, failed: 0 }];
  mirror.workers = workers
    .map((figures) =>
      figures.name === name
        ? {
            ...figures,
            running: Math.max(0, figures.running + (change.running ?? 0)),
            done: figures.done + (change.done ?? 0),
            failed: figures.failed + (change.failed ?? 0),
          }
        : figures,
    )
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
