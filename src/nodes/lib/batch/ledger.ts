/**
 * Where each item of a batch stands, kept small enough for 100,000 items: one byte per item in memory,
 * and on the way to the context store a checkpoint (one character per item) plus a journal of the changes
 * since it. Recording an item's change appends three numbers to the journal; the checkpoint is rewritten
 * only when the journal has grown to a share of the list, so the cost per item stays flat as lists grow.
 * Plain TypeScript: no Node-RED here.
 */

export const ITEM_STATES = ["waiting", "out", "done", "failed", "timedOut", "interrupted", "cancelled", "retry"] as const;
export type ItemState = (typeof ITEM_STATES)[number];

/** The counts `progress` and `done` report; the first five add up to the total once nothing runs or waits. */
export interface LedgerCounts {
  done: number;
  failed: number;
  timedOut: number;
  interrupted: number;
  cancelled: number;
  running: number;
  waiting: number;
}

/** What the context store keeps of a ledger (JSON-safe). */
export interface LedgerRecord {
  /** One character per item: the index of its state in ITEM_STATES. */
  checkpoint: string;
  /** Attempts already made, for items past their first (sparse: index → attempt). */
  attempts: Record<string, number>;
  /** Changes since the checkpoint: index, state, attempt, index, state, attempt, ... */
  journal: number[];
}

const CODE: Record<ItemState, number> = Object.fromEntries(ITEM_STATES.map((state, code) => [state, code])) as Record<ItemState, number>;
/** The journal is folded into a new checkpoint once it holds this many changes, or a quarter of the list. */
const MIN_JOURNAL_CHANGES = 1024;

export class Ledger {
  private readonly states: Uint8Array;
  private readonly attempts = new Map<number, number>();
  private journal: number[] = [];
  private checkpoint: string;
  private readonly counts = new Uint32Array(ITEM_STATES.length);
  /** The first pass goes through the list in order; failed items wait behind it in `retries`. */
  private cursor = 0;
  private readonly retries: number[] = [];
  private retryHead = 0;

  private constructor(
    readonly total: number,
    record?: LedgerRecord,
  ) {
    this.states = new Uint8Array(total);
    this.checkpoint = record?.checkpoint ?? "0".repeat(total);
    for (let index = 0; index < total; index++) {
      const code = this.checkpoint.charCodeAt(index) - 48;
      this.states[index] = code >= 0 && code < ITEM_STATES.length ? code : 0;
    }
    for (const [index, attempt] of Object.entries(record?.attempts ?? {})) this.attempts.set(Number(index), attempt);
    const journal = record?.journal ?? [];
    for (let at = 0; at + 2 < journal.length; at += 3) {
      const index = journal[at] as number;
      if (index < 0 || index >= total) continue;
      this.states[index] = journal[at + 1] as number;
      this.setAttempt(index, journal[at + 2] as number);
    }
    this.journal = journal.slice();
    for (let index = 0; index < total; index++) this.counts[this.states[index] as number] = (this.counts[this.states[index] as number] ?? 0) + 1;
    for (let index = 0; index < total; index++) if (this.states[index] === CODE.retry) this.retries.push(index);
  }

  static fresh(total: number): Ledger {
    return new Ledger(total);
  }

  static restore(total: number, record: LedgerRecord): Ledger {
    return new Ledger(total, record);
  }

  stateOf(index: number): ItemState {
    return ITEM_STATES[this.states[index] ?? 0] ?? "waiting";
  }

  attemptOf(index: number): number {
    return this.attempts.get(index) ?? 1;
  }

  /** Changes one item's state (and its attempt), in memory and in the journal. */
  set(index: number, state: ItemState, attempt = this.attemptOf(index)): void {
    const before = this.states[index] as number;
    this.counts[before] = (this.counts[before] ?? 1) - 1;
    this.states[index] = CODE[state];
    this.counts[CODE[state]] = (this.counts[CODE[state]] ?? 0) + 1;
    this.setAttempt(index, attempt);
    if (state === "retry") this.retries.push(index);
    this.journal.push(index, CODE[state], attempt);
  }

  /** The next item to send (first pass in order, then the retries), or undefined. */
  next(): number | undefined {
    while (this.cursor < this.total) {
      const index = this.cursor++;
      if (this.states[index] === CODE.waiting) return index;
    }
    while (this.retryHead < this.retries.length) {
      const index = this.retries[this.retryHead++] as number;
      if (this.states[index] === CODE.retry) {
        this.compactRetries();
        return index;
      }
    }
    return undefined;
  }

  /** Every item with `from` state gets `to`; returns their indexes (used once per restart or cancel). */
  moveAll(from: ItemState, to: ItemState, nextAttempt = false): number[] {
    const moved: number[] = [];
    for (let index = 0; index < this.total; index++) {
      if (this.states[index] !== CODE[from]) continue;
      this.set(index, to, this.attemptOf(index) + (nextAttempt ? 1 : 0));
      moved.push(index);
    }
    if (to === "waiting") this.cursor = 0;
    return moved;
  }

  count(): LedgerCounts {
    const of = (state: ItemState): number => this.counts[CODE[state]] ?? 0;
    return {
      done: of("done"),
      failed: of("failed"),
      timedOut: of("timedOut"),
      interrupted: of("interrupted"),
      cancelled: of("cancelled"),
      running: of("out"),
      waiting: of("waiting") + of("retry"),
    };
  }

  /** Whether the journal should be folded into a new checkpoint before the record is stored. */
  get journalFull(): boolean {
    return this.journal.length / 3 >= Math.max(MIN_JOURNAL_CHANGES, this.total / 4);
  }

  /** Folds the journal into a new checkpoint (cost: the list's length, paid once per quarter of it). */
  fold(): void {
    this.checkpoint = Buffer.from(this.states.map((code) => 48 + code)).toString("latin1");
    this.journal = [];
  }

  /** What is stored at a fold: the checkpoint and the attempts (the journal is stored on its own). */
  snapshot(): Omit<LedgerRecord, "journal"> {
    return { checkpoint: this.checkpoint, attempts: Object.fromEntries(this.attempts) };
  }

  /** The journal: the same array after every change until the next fold, so storing it costs no copy. */
  get changes(): number[] {
    return this.journal;
  }

  private setAttempt(index: number, attempt: number): void {
    if (attempt > 1) this.attempts.set(index, attempt);
    else this.attempts.delete(index);
  }

  private compactRetries(): void {
    if (this.retryHead > 1024 && this.retryHead * 2 > this.retries.length) {
      this.retries.splice(0, this.retryHead);
      this.retryHead = 0;
    }
  }
}
