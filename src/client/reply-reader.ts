import { MoreLoginApiError, MoreLoginHttpError, MoreLoginRateLimitError, MoreLoginResponseError, type ErrorContext } from "./errors";
import { parseJsonExact } from "./exact-json";
import { apiLabel, type RawResponse } from "./transport";
import type { ApiName, Envelope } from "./types";
import { parseRetryAfter } from "./retry";

export interface ReadOptions {
  api: ApiName;
  method: string;
  path: string;
  /** Accept a 2xx JSON reply that is not an envelope (the generic request, e.g. `POST /status`). */
  allowBareJson?: boolean;
  /**
   * The whole reply is the data (`{code, msg, data, requestId, ...}`), and a non-zero code is data
   * too, not an error; rate limits and HTTP failures still are errors.
   */
  wholeReply?: boolean;
  /** The result is in these top-level fields of the reply, not in its `data` (see EndpointDefinition.replyFields). */
  replyFields?: readonly string[];
  /** Removes secrets from any text taken from the reply. */
  redact: (text: string) => string;
}

/**
 * Business codes that mean "too many requests": the request was refused, not run. 429 from the rate
 * limit guide, 35000 "API requests too frequent", 99008 "per-device request count limit" and 99009
 * "requests too frequent" from MoreLogin's error table.
 */
export const RATE_LIMIT_CODES: ReadonlySet<number> = new Set([429, 35000, 99008, 99009]);

export interface ReadResult {
  data: unknown;
  requestId?: string;
}

/** Turns a raw reply into the envelope's data, or throws the typed error that describes it. */
export function readEnvelope(response: RawResponse, options: ReadOptions): ReadResult {
  const { status } = response;
  const parsed = parseJson(response.text);

  if (isEnvelope(parsed)) {
    const requestId = typeof parsed.requestId === "string" ? parsed.requestId : undefined;
    const success = status >= 200 && status < 300;
    if (success && parsed.code === 0) return { data: options.wholeReply ? parsed : resultOf(parsed, options.replyFields), requestId };
    if (success && options.wholeReply && !RATE_LIMIT_CODES.has(parsed.code)) return { data: parsed, requestId };
  } else if (parsed !== undefined && options.allowBareJson && status >= 200 && status < 300) {
    return { data: parsed };
  }
  return failure(response, options, parsed);
}

/** A successful reply's result: its `data`, or the top-level fields the endpoint answers in instead. */
function resultOf(reply: Envelope, replyFields: readonly string[] | undefined): unknown {
  if (replyFields === undefined) return reply.data;
  const fields: Record<string, unknown> = reply as unknown as Record<string, unknown>;
  return Object.fromEntries(replyFields.filter((name) => fields[name] !== undefined).map((name) => [name, fields[name]]));
}

/** The typed error for a reply that is not a successful envelope. */
function failure(response: RawResponse, options: ReadOptions, parsed: unknown): never {
  const { status } = response;
  const context: ErrorContext = {
    api: options.api,
    method: options.method,
    path: options.path,
    status,
    retryAfterMs: parseRetryAfter(response.headers["retry-after"]),
  };
  if (isEnvelope(parsed)) {
    const requestId = typeof parsed.requestId === "string" ? parsed.requestId : undefined;
    const apiMsg = options.redact(typeof parsed.msg === "string" && parsed.msg ? parsed.msg : httpReason(status));
    const text = `${apiMsg} (code ${parsed.code}${status >= 300 ? `, HTTP ${status}` : ""})${hintFor(parsed.code)}`;
    const details = { ...context, code: parsed.code, apiMsg, requestId };
    if (status === 429 || RATE_LIMIT_CODES.has(parsed.code)) throw new MoreLoginRateLimitError(text, details);
    throw new MoreLoginApiError(text, details);
  }

  const label = apiLabel(options.api);
  if (status === 429) {
    throw new MoreLoginRateLimitError(`${label} answered HTTP 429 Too Many Requests${excerpt(response.text, options.redact)}`, context);
  }
  if (status < 200 || status >= 300) {
    throw new MoreLoginHttpError(`${label} answered HTTP ${status} ${httpReason(status)}${excerpt(response.text, options.redact)}`, context);
  }
  if (response.text.trim() === "") {
    throw new MoreLoginResponseError(`${label} answered HTTP ${status} with an empty body`, context);
  }
  if (parsed === undefined) {
    throw new MoreLoginResponseError(`${label} answered HTTP ${status} with a body that is not JSON${excerpt(response.text, options.redact)}`, context);
  }
  throw new MoreLoginResponseError(`${label} answered HTTP ${status} with JSON that is not a MoreLogin reply (no numeric "code")${excerpt(response.text, options.redact)}`, context);
}

function parseJson(text: string): unknown {
  if (text.trim() === "") return undefined;
  try {
    return parseJsonExact(text);
  } catch {
    return undefined;
  }
}

function isEnvelope(value: unknown): value is Envelope {
  return value !== null && typeof value === "object" && !Array.isArray(value) && typeof (value as { code?: unknown }).code === "number";
}

const EXCERPT_LENGTH = 120;

function excerpt(text: string, redact: (text: string) => string): string {
  const plain = redact(text)
    .replace(/<(script|style)[\s\S]*?<\/\1>/gi, " ")
    .replace(/<[^>]*>/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  if (!plain) return "";
  return `: ${plain.length > EXCERPT_LENGTH ? `${plain.slice(0, EXCERPT_LENGTH)}…` : plain}`;
}

const REASONS: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  408: "Request Timeout",
  413: "Payload Too Large",
  429: "Too Many Requests",
  500: "Internal Server Error",
  502: "Bad Gateway",
  503: "Service Unavailable",
  504: "Gateway Timeout",
};

function httpReason(status: number): string {
  return REASONS[status] ?? "error";
}

/** Codes whose fix lies in the config node, not in the message. */
function hintFor(code: number): string {
  if (code === 35001) return ": the desktop client requires a Local API token; set it in the MoreLogin config node (for MoreLogin's server edition, tick Server login instead)";
  if (code === 35002) return ": the Local API token does not match the one in the desktop client's API settings";
  return "";
}
