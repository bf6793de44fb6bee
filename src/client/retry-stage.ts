import type { ApiGate } from "./api-gate";
import { MoreLoginAbortError, MoreLoginRateLimitError, cancellationError, type MoreLoginError } from "./errors";
import type { ReadResult } from "./reply-reader";
import { isRateLimit, isRetryable, retryDelay, sleep, type RetryPolicy } from "./retry";
import type { Exchange, Send, Stage } from "./stages";
import type { ApiName } from "./types";

/**
 * Retries: a rate-limit refusal holds every call to that API and is sent again, at the head of the
 * queue, up to `policy.refusals` times in a row; other failures are retried as `isRetryable` allows.
 * The first attempt costs nothing more than its own promise.
 */
export function retryStage(policy: RetryPolicy, gates: Record<ApiName, ApiGate>, closed: AbortSignal): Stage {
  async function retryFailed(exchange: Exchange, next: Send, firstError: unknown): Promise<ReadResult> {
    let failures = 0;
    let refusals = 0;
    for (let error = firstError; ; ) {
      if (closed.aborted) throw error;
      let refused = false;
      if (isRateLimit(error)) {
        refused = true;
        refusals++;
        // The API asked for a pause: the other calls to it keep to it even when this one gives up.
        gates[exchange.call.api].refused(error.retryAfterMs, policy.maxRateLimitWaitMs);
        if (refusals >= policy.refusals) throw gaveUp(error, refusals);
      } else {
        refusals = 0;
        failures++;
        if (failures >= policy.attempts || !isRetryable(error, exchange.call.idempotency)) throw error;
        const delay = retryDelay(error, failures - 1, policy);
        if (delay > policy.maxRateLimitWaitMs) throw error;
        await backOff(delay, closed, exchange.options.signal);
      }
      try {
        return await next({ ...exchange, resent: refused });
      } catch (next) {
        error = next;
      }
    }
  }
  return { name: "retry", through: (exchange, next) => next(exchange).catch((error: unknown) => retryFailed(exchange, next, error)) };
}

async function backOff(delay: number, closed: AbortSignal, signal?: AbortSignal): Promise<void> {
  try {
    await sleep(delay, signal ? AbortSignal.any([signal, closed]) : closed);
  } catch (error) {
    if (closed.aborted) throw new MoreLoginAbortError("the MoreLogin client was closed while the call waited to retry", {});
    if (signal?.aborted) throw cancellationError(signal, {}, "the call was cancelled while waiting to retry");
    throw error;
  }
}

/** The refusal after which a call stops trying: the API's own words, and how often it refused. */
function gaveUp(error: MoreLoginError, refusals: number): MoreLoginRateLimitError {
  const times = refusals === 1 ? "once" : `${refusals} times in a row`;
  return new MoreLoginRateLimitError(`${error.message}: refused ${times} as too frequent, so the call gives up`, {
    api: error.api,
    method: error.method,
    path: error.path,
    status: error.status,
    code: error.code,
    apiMsg: error.apiMsg,
    requestId: error.requestId,
    retryAfterMs: error.retryAfterMs,
    notSent: true,
  });
}
