import { setTimeout as wait } from "node:timers/promises";

/** A random number in [min, max). */
export function between(min: number, max: number): number {
  return min + Math.random() * (max - min);
}

/** Waits `ms`, or rejects as soon as the step's signal ends it (its deadline, a redeploy). */
export function pause(ms: number, signal: AbortSignal): Promise<void> {
  return wait(ms, undefined, { signal });
}

/** How often a typist stops for a moment (to think, to look at the keys). */
const THINKING_CHANCE = 0.08;

/** The time from one key going down to the next: anywhere in 50–250 ms, and now and then a longer pause of 0.3–0.9 s. */
export function keyGapMs(): number {
  if (Math.random() < THINKING_CHANCE) return between(300, 900);
  return between(50, 250);
}

/** How long a key or a mouse button is held down. */
export const holdMs = (): number => between(30, 110);

/** The pause between the pointer arriving and the button going down. */
export const settleMs = (): number => between(60, 180);
