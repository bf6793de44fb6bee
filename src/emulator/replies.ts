import { randomUUID } from "node:crypto";
import { CODES } from "./codes";

/** What a route answers: an HTTP status, a JSON payload and optional extra headers. */
export interface Reply {
  status: number;
  payload: unknown;
  headers?: Record<string, string>;
  /** The payload as sent, when JSON.stringify cannot write it (a 64-bit integer). */
  text?: string;
}

export interface Envelope {
  code: number;
  msg: string | null;
  data: unknown;
  requestId: string;
}

/** 32 lowercase hex characters, like the real API's request IDs. */
export function newRequestId(): string {
  return randomUUID().replace(/-/g, "");
}

/** Tells a reply from the value a helper returns when it does not refuse. */
export const isReply = (value: unknown): value is Reply => typeof value === "object" && value !== null && !Array.isArray(value) && "payload" in value && "status" in value;

export function envelope(code: number, msg: string | null, data: unknown): Envelope {
  return { code, msg, data, requestId: newRequestId() };
}

export function ok(data: unknown, msg: string | null = null): Reply {
  return { status: 200, payload: envelope(0, msg, data) };
}

/** Success whose `data` is a 64-bit ID written as a bare JSON integer, as the spec types proxyInfo/add's. */
export function okInteger(id: string): Reply {
  if (!/^\d{1,20}$/.test(id)) throw new Error(`not an integer: ${id}`);
  const payload = envelope(0, null, null);
  return { status: 200, payload, text: JSON.stringify(payload).replace('"data":null', `"data":${id}`) };
}

/** A business error: HTTP 200 unless told otherwise, with a non-zero code. */
export function fail(code: number, msg: string, status = 200, headers?: Record<string, string>): Reply {
  return { status, payload: envelope(code, msg, null), ...(headers ? { headers } : {}) };
}

export const notFound = (): Reply => fail(CODES.notFound, "Not found", 404);
export const badRequest = (): Reply => fail(CODES.badRequest, "Bad request");
export const tooLarge = (): Reply => fail(CODES.tooLarge, "Request too large");
export const paramError = (message: string): Reply => fail(CODES.paramError, message);
export const unknownError = (): Reply => fail(CODES.unknownError, "Unknown system error", 500);
export const profileNotFound = (): Reply => fail(CODES.profileNotFound, "Profile not found");
export const phoneNotFound = (): Reply => fail(CODES.phoneNotFound, "Cloud phone not found");
/** The text MoreLogin's own skill quotes for code 33301. */
export const phoneNotStarted = (): Reply => fail(CODES.phoneNotStarted, "The Cloud Phone has not been started up.");

/** The published 429 reply; it carries Retry-After only when `retryAfterSeconds` is given. */
export function rateLimitExceeded(retryAfterSeconds?: number): Reply {
  if (retryAfterSeconds === undefined) return fail(CODES.rateLimited, "Rate limit exceeded", 429);
  const seconds = Math.max(1, Math.ceil(retryAfterSeconds));
  return fail(CODES.rateLimited, "Rate limit exceeded", 429, { "Retry-After": String(seconds) });
}
