/** MoreLogin counts requests per API in 60-second windows. */
export const WINDOW_MS = 60_000;

const SECOND_MS = 1_000;
/** One slot per second of the window, and one for the second that is still running. */
const SLOTS = WINDOW_MS / SECOND_MS + 1;

/**
 * The requests one API has had in the last 60 seconds: those in flight, and those answered, counted
 * per second of their answer. An answered request counts until 60 s after the end of the second it
 * was answered in. That is never earlier than the server stops counting it, since the server counted it
 * before it answered.
 */
export class RequestWindow {
  private readonly counts: number[] = new Array<number>(SLOTS).fill(0);
  private readonly seconds: number[] = new Array<number>(SLOTS).fill(Number.NEGATIVE_INFINITY);
  private inFlight = 0;

  constructor(private readonly now: () => number = Date.now) {}

  begin(): void {
    this.inFlight++;
  }

  end(): void {
    this.inFlight = Math.max(0, this.inFlight - 1);
    const second = Math.floor(this.now() / SECOND_MS);
    const slot = second % SLOTS;
    if (this.seconds[slot] !== second) {
      this.seconds[slot] = second;
      this.counts[slot] = 0;
    }
    this.counts[slot] = (this.counts[slot] ?? 0) + 1;
  }

  /** Requests in flight plus those answered that still count. */
  used(): number {
    const now = this.now();
    let used = this.inFlight;
    for (let slot = 0; slot < SLOTS; slot++) {
      if (expiryOf(this.seconds[slot] ?? Number.NEGATIVE_INFINITY) > now) used += this.counts[slot] ?? 0;
    }
    return used;
  }

  /** When the oldest answered request that still counts stops counting; undefined when none does. */
  nextExpiry(): number | undefined {
    const now = this.now();
    let next: number | undefined;
    for (let slot = 0; slot < SLOTS; slot++) {
      const expiry = expiryOf(this.seconds[slot] ?? Number.NEGATIVE_INFINITY);
      if ((this.counts[slot] ?? 0) > 0 && expiry > now && (next === undefined || expiry < next)) next = expiry;
    }
    return next;
  }
}

function expiryOf(second: number): number {
  return (second + 1) * SECOND_MS + WINDOW_MS;
}
