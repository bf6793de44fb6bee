import { asError } from "../client";
import { Journal } from "../journal";
import { itemIdOf } from "./items";
import { NO_COUNTS, type LedgerCounts } from "./ledger";
import { apply, change, emptyState, snapshotOf, type BatchRecord, type BatchState } from "./records";
import type { BatchFailure, BatchHeader, BatchInterruption, BatchProgress, QueuedList } from "./types";
import type { BatchWork, DroppedList, Ending, TakenItem } from "./work";

/**
 * A journal is compacted once it is this big and this many times what is live in it (the lists, the
 * ledger): the snapshot's cost, spread over the changes written since the last one, stays a fraction of theirs.
 */
const COMPACT_MIN_BYTES = 1024 * 1024;
const COMPACT_WHEN_LIVE_TIMES = 4;
/** When a batch ends, its list goes: a journal past this size is compacted then. */
const COMPACT_AT_END_BYTES = 64 * 1024;

export interface LocalWorkOptions {
  /** Items out when the node last stopped (or crashed) are sent again as a new attempt, instead of counted interrupted. */
  resend: boolean;
  /** A write that failed after the call that made it had returned (the runner is told through it). */
  onError(error: Error): void;
  /** When the journal is new: a batch kept elsewhere before (a 0.4 context store), taken over once. */
  takeOver?(): Promise<BatchState | undefined>;
}

/**
 * A batch node's state and work on this machine, in a journal of its own (see src/journal): every change
 * is appended as it happens; an item is on disk as out before the runner sends it.
 */
export class LocalBatchWork implements BatchWork {
  /** About how many bytes of the journal are live (the lists, the ledger), to know when compacting pays. */
  private live: number;
  private failed = false;

  private constructor(
    private readonly journal: Journal<BatchRecord>,
    private readonly state: BatchState,
    private readonly options: LocalWorkOptions,
  ) {
    this.live = journal.bytes;
  }

  /** Opens the journal at `file` (a JournalUnreadableError when it cannot be read: the file is kept aside). */
  static async open(file: string, options: LocalWorkOptions): Promise<LocalBatchWork> {
    const { journal, records } = await Journal.open<BatchRecord>(file);
    const state = emptyState();
    for (const record of records) apply(state, record);
    const work = new LocalBatchWork(journal, state, options);
    if (records.length === 0 && options.takeOver) {
      const taken = await options.takeOver();
      if (taken) {
        Object.assign(state, taken);
        await journal.compact([snapshotOf(state)]);
        work.live = journal.bytes;
      }
    }
    await work.afterRestart();
    return work;
  }

  /** What the file holds now: for the bench and the docs. */
  get journalStats(): Journal<BatchRecord>["stats"] & { bytes: number } {
    return { ...this.journal.stats, bytes: this.journal.bytes };
  }

  current(): BatchHeader | undefined {
    return this.state.batch?.header;
  }

  waiting(): readonly QueuedList[] {
    return this.state.waiting;
  }

  last(): BatchProgress | undefined {
    return this.state.last;
  }

  counts(): LedgerCounts {
    return this.state.batch?.ledger.count() ?? NO_COUNTS;
  }

  runningHere(): number {
    return this.counts().running;
  }

  workers(): undefined {
    return undefined;
  }

  trouble(): undefined {
    return undefined;
  }

  failures(): readonly BatchFailure[] {
    return this.state.batch?.failures ?? [];
  }

  interruptions(): readonly BatchInterruption[] {
    const batch = this.state.batch;
    if (!batch || batch.ledger.count().interrupted === 0) return [];
    return batch.ledger.indexesOf("interrupted").map((index) => ({ id: itemIdOfIndex(batch.items, index), attempt: batch.ledger.attemptOf(index) }));
  }

  workedTwice(): undefined {
    return undefined;
  }

  isOut(index: number, attempt: number): boolean {
    const ledger = this.state.batch?.ledger;
    return ledger !== undefined && Number.isInteger(index) && index >= 0 && index < ledger.total && ledger.stateOf(index) === "out" && ledger.attemptOf(index) === attempt;
  }

