/**
 * Moves `Date.now` forward on demand while real time keeps running, so a test can step past the
 * client's 60-second pacing window without waiting for it. Install it before constructing what reads
 * the clock: ApiGate and RequestWindow keep the `Date.now` they were given. `new Date()` is left alone.
 */
export interface ShiftedClock {
  /** Moves the clock forward by `ms`. */
  advance(ms: number): void;
  /** Puts the real `Date.now` back. */
  restore(): void;
}

export function shiftClock(): ShiftedClock {
  const realNow = Date.now;
  let offset = 0;
  Date.now = () => realNow() + offset;
  return {
    advance: (ms) => {
      offset += ms;
    },
    restore: () => {
      Date.now = realNow;
    },
  };
}
