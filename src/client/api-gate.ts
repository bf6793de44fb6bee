import { RequestWindow } from "./request-window";
import type { ErrorContext } from "./errors";
import { WaitQueue, type WaitOptions } from "./wait-queue";

/**
 * The way to one API: at most `perMinute` requests in any 60 seconds (0 = no pacing), in arrival
 * order, and nothing at all while the API has asked us to wait (a rate-limit reply).
 */
export class ApiGate {
  private readonly window: RequestWindow;
  private readonly queue: WaitQueue;
  private holdUntil = 0;
  private timer: NodeJS.Timeout | undefined;
  private timerAt = 0;

  constructor(
    private readonly perMinute: number,
    closed: AbortSignal,
    private readonly now: () => number = Date.now,
  ) {
    this.window = new RequestWindow(now);
    this.queue = new WaitQueue(closed, "its turn under the rate limit", "turn");
    closed.addEventListener("abort", () => this.stopTimer(), { once: true });
  }

  /**
   * Resolves when the call may be sent, or returns undefined when it may be sent at once. The caller
   * must call `leave()` once the request is answered or failed.
   */
  enter(options: WaitOptions, first = false, context?: ErrorContext): Promise<void> | undefined {
    if (this.queue.length === 0 && this.mayPass()) {
      this.window.begin();
      return undefined;
    }
    const waiting = this.queue.wait(options, first, context);
    this.pump();
    return waiting;
  }

  leave(): void {
    this.window.end();
    this.pump();
  }

  /**
   * The API refused a call as too frequent: every call to it waits `retryAfterMs` when the API said so,
   * otherwise until the oldest request of the last 60 s stops counting (the refused one counts too,
   * so there always is one), never longer than `maxWaitMs`. Returns the wait.
   */
  refused(retryAfterMs: number | undefined, maxWaitMs: number): number {
    const now = this.now();
    const wanted = retryAfterMs ?? (this.window.nextExpiry() ?? now + maxWaitMs) - now;
    const wait = Math.min(Math.max(0, wanted), maxWaitMs);
    this.holdUntil = Math.max(this.holdUntil, now + wait);
    return wait;
  }

  private mayPass(): boolean {
    if (this.now() < this.holdUntil) return false;
    return this.perMinute <= 0 || this.window.used() < this.perMinute;
  }

  /** Lets waiting calls through while they may pass; otherwise wakes up when the next one may. */
  private pump(): void {
    // A call let through counts at once, before its own code runs, so the next check sees it.
    while (this.queue.length > 0 && this.mayPass()) if (this.queue.releaseFirst()) this.window.begin();
    if (this.queue.length === 0) return;
    const now = this.now();
    const wakeAt = now < this.holdUntil ? this.holdUntil : this.window.nextExpiry();
    // With no answered request left to expire, the next free place comes from a call in flight: its
    // leave() pumps again.
    if (wakeAt !== undefined) this.wakeAt(wakeAt);
  }

  private wakeAt(at: number): void {
    if (this.timer && this.timerAt <= at) return;
    this.stopTimer();
    this.timerAt = at;
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        this.pump();
      },
      Math.max(0, at - this.now()),
    );
  }

  private stopTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
