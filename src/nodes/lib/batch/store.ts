import type { LedgerRecord } from "./ledger";

/** The batch's own settings and place, written when it starts and when it is paused, resumed or cancelled. */
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

/** A list that arrived while another batch ran: it waits its turn (in the context too). */
export interface QueuedList {
  items: unknown[];
  origin: Record<string, unknown>;
}

export interface StoredBatch {
  header: BatchHeader;
  items: unknown[];
  ledger: LedgerRecord;
  failures: BatchFailure[];
}

/** The part of Node-RED's context API the batch uses (its callback forms work with every store). */
export interface ContextLike {
  get(key: string, callback: (error: Error | undefined, value: unknown) => void): void;
  set(key: string, value: unknown, callback: (error?: Error) => void): void;
}

const KEY = {
  header: "batch",
  items: "batchItems",
  checkpoint: "batchCheckpoint",
  journal: "batchJournal",
  failures: "batchFailures",
  queue: "batchQueue",
  last: "batchLast",
} as const;

/**
 * The batch in the node's context, one key per part so that what is written after an item (the journal,
 * the failures list: the same arrays each time) never includes the list itself.
 */
export class BatchStore {
  constructor(
    private readonly context: ContextLike,
    private readonly onError: (error: Error) => void,
  ) {}

  async load(): Promise<{ batch?: StoredBatch; queue: QueuedList[]; last?: unknown }> {
    const [header, items, checkpoint, journal, failures, queue, last] = await Promise.all(Object.values(KEY).map((key) => this.read(key)));
    const queued = Array.isArray(queue) ? (queue as QueuedList[]) : [];
    if (!isHeader(header) || !Array.isArray(items) || items.length !== header.total) return { queue: queued, last };
    const point = (checkpoint ?? {}) as Partial<LedgerRecord>;
    const ledger: LedgerRecord = {
      checkpoint: typeof point.checkpoint === "string" ? point.checkpoint : "",
      attempts: point.attempts && typeof point.attempts === "object" ? point.attempts : {},
      journal: Array.isArray(journal) ? (journal as number[]) : [],
    };
    return { batch: { header, items, ledger, failures: Array.isArray(failures) ? (failures as BatchFailure[]) : [] }, queue: queued, last };
  }

  /** A new batch: everything written once. */
  begin(header: BatchHeader, items: unknown[], ledger: LedgerRecord, failures: BatchFailure[]): void {
    this.write(KEY.items, items);
    this.write(KEY.checkpoint, { checkpoint: ledger.checkpoint, attempts: ledger.attempts });
    this.write(KEY.journal, ledger.journal);
    this.write(KEY.failures, failures);
    this.write(KEY.header, header);
  }

  header(header: BatchHeader): void {
    this.write(KEY.header, header);
  }

  /** After an item: the journal (and the failures list when it grew). */
  changed(journal: number[], failures?: BatchFailure[]): void {
    this.write(KEY.journal, journal);
    if (failures) this.write(KEY.failures, failures);
  }

  /** A fold: the new checkpoint and the emptied journal. */
  folded(checkpoint: Omit<LedgerRecord, "journal">, journal: number[]): void {
    this.write(KEY.checkpoint, checkpoint);
    this.write(KEY.journal, journal);
  }

  queue(queue: QueuedList[]): void {
    this.write(KEY.queue, queue);
  }

  /** The batch ended: its summary stays (for the status after a restart), its list goes. */
  finished(summary: unknown): void {
    this.write(KEY.last, summary);
    for (const key of [KEY.header, KEY.items, KEY.checkpoint, KEY.journal, KEY.failures]) this.write(key, undefined);
  }

  /** The node was deleted: nothing of it stays. */
  forget(): void {
    for (const key of Object.values(KEY)) this.write(key, undefined);
  }

  private read(key: string): Promise<unknown> {
    return new Promise((resolve) => {
      this.context.get(key, (error, value) => {
        if (error) this.onError(error);
        resolve(error ? undefined : value);
      });
    });
  }

  private write(key: string, value: unknown): void {
    this.context.set(key, value, (error) => {
      if (error) this.onError(error);
    });
  }
}

function isHeader(value: unknown): value is BatchHeader {
  const header = value as Partial<BatchHeader> | undefined;
  return typeof header?.id === "string" && typeof header.total === "number" && typeof header.startedAt === "string";
}
