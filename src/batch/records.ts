import { Ledger, STATE_CODE, ITEM_STATES } from "./ledger";
import type { BatchFailure, BatchHeader, BatchProgress, QueuedList } from "./types";

/**
 * What a batch node's journal holds, one record a line. An item's change is the smallest: `[index,
 * state, attempt]` (about 12 bytes); the list is written once, when it arrives; a snapshot (what a
 * compaction writes) holds all that is live.
 */
export type ItemChange = [index: number, state: number, attempt: number];
export type BatchRecord =
  | ItemChange
  | Snapshot
  | { t: "list"; list: QueuedList }
  | { t: "begin"; startedAt: string }
  | { t: "fail"; failure: BatchFailure }
  | { t: "flags"; paused: boolean; cancelled: boolean }
  | { t: "drop"; id: string }
  | { t: "end"; summary: BatchProgress };

export interface Snapshot {
  t: "snapshot";
  v: 1;
  waiting: QueuedList[];
  batch?: { header: BatchHeader; items: unknown[]; checkpoint: string; attempts: Record<string, number>; failures: BatchFailure[] };
  last?: BatchProgress;
}

/** A batch node's state in memory, as the records build it. */
export interface BatchState {
  waiting: QueuedList[];
  batch?: { header: BatchHeader; items: unknown[]; ledger: Ledger; failures: BatchFailure[] };
  last?: BatchProgress;
}

export function emptyState(): BatchState {
  return { waiting: [] };
}

/** Applies one record to the state (replaying a journal, or as it is written). */
export function apply(state: BatchState, record: BatchRecord): void {
  if (Array.isArray(record)) {
    const [index, code, attempt] = record;
    const name = ITEM_STATES[code];
    if (state.batch && name) state.batch.ledger.set(index, name, attempt);
    return;
  }
  switch (record.t) {
    case "snapshot":
      state.waiting = record.waiting;
      state.last = record.last;
      state.batch = record.batch && {
        header: record.batch.header,
        items: record.batch.items,
        ledger: Ledger.fromCheckpoint(record.batch.header.total, record.batch.checkpoint, record.batch.attempts),
        failures: record.batch.failures,
      };
      return;
    case "list":
      state.waiting.push(record.list);
      return;
    case "begin": {
      const next = state.waiting.shift();
      if (!next) return;
      const header: BatchHeader = { id: next.id, total: next.items.length, startedAt: record.startedAt, paused: false, cancelled: false, origin: next.origin };
      state.batch = { header, items: next.items, ledger: Ledger.fresh(header.total), failures: [] };
      return;
    }
    case "fail":
      state.batch?.failures.push(record.failure);
      return;
    case "flags": {
      const batch = state.batch;
      if (!batch) return;
      // A cancel: what waits in the batch is counted cancelled (one record, whatever the list's length).
      if (record.cancelled && !batch.header.cancelled) {
        for (const waiting of ["waiting", "retry"] as const) for (const index of batch.ledger.indexesOf(waiting)) batch.ledger.set(index, "cancelled");
      }
      batch.header = { ...batch.header, paused: record.paused, cancelled: record.cancelled };
      return;
    }
    case "drop":
      state.waiting = state.waiting.filter((list) => list.id !== record.id);
      return;
    case "end":
      state.batch = undefined;
      state.last = record.summary;
      return;
  }
}

/** What a compaction writes: everything live, in one record. */
export function snapshotOf(state: BatchState): Snapshot {
  const batch = state.batch;
  return {
    t: "snapshot",
    v: 1,
    waiting: state.waiting,
    batch: batch && { header: batch.header, items: batch.items, checkpoint: batch.ledger.checkpoint(), attempts: batch.ledger.attemptsPastFirst(), failures: batch.failures },
    last: state.last,
  };
}

export function change(index: number, state: keyof typeof STATE_CODE, attempt: number): ItemChange {
  return [index, STATE_CODE[state], attempt];
}
