const WINDOW_MS = 60_000;

/** At most `perMinute` accepted requests in any 60 s; refused requests are not counted. */
export class RateLimiter {
  /** When each request still inside the window was accepted (epoch ms), oldest first. */
  private accepted: number[] = [];

  constructor(private perMinute = 0) {}

  setLimit(perMinute: number | undefined): void {
    this.perMinute = perMinute && perMinute > 0 ? perMinute : 0;
    this.accepted = [];
  }

  /** Returns undefined when allowed, else the seconds until a request would be (at least 1). */
  take(now = Date.now()): number | undefined {
    if (this.perMinute <= 0) return undefined;
    while (this.accepted.length > 0 && now - (this.accepted[0] ?? now) >= WINDOW_MS) this.accepted.shift();
    const oldest = this.accepted[0];
    if (oldest === undefined || this.accepted.length < this.perMinute) {
      this.accepted.push(now);
      return undefined;
    }
    return Math.max(1, Math.ceil((oldest + WINDOW_MS - now) / 1000));
  }
}
