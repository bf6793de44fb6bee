import type { LedgerCounts } from "./ledger";
import type { BatchFailure, BatchHandover, BatchHeader, BatchInterruption, BatchProgress, QueuedList, WorkerFigures } from "./types";

/** An item the runner is to send: on record as out (durably) before the runner gets it. */
export interface TakenItem {
  index: number;
  attempt: number;
  item: unknown;
}

/** What keeps a queue's items from going out: its reason is a code (ECONNREFUSED, WRONGPASS, NOPERM), never a message. */
export interface Trouble {
  /** Redis cannot be reached; it refused the login; or it refuses the commands the queue needs (its ACL, its memory). */
  kind: "unreachable" | "login" | "refused";
  reason: string;
  /** Unreachable since the node started (no Redis there yet, as on a first try of the example): where it waits for one, host:port/db. */
  waitingAt?: string;
}

/** A list taken out of the queue before its turn. */
export interface DroppedList {
  id: string;
  total: number;
}

/** How an item out ended, as the runner judged it. */
export type Ending = { state: "done" } | { state: "retry" } | { state: "failed" | "timedOut"; error: string };

/**
 * A batch node's state and its share of the work, behind one interface so that the runner does not know
 * where they are kept: in a journal on this machine (LocalBatchWork), or in a queue shared by several
 * Node-REDs (QueueBatchWork). Reads are synchronous (what this node knows now); changes resolve once
 * they are on record.
 */
export interface BatchWork {
  /** The running batch, if any: after a restart, with the items out then already interrupted (or, with `resend`, waiting again). */
  current(): BatchHeader | undefined;
  /** The lists waiting their turn, first first. */
  waiting(): readonly Pick<QueuedList, "id" | "origin">[];
  /** The summary of the last batch that ended. */
  last(): BatchProgress | undefined;
  /** The whole batch's counts (with a queue: every Node-RED's). */
  counts(): LedgerCounts;
  /** Items this node has out now: its places taken of `parallel`. */
  runningHere(): number;
  /** With a queue, each Node-RED's share; undefined on one Node-RED. */
  workers(): readonly WorkerFigures[] | undefined;
  /** Why no item can go out now (the queue's store is unreachable, or refused the login); else undefined. */
  trouble(): Trouble | undefined;
  failures(): readonly BatchFailure[];
  /** The items of the running batch that ended interrupted. */
  interruptions(): readonly BatchInterruption[];
  /** With a queue, the items that went out on two Node-REDs; undefined on one Node-RED. */
  workedTwice(): readonly BatchHandover[] | undefined;
  /** Whether an item message with this tag is one this node has out now. */
  isOut(index: number, attempt: number): boolean;

  /** A new list, under its batch's ID: on record before the promise resolves. */
  add(list: QueuedList): Promise<void>;
  /** The first list waiting becomes the running batch (none may run); with a queue, the batch another Node-RED started. */
  startNext(startedAt: string): Promise<BatchHeader | undefined>;
  /** Up to `count` items to send, first pass in order then the retries, each on record as out when the promise resolves. */
  take(count: number): Promise<TakenItem[]>;
  /** An item out ended (or waits to be tried again). */
  settle(index: number, attempt: number, ending: Ending): Promise<void>;
  pause(paused: boolean): Promise<void>;
  /** The running batch is cancelled: what waits in it is counted cancelled. */
  cancelCurrent(): Promise<void>;
  /** A list waiting its turn (the one with `id`, else all) leaves the queue; returns those removed. */
  dropWaiting(id?: string): Promise<DroppedList[]>;
  /**
   * The running batch ended with this summary; on record when the promise resolves with the summary this
   * node is to announce (as recorded: with a queue, the whole batch's), or undefined when another node
   * announces it (with a queue, exactly one Node-RED does).
   */
  finish(summary: BatchProgress): Promise<BatchProgress | undefined>;

  /** Writes what is pending; the state stays for the node's next start. */
  close(): Promise<void>;
  /** The node was deleted: nothing of its state stays. */
  remove(): Promise<void>;
}
