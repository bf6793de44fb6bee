import { WINDOW_MS } from "./request-window";

/**
 * What a request is to the pace of its API: a release (a close, a power-off) frees what a start took
 * and goes first; a start (a profile start, a power-on) leaves something that needs a release later;
 * any other call is neither.
 */
export type PaceRole = "release" | "start" | "other";

/**
 * The bucket fills at the budget per minute. The window counts an answer a little longer (until 60 s
 * after the end of its second), so in a long run the window has the last word; the bucket keeps
 * starts from bunching up within it.
 */
const SPREAD_MS = WINDOW_MS;
/** Starts that may go at once before the pace spreads them: this many seconds of the API's budget. */
const BURST_SECONDS = 5;

/**
 * Spreads starts over the minute and keeps the budget their releases will need.
 *
 * Each start reserves the release it will need: the reservation counts against the window until that
 * release is sent or 60 s have passed (a profile closed elsewhere, or kept open longer, does not hold
 * the budget for ever). Other calls and starts leave room in the window for the reserved releases.
 *
 * Starts draw from a bucket that fills at the API's budget per minute, spread over the window, two
 * tokens for each start (itself and its release): a long run of starts flows at the rate the budget
 * allows instead of spending the minute in a burst and then waiting for the rest of it. The bucket
 * holds a few seconds' worth, so a handful of starts still go at once, and never more than the window
 * has room for. Releases and other calls do not draw from it: only the window limits them.
 */
export class StartPace {
  /** Whether a start reserves its release: only when the budget has room for both. */
  private readonly reserves: boolean;
  private readonly cost: number;
  private readonly capacity: number;
  private readonly tokensPerMs: number;
  private tokens: number;
  private filledAt: number;
  /** When each reservation lapses, oldest first. */
  private readonly reservations: number[] = [];

  constructor(
    private readonly perMinute: number,
    private readonly now: () => number,
  ) {
    this.reserves = perMinute >= 2;
    this.cost = this.reserves ? 2 : 1;
    this.capacity = Math.max(this.cost, Math.ceil((perMinute * BURST_SECONDS * 1_000) / SPREAD_MS));
    this.tokensPerMs = perMinute / SPREAD_MS;
    this.tokens = this.capacity;
    this.filledAt = now();
  }

  /** Releases reserved by starts and not yet sent. */
  reserved(): number {
    const now = this.now();
    while ((this.reservations[0] ?? Number.POSITIVE_INFINITY) <= now) this.reservations.shift();
    return this.reservations.length;
  }

  /** Whether a call of `role` may go now, with `used` requests counting in the window. */
  mayPass(role: PaceRole, used: number): boolean {
    if (role === "release") return used < this.perMinute;
    const room = this.perMinute - used - this.reserved();
    if (role === "other") return room >= 1;
    // What the window cannot take now is not saved up: after a wait on the window the starts flow on
    // at the bucket's pace instead of bursting into the room the next expiries make.
    this.tokens = Math.max(0, Math.min(this.fill(), room));
    return room >= this.cost && this.tokens >= this.cost;
  }

  /** Whether a start could go now, leaving the bucket as it is (for a status, which must not change the pace). */
  startFits(used: number): boolean {
    const room = this.perMinute - used - this.reserved();
    return room >= this.cost && Math.min(this.fill(), room) >= this.cost;
  }

  /** A call of `role` was let through. */
  passed(role: PaceRole): void {
    if (role === "release") {
      this.reservations.shift();
      return;
    }
    if (role !== "start") return;
    this.tokens = this.fill() - this.cost;
    if (this.reserves) this.reservations.push(this.now() + WINDOW_MS);
  }

  /**
   * When a start may have its tokens, or a reservation lapses: the next moment worth looking again
   * (the window's own expiries are the gate's to add). Undefined when neither is ahead.
   */
  nextChange(): number | undefined {
    const now = this.now();
    this.reserved();
    const lapse = this.reservations[0];
    const missing = this.cost - this.fill();
    const tokensAt = missing > 0 ? now + Math.ceil(missing / this.tokensPerMs) : undefined;
    if (tokensAt === undefined) return lapse;
    return lapse === undefined ? tokensAt : Math.min(lapse, tokensAt);
  }

  /** Milliseconds until the bucket holds a start's tokens (0 when it does). */
  tokensInMs(): number {
    const missing = this.cost - this.fill();
    return missing > 0 ? Math.ceil(missing / this.tokensPerMs) : 0;
  }

  private fill(): number {
    const now = this.now();
    if (now > this.filledAt) {
      this.tokens = Math.min(this.capacity, this.tokens + (now - this.filledAt) * this.tokensPerMs);
      this.filledAt = now;
    }
    return this.tokens;
  }
}
