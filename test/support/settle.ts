/** Watching promises from the outside: whether a call has ended yet, and how. */

/** Long enough for a wait on a slow, busy machine; the tests never measure time. */
export const OUTCOME_MS = 60_000;

export interface Tracked<T> {
  /** True once the promise has resolved or rejected. */
  readonly settled: boolean;
  readonly value?: T;
  readonly error?: Error;
  /** Resolves (never rejects) once the promise has settled. */
  readonly done: Promise<void>;
}

export function track<T>(promise: Promise<T>): Tracked<T> {
  const state: { settled: boolean; value?: T; error?: Error; done?: Promise<void> } = { settled: false };
  state.done = promise.then(
    (value) => {
      state.settled = true;
      state.value = value;
    },
    (error: unknown) => {
      state.settled = true;
      state.error = error instanceof Error ? error : new Error(`rejected with a non-Error: ${String(error)}`);
    },
  );
  return state as Tracked<T>;
}

/** The value of a call that must have succeeded; throws its error otherwise. */
export async function resultOf<T>(tracked: Tracked<T>): Promise<T> {
  await tracked.done;
  if (tracked.error) throw tracked.error;
  return tracked.value as T;
}

/** The error of a call that must have failed. */
export async function errorOf(tracked: Tracked<unknown>): Promise<Error> {
  await tracked.done;
  if (!tracked.error) throw new Error("expected the call to fail, but it succeeded");
  return tracked.error;
}

/**
 * Polls until `condition` holds; fails after `timeoutMs` with `what` in the message. Measures with
 * performance.now(), so a test that moves Date.now (support/clock) does not cut it short.
 */
export async function waitUntil(condition: () => boolean, what: string, timeoutMs = 5_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!condition()) {
    if (performance.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Records what one call's `onQueued` reported, in order. */
export function queuedLog(): { events: boolean[]; onQueued: (queued: boolean) => void } {
  const events: boolean[] = [];
  return { events, onQueued: (queued) => void events.push(queued) };
}

/**
 * Polls an asynchronous probe (e.g. a request to the emulator) until `accept` holds for its value,
 * and returns that value; fails after `timeoutMs` with `what` and the last value seen. For states
 * that come by themselves after some time: wait for them rather than sleeping a guess.
 */
export async function pollUntil<T>(probe: () => Promise<T>, accept: (value: T) => boolean, what: string, timeoutMs = 15_000): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (accept(value)) return value;
    if (performance.now() > deadline) throw new Error(`timed out waiting until ${what}; last seen: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
