import type { ErrorContext } from "./errors";
import { WaitQueue, type WaitOptions } from "./wait-queue";

/**
 * At most `limit` long operations (profile starts, cloud-phone power-ons) in flight at once, the
 * others waiting in arrival order; 0 = no limit.
 */
export class ConcurrencyLimit {
  private running = 0;
  private readonly queue: WaitQueue;

  constructor(
    private readonly limit: number,
    closed: AbortSignal,
  ) {
    this.queue = new WaitQueue(closed, "a free place among the starts in progress", "start");
  }

  /** Resolves with the function that gives the place back; at once when one is free. */
  async acquire(options: WaitOptions, context?: ErrorContext): Promise<() => void> {
    if (this.limit > 0) {
      // A place given back goes straight to the first waiter, so `running` counts it already.
      if (this.running < this.limit && this.queue.length === 0) this.running++;
      else await this.queue.wait(options, false, context);
    }
    let released = false;
    return () => {
      if (released || this.limit <= 0) return;
      released = true;
      if (!this.queue.releaseFirst()) this.running--;
    };
  }
}
