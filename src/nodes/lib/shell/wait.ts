import { DEFAULT_TIMEOUTS, pollUntil, type CallOptions, type PollOptions } from "../../../client";

/**
 * Polls with `read` until `reached`, within the node's `timeout` (or `defaultMs` when blank). Each
 * status call is bounded by the time left, at most an ordinary call's timeout; the node's stop signal
 * ends the wait at once.
 */
export function waitUntil<T>(options: CallOptions, defaultMs: number, read: (callOptions: CallOptions) => Promise<T>, poll: Omit<PollOptions<T>, "timeoutMs" | "signal">): Promise<T> {
  return pollUntil((timeLeftMs) => read({ ...options, timeoutMs: Math.min(timeLeftMs, DEFAULT_TIMEOUTS.request) }), {
    ...poll,
    timeoutMs: options.timeoutMs ?? defaultMs,
    signal: options.signal,
  });
}

/** "60 s", "2.5 s": a wait's length in the words of its error text. */
export function seconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}
