import type { LedgerCounts } from "./ledger";

/** The text of a key in the runtime's language (Node-RED's `RED._` with the node set's catalog). */
export type Translate = (key: string, values?: Record<string, unknown>) => string;

/** A batch's own settings and place. */
export interface BatchHeader {
  id: string;
  total: number;
  startedAt: string;
  paused: boolean;
  cancelled: boolean;
  /** The properties of the message that started it, copied onto every item message. */
  origin: Record<string, unknown>;
}

export interface BatchFailure {
  id: string;
  attempt: number;
  error: string;
}

/** An item counted interrupted: it was out when its Node-RED stopped (a crash, a restart) or went unheard. */
export interface BatchInterruption {
  id: string;
  attempt: number;
  /** With a queue: the Node-RED that had it out. */
  worker?: string;
}

/** With a queue and `resend`: an item sent to a second Node-RED after the first went unheard for the worker timeout (the first may have worked it too). */
export interface BatchHandover {
  id: string;
  /** The attempt the second Node-RED got. */
  attempt: number;
  from: string;
  to: string;
}

/** A list that arrived while another batch ran: it waits its turn, under the ID its batch will have. */
export interface QueuedList {
  id: string;
  items: unknown[];
  origin: Record<string, unknown>;
}

/** What output 2 carries in `msg.payload`, for `progress` and `done`. */
export interface BatchProgress extends LedgerCounts {
  id: string;
  total: number;
  startedAt: string;
  endedAt: string | null;
  etaMs: number | null;
  perMinute: number;
  /** Items a minute the API budget allows, when the batch goes at that pace (slower than it could); else null. */
  pacedPerMinute: number | null;
  failures: BatchFailure[];
  /** Every item that ended interrupted, named. Absent in summaries kept by versions before 0.5.0. */
  interruptions?: BatchInterruption[];
  /** With a queue: items that went out on two Node-REDs (see BatchHandover). */
  workedTwice?: BatchHandover[];
  /** The IDs of the lists waiting their turn behind this batch (for `cancel` with `msg.batch`). */
  queued?: string[];
  /** With a queue: each Node-RED's share of the batch, by name. */
  workers?: WorkerFigures[];
  /** Why a command did nothing ("nothing to pause"), in the runtime's language; absent otherwise. */
  note?: string;
}

/** The runner's settings (read from the node's properties by the node). */
export interface BatchSettings {
  /** Items out at once. */
  parallel: number;
  /** Extra attempts for a failed item, after the first pass. */
  retries: number;
  /** How long an item may be out before it counts as timed out; 0 = no limit. */
  itemTimeoutMs: number;
  /** After a restart, send the items that were out again (a new attempt) instead of counting them interrupted. */
  resend: boolean;
}

/** One Node-RED's share of a batch worked through a queue. */
export interface WorkerFigures {
  name: string;
  running: number;
  done: number;
  /** Failed or timed out, ended by this worker. */
  failed: number;
  /** In a `done` summary: not heard from for the worker timeout when the batch ended. */
  gone?: boolean;
}
