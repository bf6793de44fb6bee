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

  /** Cancels every pending delay; the awaiting code simply never resumes. */
  clearAll(): void {
    for (const timer of this.pending) clearTimeout(timer);
    this.pending.clear();
  }
}
