import { RequestWindow } from "./request-window";
import type { ErrorContext } from "./errors";
import { StartPace, type PaceRole } from "./start-pace";
import { WaitQueue, type WaitOptions } from "./wait-queue";

/**
 * The way to one API: at most `perMinute` requests in any 60 seconds (0 = no pacing), and nothing at
 * all while the API has asked us to wait (a rate-limit reply). Waiting releases (closes, power-offs) go
 * first; the other waiting calls go in arrival order, starts spread over the minute with the budget
 * kept for their releases (see StartPace).
 */
export class ApiGate {
  private readonly window: RequestWindow;
  private readonly pace: StartPace | undefined;
  private readonly releases: WaitQueue;
  private readonly others: WaitQueue<PaceRole>;
  private holdUntil = 0;
  private timer: NodeJS.Timeout | undefined;
  private timerAt = 0;

  constructor(
    private readonly perMinute: number,
    closed: AbortSignal,
    private readonly now: () => number = Date.now,
  ) {
    this.window = new RequestWindow(now);
    this.pace = perMinute > 0 ? new StartPace(perMinute, now) : undefined;
    this.releases = new WaitQueue(closed, "its turn under the rate limit", "turn");
    this.others = new WaitQueue<PaceRole>(closed, "its turn under the rate limit", "turn");
    closed.addEventListener("abort", () => this.stopTimer(), { once: true });
  }

  /** The requests per minute this gate lets through (0 = no pacing). */
  get requestsPerMinute(): number {
    return this.perMinute;
  }

  /**
   * Resolves when the call may be sent, or returns undefined when it may be sent at once. The caller
   * must call `leave()` once the request is answered or failed.
   */
  enter(options: WaitOptions, first = false, context?: ErrorContext, role: PaceRole = "other"): Promise<void> | undefined {
    const ahead = role === "release" ? this.releases.length : this.releases.length + this.others.length;
    if (ahead === 0 && this.mayPass(role)) {
      this.pass(role);
      return undefined;
    }
    const paced = role === "start" ? { nextStartInMs: () => this.nextStartInMs() } : undefined;
    const waiting = role === "release" ? this.releases.wait(options, first, context, undefined, paced) : this.others.wait(options, first, context, role, paced);
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

  /** About how long until the next waiting start may go (the editor's "paced: next start in 12 s"). */
  nextStartInMs(): number {
    const now = this.now();
    if (now < this.holdUntil) return this.holdUntil - now;
    if (!this.pace) return 0;
    const tokens = this.pace.tokensInMs();
    if (this.pace.startFits(this.window.used()) || tokens > 0) return tokens;
    return Math.max(0, (this.window.nextExpiry() ?? now) - now);
  }

  private mayPass(role: PaceRole): boolean {
    if (this.now() < this.holdUntil) return false;
    return this.pace === undefined || this.pace.mayPass(role, this.window.used());
  }

  /** A call let through counts at once, before its own code runs, so the next check sees it. */
  private pass(role: PaceRole): void {
    this.window.begin();
    this.pace?.passed(role);
  }

  /** Lets waiting calls through while they may pass, releases first; otherwise wakes up when the next one may. */
  private pump(): void {
    for (;;) {
      if (this.releases.length > 0 && this.mayPass("release")) {
        if (this.releases.releaseFirst()) this.pass("release");
        continue;
      }
      const role = this.others.peekFirst();
      if (role === undefined || this.releases.length > 0 || !this.mayPass(role)) break;
      if (this.others.releaseFirst()) this.pass(role);
    }
    if (this.releases.length === 0 && this.others.length === 0) return;
    const now = this.now();
    const wakeAt = now < this.holdUntil ? this.holdUntil : earliest(this.window.nextExpiry(), this.pace?.nextChange());
    // With nothing left to expire or fill up, the next free place comes from a call in flight: its
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

function earliest(a: number | undefined, b: number | undefined): number | undefined {
  if (a === undefined) return b;
  return b === undefined ? a : Math.min(a, b);
}
