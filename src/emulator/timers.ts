/** Node's setTimeout fires at once past this many ms; longer waits are chained. */
const MAX_DELAY_MS = 2_147_483_647;

/** Delays that close() can cancel, so the emulator never leaves a timer behind. */
export class Timers {
  private readonly pending = new Set<NodeJS.Timeout>();

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

  /** Cancels every pending delay; the awaiting code simply never resumes. */
  clearAll(): void {
    for (const timer of this.pending) clearTimeout(timer);
    this.pending.clear();
  }
}
