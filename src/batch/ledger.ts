/**
 * Where each item of a batch stands, kept small enough for 100,000 items: one byte per item in memory,
 * counts kept as items change (so reading them costs nothing), and a checkpoint of one character per
 * item for a journal's snapshot. Plain TypeScript: no Node-RED here.
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

/** The counts of no batch. */
export const NO_COUNTS: Readonly<LedgerCounts> = { done: 0, failed: 0, timedOut: 0, interrupted: 0, cancelled: 0, running: 0, waiting: 0 };

/** Items that came to an end of their own: done, failed, timed out or interrupted (not cancelled). */
export function endedOf(counts: Pick<LedgerCounts, "done" | "failed" | "timedOut" | "interrupted">): number {
  return counts.done + counts.failed + counts.timedOut + counts.interrupted;
}

export const STATE_CODE: Record<ItemState, number> = Object.fromEntries(ITEM_STATES.map((state, code) => [state, code])) as Record<ItemState, number>;

export class Ledger {
  private readonly states: Uint8Array;
  private readonly attempts = new Map<number, number>();
  private readonly counts = new Uint32Array(ITEM_STATES.length);
  /** The first pass goes through the list in order; failed items wait behind it in `retries`. */
  private cursor = 0;
  private readonly retries: number[] = [];
  private retryHead = 0;

  private constructor(
    readonly total: number,
    checkpoint?: string,
    attempts?: Record<string, number>,
  ) {
    this.states = new Uint8Array(total);
    if (checkpoint !== undefined) {
      for (let index = 0; index < total; index++) {
        const code = checkpoint.charCodeAt(index) - 48;
        this.states[index] = code >= 0 && code < ITEM_STATES.length ? code : 0;
      }
    }
    for (const [index, attempt] of Object.entries(attempts ?? {})) this.setAttempt(Number(index), Number(attempt));
    for (let index = 0; index < total; index++) {
      const code = this.states[index] as number;
      this.counts[code] = (this.counts[code] ?? 0) + 1;
      if (code === STATE_CODE.retry) this.retries.push(index);
    }
  }

  static fresh(total: number): Ledger {
    return new Ledger(total);
  }

  /** A ledger from a checkpoint (one character per item: '0' + its state's code) and the attempts past the first. */
  static fromCheckpoint(total: number, checkpoint: string, attempts: Record<string, number>): Ledger {
    return new Ledger(total, checkpoint, attempts);
  }

  stateOf(index: number): ItemState {
    return ITEM_STATES[this.states[index] ?? 0] ?? "waiting";
  }

  attemptOf(index: number): number {
    return this.attempts.get(index) ?? 1;
  }

  /** Changes one item's state (and its attempt). */
  set(index: number, state: ItemState, attempt = this.attemptOf(index)): void {
    if (index < 0 || index >= this.total) return;
    const before = this.states[index] as number;
    this.counts[before] = (this.counts[before] ?? 1) - 1;
    this.states[index] = STATE_CODE[state];
    this.counts[STATE_CODE[state]] = (this.counts[STATE_CODE[state]] ?? 0) + 1;
    this.setAttempt(index, attempt);
    if (state === "retry") this.retries.push(index);
  }

  /** The next item to send (first pass in order, then the retries), or undefined. */
  next(): number | undefined {
    while (this.cursor < this.total) {
      const index = this.cursor++;
      if (this.states[index] === STATE_CODE.waiting) return index;
    }
    while (this.retryHead < this.retries.length) {
      const index = this.retries[this.retryHead++] as number;
      if (this.states[index] === STATE_CODE.retry) {
        this.compactRetries();
        return index;
      }
    }
    return undefined;
  }

  /** The indexes of the items with `state` (used once per restart or cancel). */
  indexesOf(state: ItemState): number[] {
    const found: number[] = [];
    const code = STATE_CODE[state];
    for (let index = 0; index < this.total; index++) if (this.states[index] === code) found.push(index);
    return found;
  }

  count(): LedgerCounts {
    const of = (state: ItemState): number => this.counts[STATE_CODE[state]] ?? 0;
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

  /** One character per item, for a snapshot (cost: the list's length, paid once per compaction). */
  checkpoint(): string {
    return Buffer.from(this.states.map((code) => 48 + code)).toString("latin1");
  }

  /** The attempts past the first, by index. */
  attemptsPastFirst(): Record<string, number> {
    return Object.fromEntries(this.attempts);
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
