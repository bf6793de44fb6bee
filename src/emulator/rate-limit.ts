const WINDOW_MS = 60_000;

/** A fixed one-minute window: at most `perMinute` requests; the window starts with its first request. */
export class RateLimiter {
  private windowStart = 0;
  private used = 0;

  constructor(private perMinute = 0) {}

  setLimit(perMinute: number | undefined): void {
    this.perMinute = perMinute && perMinute > 0 ? perMinute : 0;
    this.used = 0;
    this.windowStart = 0;
  }

  /** Returns undefined when allowed, else the seconds until the window resets (at least 1). */
  take(now = Date.now()): number | undefined {
    if (this.perMinute <= 0) return undefined;
    if (now - this.windowStart >= WINDOW_MS) {
      this.windowStart = now;
      this.used = 0;
    }
    if (this.used < this.perMinute) {
      this.used++;
      return undefined;
    }
    return Math.max(1, Math.ceil((this.windowStart + WINDOW_MS - now) / 1000));
  }
}
