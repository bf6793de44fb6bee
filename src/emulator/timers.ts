/** Node's setTimeout fires at once past this many ms; longer waits are chained. */
const MAX_DELAY_MS = 2_147_483_647;

interface Scheduled {
  due: number;
  order: number;
  callback: () => void;
}

/**
 * Delays that close() can cancel, so the emulator never leaves a timer behind. With `manual`, the
 * state changes that follow time (after()) wait for advance() instead of the wall clock; sleep()
 * (latency, start delay) stays on the wall clock so requests are never held.
 */
export class Timers {
  private readonly pending = new Set<NodeJS.Timeout>();
  private readonly scheduled = new Set<Scheduled>();
  private now = 0;
  private nextOrder = 0;

  constructor(private readonly manual = false) {}

  sleep(ms: number): Promise<void> {
    if (ms <= 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.pending.delete(timer);
        resolve();
      }, ms);
      this.pending.add(timer);
    });
  }

  /**
   * Runs `callback` after `ms` (at the earliest on the next turn, even for 0), unless the returned
   * function cancels it first or clearAll() runs. The callback must not throw.
   */
  after(ms: number, callback: () => void): () => void {
    if (this.manual) return this.afterManual(ms, callback);
    let current: NodeJS.Timeout | undefined;
    const schedule = (remaining: number): void => {
      const step = Math.min(Math.max(0, remaining), MAX_DELAY_MS);
      const timer = setTimeout(() => {
        this.pending.delete(timer);
        current = undefined;
        if (remaining > step) schedule(remaining - step);
        else callback();
      }, step);
      current = timer;
      this.pending.add(timer);
    };
    schedule(ms);
    return () => {
      if (current === undefined) return;
      clearTimeout(current);
      this.pending.delete(current);
      current = undefined;
    };
  }

  /** With `manual`: moves the clock forward by `ms`, running in order every after() callback that comes due. */
  advance(ms: number): void {
    if (!this.manual) throw new Error("the emulator's clock is the wall clock: start it with manualClock to advance it");
    const until = this.now + ms;
    for (;;) {
      let next: Scheduled | undefined;
      for (const entry of this.scheduled) if (entry.due <= until && (!next || entry.due < next.due || (entry.due === next.due && entry.order < next.order))) next = entry;
      if (!next) break;
      this.scheduled.delete(next);
      this.now = Math.max(this.now, next.due);
      next.callback();
    }
    this.now = until;
  }

  /** Cancels every pending delay; the awaiting code simply never resumes. */
  clearAll(): void {
    for (const timer of this.pending) clearTimeout(timer);
    this.pending.clear();
    this.scheduled.clear();
  }

  private afterManual(ms: number, callback: () => void): () => void {
    const entry: Scheduled = { due: this.now + Math.max(0, ms), order: this.nextOrder++, callback };
    this.scheduled.add(entry);
    return () => {
      this.scheduled.delete(entry);
    };
  }
}
