import type { CapacityRole } from "./capacity";
import { cancellationError, type ErrorContext } from "./errors";
import type { ReadResult } from "./reply-reader";
import type { Idempotency } from "./retry";
import type { ApiName, HttpMethod } from "./types";
import type { WaitOptions } from "./wait-queue";
import { unlessAborted } from "./abortable";

export interface CallOptions extends WaitOptions {
  /** How long each attempt waits for an answer; time spent queued does not count. Default: the call's own. */
  timeoutMs?: number;
  /** For an endpoint that both APIs have: which one to call (default: the endpoint's own). */
  api?: ApiName;
  /** Hears of each request the call sends (a retry is one more), as the gate lets it through. */
  onRequest?: (api: ApiName) => void;
}

/** A call as the stages see it: where it goes, its body as JSON, and how it may be retried. */
export interface PreparedCall {
  api: ApiName;
  method: HttpMethod;
  path: string;
  /** The endpoint's name in ENDPOINTS (or `token`, `login`), for metrics; absent for a path the client has no name for. */
  endpoint?: string;
  /** The body, already JSON. */
  json?: string;
  idempotency: Idempotency;
  timeoutMs: number;
  limited?: boolean;
  capacity?: CapacityRole;
  allowBareJson?: boolean;
  wholeReply?: boolean;
  replyFields?: readonly string[];
}

/** The headers of a call without a body, and of one with a JSON body. */
export interface RequestHeaders {
  plain: Record<string, string>;
  json: Record<string, string>;
}

const USER_AGENT = "node-red-contrib-morelogin";

export function requestHeaders(authorization?: string): RequestHeaders {
  const plain: Record<string, string> = { accept: "application/json", "user-agent": USER_AGENT };
  if (authorization) plain.authorization = authorization;
  return { plain, json: { ...plain, "content-type": "application/json" } };
}

/** Headers without credentials: the token request and the server login. */
export const PLAIN_HEADERS = requestHeaders();

/** One attempt of a call on its way through the stages. */
export interface Exchange {
  readonly call: PreparedCall;
  readonly options: CallOptions;
  /** Sent again after a rate-limit refusal: it goes first in the gate's queue. */
  readonly resent: boolean;
  /** Set by the credentials stage: what the request carries. */
  headers: RequestHeaders;
}

export type Send = (exchange: Exchange) => Promise<ReadResult>;

/**
 * One concern of every call (a cap, a limit, retries, credentials, the login, pacing), as undici's
 * interceptors and octokit's request hooks are: it may wait before the rest of the chain, call `next`
 * once or more, and look at what comes back. A stage that has nothing to do for a call returns
 * `next(exchange)` at once, so it costs no promise.
 */
export interface Stage {
  readonly name: string;
  through(exchange: Exchange, next: Send): Promise<ReadResult>;
}

/** The stages in the order each call passes through them, ending in `last` (the request itself). */
export function chain(stages: readonly Stage[], last: Send): Send {
  return stages.reduceRight<Send>((next, stage) => (exchange) => stage.through(exchange, next), last);
}

/** The exchange a call starts with. */
export function exchangeFor(call: PreparedCall, options: CallOptions, headers: RequestHeaders = PLAIN_HEADERS): Exchange {
  return { call, options, resent: false, headers };
}

/** What an error says about the call it belongs to. */
export function contextOf(call: PreparedCall): ErrorContext {
  return { api: call.api, method: call.method, path: call.path };
}

/**
 * Waits for something shared by many calls (a token, a login): a call whose own signal fires stops
 * waiting at once, while the shared work goes on for the others.
 */
export function waitShared<T>(pending: Promise<T>, call: PreparedCall, signal?: AbortSignal): Promise<T> {
  if (!signal) return pending;
  const context = { ...contextOf(call), notSent: true };
  return unlessAborted(pending, signal, () => cancellationError(signal, context));
}
