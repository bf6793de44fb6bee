/** Watching calls from the outside: whether a call has ended yet and how, and when it was queued. */

export interface Tracked<T> {
  /** True once the call has ended: its promise resolved or rejected. */
  readonly ended: boolean;
  readonly value?: T;
  readonly error?: Error;
  /** Resolves (never rejects) once the call has ended. */
  readonly done: Promise<void>;
}

export function track<T>(promise: Promise<T>): Tracked<T> {
  const state: { ended: boolean; value?: T; error?: Error; done?: Promise<void> } = { ended: false };
  state.done = promise.then(
    (value) => {
      state.ended = true;
      state.value = value;
    },
    (error: unknown) => {
      state.ended = true;
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

/** Records what one call's `onQueued` reported, in order. */
export function queuedLog(): { events: boolean[]; onQueued: (queued: boolean) => void } {
  const events: boolean[] = [];
  return { events, onQueued: (queued) => void events.push(queued) };
}
