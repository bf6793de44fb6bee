/**
 * The one way a test waits for a state that comes by itself (a call queued, a status shown, a phone on):
 * it looks again and again until the state is there, never sleeps a guess. Its bound goes through
 * `scaled()` (tools/test-limits.ts), so it stretches with the machine's slowdown as the mocha timeouts do.
 */
import { loadAverage, scaled } from "../../tools/test-limits";

/** The usual bound of a wait: long enough for a slow, busy machine (the tests never measure time), under mocha's 90 s. */
export const OUTCOME_MS = 60_000;

/** What a wait says it waits for; a function is asked only when the wait runs out, so it can tell the state then. */
export type WaitText = string | (() => string);

export interface WaitPace {
  /**
   * The pause between two looks. Without it: 5 ms after a look that answered at once, 20 ms after one that
   * had to be awaited (a request). Longer for a look that costs (a scan of /proc, a command to each Node-RED).
   */
  everyMs?: number;
}

/** How much of the last value seen a timeout's error shows. */
const SHOWN_CHARACTERS = 2_000;

/**
 * Looks at `condition` (synchronous or not) until it holds; fails after `timeoutMs` (scaled) with an error
 * that says what it waited for, how long, and the machine's load average.
 */
export function waitUntil(condition: () => boolean | Promise<boolean>, what: WaitText, timeoutMs?: number, pace?: WaitPace): Promise<void>;
/**
 * Asks `probe` (synchronous or not; a request to the emulator, a page's text) until `accept` holds for its
 * answer, and returns that answer; fails after `timeoutMs` (scaled) with an error that also shows the last answer.
 */
export function waitUntil<T>(probe: () => T | Promise<T>, accept: (value: T) => boolean, what: WaitText, timeoutMs?: number, pace?: WaitPace): Promise<T>;
export async function waitUntil<T>(look: () => T | Promise<T>, ...rest: unknown[]): Promise<T | undefined> {
  // A probe's call has its `what` second (after `accept`); a condition's has its bound there, or nothing.
  const probing = typeof rest[1] === "string" || typeof rest[1] === "function";
  const [accept, what, timeoutMs = OUTCOME_MS, pace = {}] = (probing ? rest : [(holds: T) => Boolean(holds), ...rest]) as [(value: T) => boolean, WaitText, number?, WaitPace?];
  const bound = scaled(timeoutMs);
  // performance.now(), not Date.now(): a test may move Date.now (test/support/clock.ts).
  const started = performance.now();
  for (;;) {
    const answer = look();
    const awaited = answer instanceof Promise;
    const value = awaited ? await answer : (answer as T);
    if (accept(value)) return probing ? value : undefined;
    const waited = performance.now() - started;
    if (waited > bound) throw new Error(timedOut(what, waited, probing ? { value } : undefined));
    await new Promise((resolve) => setTimeout(resolve, pace.everyMs ?? (awaited ? 20 : 5)));
  }
}

function timedOut(what: WaitText, waitedMs: number, last: { value: unknown } | undefined): string {
  const shown = last === undefined ? "" : `; last seen: ${(JSON.stringify(last.value) ?? String(last.value)).slice(0, SHOWN_CHARACTERS)}`;
  return `gave up after ${(waitedMs / 1000).toFixed(1)} s waiting for: ${typeof what === "function" ? what() : what}${shown} (load average ${loadAverage()})`;
}