  async add(list: QueuedList): Promise<void> {
    const before = this.journal.bytes;
    const durable = this.journal.append({ t: "list", list });
    this.state.waiting.push(list);
    this.live += this.journal.bytes - before;
    await durable;
  }

  async startNext(startedAt: string): Promise<BatchHeader | undefined> {
    if (this.state.batch || this.state.waiting.length === 0) return undefined;
    this.write({ t: "begin", startedAt });
    return this.current();
  }

  async take(count: number): Promise<TakenItem[]> {
    const batch = this.state.batch;
    if (!batch) return [];
    const taken: TakenItem[] = [];
    const records: BatchRecord[] = [];
    while (taken.length < count) {
      const index = batch.ledger.next();
      if (index === undefined) break;
      const attempt = batch.ledger.attemptOf(index);
      batch.ledger.set(index, "out", attempt);
      records.push(change(index, "out", attempt));
      taken.push({ index, attempt, item: batch.items[index] });
    }
    if (records.length > 0) await this.journal.append(...records);
    this.compactSoon();
    return taken;
  }

  async settle(index: number, attempt: number, ending: Ending): Promise<void> {
    const batch = this.state.batch;
    if (!batch || !this.isOut(index, attempt)) return;
    if (ending.state === "retry") {
      this.write(change(index, "retry", attempt + 1));
    } else {
      this.write(change(index, ending.state, attempt));
      if (ending.state !== "done") this.write({ t: "fail", failure: { id: itemIdOfIndex(batch.items, index), attempt, error: ending.error } });
    }
    this.compactSoon();
  }

  async pause(paused: boolean): Promise<void> {
    const header = this.state.batch?.header;
    if (header) this.write({ t: "flags", paused, cancelled: header.cancelled });
  }

  async cancelCurrent(): Promise<void> {
    const batch = this.state.batch;
    if (!batch) return;
    this.write({ t: "flags", paused: batch.header.paused, cancelled: true });
  }

  async dropWaiting(id?: string): Promise<DroppedList[]> {
    const dropped = this.state.waiting.filter((list) => id === undefined || list.id === id);
    for (const list of dropped) this.write({ t: "drop", id: list.id });
    return dropped.map((list) => ({ id: list.id, total: list.items.length }));
  }

  async finish(summary: BatchProgress): Promise<BatchProgress> {
    const durable = this.journal.append({ t: "end", summary });
    apply(this.state, { t: "end", summary });
    await durable;
    if (this.journal.bytes > COMPACT_AT_END_BYTES) await this.compact();
    return summary;
  }

  close(): Promise<void> {
    return this.journal.close();
  }

  remove(): Promise<void> {
    return this.journal.remove();
  }

  /** Items out when the node last stopped are interrupted, or (with `resend`) wait to be sent again. */
  private async afterRestart(): Promise<void> {
    const batch = this.state.batch;
    if (!batch) return;
    const records = batch.ledger.indexesOf("out").map((index) => {
      const attempt = batch.ledger.attemptOf(index);
      return this.options.resend ? change(index, "waiting", attempt + 1) : change(index, "interrupted", attempt);
    });
    for (const record of records) apply(this.state, record);
    if (records.length > 0) await this.journal.append(...records);
  }

  /**
   * Applies a record in memory and appends it, to go with the next group commit (the next item out waits
   * for it); a failed write reaches `onError` through the next append that is awaited.
   */
  private write(record: BatchRecord): void {
    apply(this.state, record);
    this.journal.appendLater(record);
  }

  private report(error: unknown): void {
    if (this.failed) return;
    this.failed = true;
    this.options.onError(asError(error));
  }

  private compactSoon(): void {
    if (this.journal.bytes > Math.max(COMPACT_MIN_BYTES, COMPACT_WHEN_LIVE_TIMES * this.live)) void this.compact().catch(() => undefined);
  }

  private async compact(): Promise<void> {
    const compacted = this.journal.compact([snapshotOf(this.state)]);
    this.live = this.journal.bytes;
    await compacted.catch((error: unknown) => this.report(error));
  }
}

function itemIdOfIndex(items: unknown[], index: number): string {
  return itemIdOf(items[index], index);
}
