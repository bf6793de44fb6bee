import { setMaxListeners } from "node:events";
import { MoreLoginAbortError, cancellationError, type ErrorContext } from "./errors";

/**
 * What a waiting call waits for: its turn under the requests per minute, a place among the starts in
 * progress (`concurrency`), or a free profile, phone or cloud browser under the config node's cap.
 */
export type WaitReason = "turn" | "start" | "profile" | "phone" | "cloudBrowser";

/** A start waiting on the API's pace: when the next start may go, as the pace stands now. */
export interface PacedStart {
  nextStartInMs(): number;
}

/** How a call waits: the caller's signal, and who hears that it waits and why (the node's "3 queued"). */
export interface WaitOptions {
  signal?: AbortSignal;
  /** `paced` is given when a start waits on the API's pace (not on a cap or the start limit). */
  onQueued?: (queued: boolean, reason: WaitReason, paced?: PacedStart) => void;
}

interface Waiter<T> {
  resolve: () => void;
  reject: (error: Error) => void;
  options: WaitOptions;
  detach: () => void;
  /** Waits ahead of the others: a call the API refused keeps its turn. */
  first: boolean;
  /** What the queue's owner keeps about this waiter (the profile a start is for). */
  tag: T | undefined;
  /** Given when a start waits on the API's pace: told again when it leaves, so the waiting count comes down. */
  paced: PacedStart | undefined;
}

/**
 * Calls waiting for their turn, first come first served. A waiter leaves when it is let through, when
 * its caller's signal fires, or when the client closes: each way exactly once.
 */
export class WaitQueue<T = undefined> {
  private readonly waiters: Waiter<T>[] = [];

  constructor(
    private readonly closed: AbortSignal,
    /** Says what the call was waiting for, in the error of a cancelled wait. */
    private readonly waitingFor: string,
    /** Tells the waiting call's `onQueued` what it waits for. */
    private readonly reason: WaitReason,
  ) {
    setMaxListeners(0, closed);
  }

  get length(): number {
    return this.waiters.length;
  }

  /** Waits behind the others, or in front of them (a call the API refused keeps its turn). */
  wait(options: WaitOptions, first = false, context: ErrorContext = {}, tag?: T, paced?: PacedStart): Promise<void> {
    const { signal } = options;
    const where: ErrorContext = { api: context.api, method: context.method, path: context.path, notSent: true };
    const cancelled = (aborted: AbortSignal): Error => cancellationError(aborted, where, `the call was cancelled while it waited for ${this.waitingFor}`);
    if (this.closed.aborted) return Promise.reject(this.closedError(where));
    if (signal?.aborted) return Promise.reject(cancelled(signal));
    return new Promise<void>((resolve, reject) => {
      const onClosed = (): void => this.leave(waiter, this.closedError(where));
      const onAbort = (): void => {
        if (signal) this.leave(waiter, cancelled(signal));
      };
      const waiter: Waiter<T> = {
        resolve,
        reject,
        options,
        first,
        tag,
        paced,
        detach: () => {
          this.closed.removeEventListener("abort", onClosed);
          signal?.removeEventListener("abort", onAbort);
        },
      };
      this.closed.addEventListener("abort", onClosed, { once: true });
      signal?.addEventListener("abort", onAbort, { once: true });
      // Refused calls go back in the order they were refused, ahead of every call not yet sent.
      const ahead = first ? this.waiters.findIndex((other) => !other.first) : -1;
      if (ahead === -1) this.waiters.push(waiter);
      else this.waiters.splice(ahead, 0, waiter);
      options.onQueued?.(true, this.reason, paced);
    });
  }

  /** The tag of the first waiter, the one `releaseFirst` lets through next. */
  peekFirst(): T | undefined {
    return this.waiters[0]?.tag;
  }

  /** Lets the first waiter through; false when nobody waits. */
  releaseFirst(): boolean {
    const waiter = this.waiters.shift();
    if (!waiter) return false;
    waiter.detach();
    waiter.options.onQueued?.(false, this.reason, waiter.paced);
    waiter.resolve();
    return true;
  }

  private leave(waiter: Waiter<T>, error: Error): void {
    const index = this.waiters.indexOf(waiter);
    if (index === -1) return;
    this.waiters.splice(index, 1);
    waiter.detach();
    waiter.options.onQueued?.(false, this.reason, waiter.paced);
    waiter.reject(error);
  }

  private closedError(where: ErrorContext): MoreLoginAbortError {
    return new MoreLoginAbortError(`the MoreLogin client was closed while the call waited for ${this.waitingFor}`, where);
  }
}
