import { MoreLoginError, MoreLoginTimeoutError, cancellationError, type ErrorContext } from "./errors";
import { sleep } from "./retry";

export interface PollOptions<T> {
  /** How long to keep asking, in all, from the first ask. */
  timeoutMs: number;
  signal?: AbortSignal;
  /** The pause before the second ask; each pause is half as long again as the one before, up to `maxDelayMs`. */
  firstDelayMs?: number;
  maxDelayMs?: number;
  /** True when the answer is the state waited for. */
  reached: (value: T) => boolean;
  /** The reason to stop waiting at once (the operation failed on MoreLogin's side), or undefined. */
  failed?: (value: T) => string | undefined;
  /** What was waited for and the last state seen: the text of the timeout error. */
  describe: (last: T | undefined) => string;
  context?: ErrorContext;
}

export const POLL_FIRST_DELAY_MS = 1_000;
export const POLL_MAX_DELAY_MS = 5_000;

/**
 * Asks `read` until its answer is the state waited for, backing off from 1 s to 5 s: accepted is not
 * finished for MoreLogin's long operations, and this is how a node waits for the end. `read` gets the
 * time left, to bound its own call. Fails with kind `timeout`, naming the last state seen, when
 * `timeoutMs` runs out; with kind `api` when `failed` names a reason; at once when the signal fires.
 */
export async function pollUntil<T>(read: (timeLeftMs: number) => Promise<T>, options: PollOptions<T>): Promise<T> {
  const deadline = Date.now() + options.timeoutMs;
  const maxDelay = options.maxDelayMs ?? POLL_MAX_DELAY_MS;
  let delay = options.firstDelayMs ?? POLL_FIRST_DELAY_MS;
  let last: T | undefined;
  const timedOut = (): MoreLoginTimeoutError => new MoreLoginTimeoutError(options.describe(last), { ...options.context });
  for (;;) {
    try {
      last = await read(Math.max(1, deadline - Date.now()));
    } catch (error) {
      if (error instanceof MoreLoginError && error.kind === "timeout" && Date.now() >= deadline) throw timedOut();
      throw error;
    }
    if (options.reached(last)) return last;
    const failure = options.failed?.(last);
    if (failure !== undefined) throw new MoreLoginError("api", failure, { ...options.context });
    const left = deadline - Date.now();
    if (left <= 0) throw timedOut();
    try {
      await sleep(Math.min(delay, left), options.signal);
    } catch {
      throw options.signal ? cancellationError(options.signal, { ...options.context }, "the wait was cancelled") : timedOut();
    }
    delay = Math.min(maxDelay, Math.round(delay * 1.5));
  }
}
