import { MoreLoginAbortError, MoreLoginError } from "./errors";

export interface RetryPolicy {
  /** Attempts in all after failures that are not rate limits, the first one included. */
  attempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** Rate-limit refusals in a row after which a call gives up (kind `rate-limit`). */
  refusals: number;
  /** The longest a rate-limit refusal is waited out, Retry-After included. */
  maxRateLimitWaitMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 4, baseDelayMs: 200, maxDelayMs: 5_000, refusals: 5, maxRateLimitWaitMs: 60_000 };

/**
 * How safe it is to send a call again: a read can always be repeated; a call with side effects
 * (start, close, anything generic) only when it provably never reached the server.
 */
export type Idempotency = "read" | "write";

const RETRY_STATUSES = new Set([502, 503, 504]);

/**
 * Failures that happened before the call itself was sent (connection refused, or the Open API token
 * could not be had for a passing reason): sending it later is safe even for a write.
 */
const NEVER_SENT_RETRYABLE = new Set(["network", "http", "response", "api", "rate-limit"]);

export function isRetryable(error: unknown, idempotency: Idempotency): boolean {
  if (!(error instanceof MoreLoginError)) return false;
  if (error.notSent && NEVER_SENT_RETRYABLE.has(error.kind)) return true;
  if (idempotency === "write") return false;
  switch (error.kind) {
    case "network":
    case "response":
      return true;
    case "http":
      return RETRY_STATUSES.has(error.status ?? 0);
    case "api":
      return RETRY_STATUSES.has(error.status ?? 0);
    default:
      return false;
  }
}

/** A refusal as too frequent: it did not run, so any call, a write too, may be sent again. */
export function isRateLimit(error: unknown): error is MoreLoginError {
  return error instanceof MoreLoginError && error.kind === "rate-limit";
}

/** Full-jitter exponential backoff, or the server's Retry-After when it gave one. */
export function retryDelay(error: unknown, attempt: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const retryAfter = error instanceof MoreLoginError ? error.retryAfterMs : undefined;
  if (retryAfter !== undefined) return retryAfter;
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

/** Parses Retry-After (delta seconds or an HTTP date) to milliseconds. */
export function parseRetryAfter(header: string | string[] | undefined, now: number = Date.now()): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined || value.trim() === "") return undefined;
  if (/^\d+(\.\d+)?$/.test(value.trim())) return Math.round(Number(value) * 1000);
  const date = Date.parse(value);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new MoreLoginAbortError("the call was cancelled", {}));
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new MoreLoginAbortError("the call was cancelled while waiting to retry", {}));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
