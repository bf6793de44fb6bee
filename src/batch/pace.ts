/**
 * How fast a batch goes: items ended per minute over the last minute (the whole run until it is a minute
 * old), and from that the time left. A ring of 60 one-second buckets: constant memory and cost per item.
 */
const BUCKETS = 60;
const BUCKET_MS = 1000;

export class Pace {
  private readonly ring = new Uint32Array(BUCKETS);
  /** The second each bucket counts (so a bucket from a minute ago is not read as now). */
  private readonly second = new Float64Array(BUCKETS).fill(-1);

  constructor(
    /** When counting started (this run of the node: a restart starts a new minute). */
    private readonly since: number,
  ) {}

  ended(now: number, count = 1): void {
    const second = Math.floor(now / BUCKET_MS);
    const slot = second % BUCKETS;
    if (this.second[slot] !== second) {
      this.second[slot] = second;
      this.ring[slot] = 0;
    }
    this.ring[slot] = (this.ring[slot] ?? 0) + count;
  }

  /** Items per minute, or 0 before any ended. */
  perMinute(now: number): number {
    const current = Math.floor(now / BUCKET_MS);
    let sum = 0;
    for (let slot = 0; slot < BUCKETS; slot++) {
      const second = this.second[slot] ?? -1;
      if (second > current - BUCKETS && second <= current) sum += this.ring[slot] ?? 0;
    }
    const windowMs = Math.min(BUCKETS * BUCKET_MS, Math.max(BUCKET_MS, now - this.since));
    return (sum * 60_000) / windowMs;
  }

  /** Milliseconds until `left` items have ended at the current pace; null while there is no pace yet. */
  etaMs(left: number, now: number): number | null {
    if (left === 0) return 0;
    const rate = this.perMinute(now);
    return rate > 0 ? Math.round((left / rate) * 60_000) : null;
  }
}
