import { MoreLoginAbortError, MoreLoginError, MoreLoginInputError, messageOf, unlessAborted, type ErrorKind } from "../client";

/** A browser step failed: `kind` says whether the browser, the page or the input was the cause. */
export class BrowserStepError extends MoreLoginError {
  constructor(kind: ErrorKind, message: string, options?: { cause?: unknown }) {
    super(kind, message, {}, options);
  }
}

/** The first line of a Playwright error, without its "locator.click: " prefix and call log. */
function firstLine(error: unknown): string {
  const line = messageOf(error).split("\n")[0] ?? "";
  return line.replace(/^[\w.]+: /, "").trim();
}

const GONE = /has been closed|Target closed|Browser closed|browser has disconnected|Connection closed|WebSocket is not open/i;
const DEADLINE_GRACE_MS = 250;

/** Playwright's call log line once the selector found an element (it then waits until the element can be used). */
const FOUND = /locator resolved to/;
const NAVIGATION = /net::ERR_[A-Z_]+|NS_ERROR_[A-Z_]+/;

/** Whether a step ran out of time: Playwright's own timeout, not one of ours. */
export function isPlaywrightTimeout(error: unknown): error is Error {
  return error instanceof Error && !(error instanceof MoreLoginError) && error.name === "TimeoutError";
}

/**
 * The error a flow gets for a failed browser step: a closed browser or tab is `network`, running out
 * of time is `timeout` (naming the selector or URL it waited for), anything the page did is `page`.
 * `selectorMatched` says the selector matched an element once the time was up, which Playwright's call
 * log does not show when a busy machine ran out of time before it looked.
 */
export function browserStepError(error: unknown, step: { action: string; selector?: string; url?: string; timeoutMs: number }, selectorMatched = false): MoreLoginError {
  if (error instanceof MoreLoginError) return error;
  const text = firstLine(error);
  const seconds = Math.round(step.timeoutMs / 100) / 10;
  if (isPlaywrightTimeout(error)) {
    if (step.selector !== undefined && (selectorMatched || FOUND.test(error.message))) {
      return new BrowserStepError(
        "timeout",
        `${JSON.stringify(step.selector)} matches an element, but it could not be used for ${step.action} within ${seconds} s (hidden, disabled or covered by another element?)`,
        {
          cause: error,
        },
      );
    }
    if (step.selector !== undefined) return new BrowserStepError("timeout", `no element matches ${JSON.stringify(step.selector)} after ${seconds} s (${step.action})`, { cause: error });
    if (step.url !== undefined) return new BrowserStepError("timeout", `${step.url} did not finish loading in ${seconds} s`, { cause: error });
    return new BrowserStepError("timeout", `${step.action} did not finish in ${seconds} s`, { cause: error });
  }
  if (GONE.test(text)) return new BrowserStepError("network", `the browser or its tab went away (closed or crashed) during ${step.action}`, { cause: error });
  const navigation = NAVIGATION.exec(text);
  if (step.url !== undefined && navigation) return new BrowserStepError("page", `the page did not load: ${navigation[0]} at ${step.url}`, { cause: error });
  if (step.action === "evaluate") return new BrowserStepError("page", `the script failed in the page: ${text}`, { cause: error });
  return new BrowserStepError("page", `${step.action} failed: ${text}`, { cause: error });
}

export function inputError(message: string): MoreLoginInputError {
  return new MoreLoginInputError(message);
}

/**
 * Settles with the step, or rejects after `timeoutMs` with an error of kind timeout: some steps (a
 * script that never settles) have no deadline of their own. What the step still does in the page is
 * left to it.
 */
export function withDeadline<T>(step: Promise<T>, timeoutMs: number, action: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    // A moment's grace, so a step with a deadline of its own (a click waiting for its element) ends with its more precise text.
    timer = setTimeout(() => reject(new BrowserStepError("timeout", `${action} did not finish in ${Math.round(timeoutMs / 100) / 10} s`)), timeoutMs + DEADLINE_GRACE_MS);
  });
  return Promise.race([step, deadline]).finally(() => clearTimeout(timer));
}

/** Settles with the step, or rejects with the signal's reason as soon as the node is stopped. */
export function untilAborted<T>(step: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  return signal ? unlessAborted(step, signal, () => stopped(signal)) : step;
}

function stopped(signal: AbortSignal): MoreLoginAbortError {
  const reason: unknown = signal.reason;
  return reason instanceof MoreLoginAbortError ? reason : new MoreLoginAbortError("the browser step was cancelled", {});
}
