import { types } from "node:util";
import type { ApiName } from "./types";

export type ErrorKind =
  | "api" // the API answered with a business error code
  | "http" // an HTTP error status without a MoreLogin envelope
  | "response" // a reply that cannot be read (not JSON, empty, truncated, not an envelope)
  | "network" // the connection failed
  | "timeout" // no answer in time
  | "aborted" // the caller (or close()) cancelled the call
  | "auth" // the Open API token could not be obtained or was refused
  | "rate-limit" // the API refused the call as too frequent, and kept refusing
  | "input" // the call was refused before anything was sent
  | "page"; // a browser step: the page did not load, a script in it threw, or an element would not do what was asked

export interface ErrorContext {
  api?: ApiName;
  method?: string;
  path?: string;
  status?: number;
  code?: number;
  apiMsg?: string;
  requestId?: string;
  retryAfterMs?: number;
  /** True when the request provably never reached the server (e.g. connection refused). */
  notSent?: boolean;
}

/** `msg.morelogin.error`: the failure as flows see it. */
export interface FlowError {
  kind: ErrorKind;
  code?: number;
  msg?: string;
  status?: number;
  requestId?: string;
  path?: string;
}

/** An Error from this realm or another (a function node's vm context has its own Error). */
export function isErrorValue(value: unknown): value is Error {
  return value instanceof Error || types.isNativeError(value);
}

/** The text of anything thrown. */
export function messageOf(error: unknown): string {
  return isErrorValue(error) ? error.message : String(error);
}

/** Anything thrown, as an Error: an Error as it is (from any realm), else an Error with its text. */
export function asError(value: unknown): Error {
  if (isErrorValue(value)) return value;
  try {
    return new Error(String(value));
  } catch {
    // An object whose text cannot be had (no toString, or one that throws).
    return new Error("unexpected failure");
  }
}

/** Every error the client throws. Messages never contain a token, the API key or a header value. */
export class MoreLoginError extends Error {
  readonly kind: ErrorKind;
  readonly api?: ApiName;
  readonly method?: string;
  readonly path?: string;
  readonly status?: number;
  readonly code?: number;
  readonly apiMsg?: string;
  readonly requestId?: string;
  readonly retryAfterMs?: number;
  readonly notSent: boolean;

  constructor(kind: ErrorKind, message: string, context: ErrorContext = {}, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.kind = kind;
    this.api = context.api;
    this.method = context.method;
    this.path = context.path;
    this.status = context.status;
    this.code = context.code;
    this.apiMsg = context.apiMsg;
    this.requestId = context.requestId;
    this.retryAfterMs = context.retryAfterMs;
    this.notSent = context.notSent ?? false;
  }

  /** What flows get as `msg.morelogin.error`; `kind` is what they branch on. */
  toFlowError(): FlowError {
    return { kind: this.kind, code: this.code, msg: this.apiMsg, status: this.status, requestId: this.requestId, path: this.path };
  }

  toJSON(): FlowError & { api?: ApiName; message: string } {
    return { ...this.toFlowError(), api: this.api, message: this.message };
  }
}

export class MoreLoginApiError extends MoreLoginError {
  constructor(message: string, context: ErrorContext) {
    super("api", message, context);
  }
}

/** The API refused the call as too frequent (HTTP 429, or code 429, 35000, 99008, 99009): it did not run. */
export class MoreLoginRateLimitError extends MoreLoginError {
  constructor(message: string, context: ErrorContext) {
    super("rate-limit", message, context);
  }
}

export class MoreLoginHttpError extends MoreLoginError {
  constructor(message: string, context: ErrorContext) {
    super("http", message, context);
  }
}

export class MoreLoginResponseError extends MoreLoginError {
  constructor(message: string, context: ErrorContext) {
    super("response", message, context);
  }
}

export class MoreLoginNetworkError extends MoreLoginError {
  constructor(message: string, context: ErrorContext, cause?: unknown) {
    super("network", message, context, { cause });
  }
}

export class MoreLoginTimeoutError extends MoreLoginError {
  constructor(message: string, context: ErrorContext) {
    super("timeout", message, context);
  }
}

export class MoreLoginAbortError extends MoreLoginError {
  constructor(message: string, context: ErrorContext) {
    super("aborted", message, context);
  }
}

/**
 * The error for a call its caller's signal ended: the signal's own reason when that is a
 * MoreLoginAbortError (it says who stopped the call), otherwise `fallback`.
 */
export function cancellationError(signal: AbortSignal, context: ErrorContext, fallback = "the call was cancelled"): MoreLoginAbortError {
  const reason: unknown = signal.reason;
  return new MoreLoginAbortError(reason instanceof MoreLoginAbortError ? reason.message : fallback, context);
}

export class MoreLoginAuthError extends MoreLoginError {
  constructor(message: string, context: ErrorContext) {
    super("auth", message, context);
  }
}

export class MoreLoginInputError extends MoreLoginError {
  constructor(message: string, context: ErrorContext = {}) {
    super("input", message, context);
  }
}
