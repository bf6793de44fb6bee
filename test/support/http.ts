/** Raw HTTP calls to the emulator (fetch, no client) and checks of the envelope they get back. */
import assert from "node:assert/strict";
import { createServer, request } from "node:http";
import type { AddressInfo } from "node:net";

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed body; undefined when it is not JSON. */
  json: unknown;
}

export interface CallOptions {
  method?: "GET" | "POST";
  /** Sent as JSON unless it is already a string. */
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

export async function call(baseUrl: string, path: string, options: CallOptions = {}): Promise<Answer> {
  const { method = "POST", body, headers = {}, signal } = options;
  const init: RequestInit = { method, headers: { "Content-Type": "application/json", ...headers } };
  if (body !== undefined) init.body = typeof body === "string" ? body : JSON.stringify(body);
  if (signal) init.signal = signal;
  const response = await fetch(`${baseUrl}${path}`, init);
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

export interface EnvelopeShape {
  code: number;
  msg: string | null;
  data: unknown;
  requestId: string;
}

/** Asserts the answer is the {code, msg, data, requestId} envelope and returns it. */
export function envelopeOf(answer: Answer): EnvelopeShape {
  const value = answer.json;
  assert.ok(typeof value === "object" && value !== null, `not a JSON object: ${answer.text.slice(0, 200)}`);
  assert.deepEqual(Object.keys(value).sort(), ["code", "data", "msg", "requestId"]);
  const envelope = value as EnvelopeShape;
  assert.match(envelope.requestId, /^[0-9a-f]{32}$/);
  return envelope;
}

/** Asserts success (HTTP 200, code 0, msg null) and returns `data`. */
export function dataOf<T = Record<string, unknown>>(answer: Answer): T {
  const envelope = envelopeOf(answer);
  assert.equal(answer.status, 200);
  assert.equal(envelope.code, 0, `expected success, got ${envelope.code} ${envelope.msg}`);
  return envelope.data as T;
}

export function expectError(answer: Answer, status: number, code: number, msg?: string): void {
  const envelope = envelopeOf(answer);
  assert.equal(answer.status, status);
  assert.equal(envelope.code, code);
  assert.equal(envelope.data, null);
  if (msg !== undefined) assert.equal(envelope.msg, msg);
}

export interface PageShape<T> {
  total: string;
  current: string;
  pages: string;
  dataList: T[];
}

/** GET of a JSON document on a fresh connection (a browser's DevTools endpoint, say). */
export function getJson(url: string): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    request(url, { agent: false }, (res) => {
      let text = "";
      res.on("data", (chunk: Buffer) => (text += chunk.toString()));
      res.on("end", () => resolve(JSON.parse(text) as Record<string, unknown>));
    })
      .on("error", reject)
      .end();
  });
}

/** Whether a GET of `url` is refused at the TCP level (nothing listens on its port); any answer is false. */
export async function refused(url: string): Promise<boolean> {
  try {
    await fetch(url);
    return false;
  } catch (error) {
    const cause = error instanceof Error ? (error.cause as { code?: string } | undefined) : undefined;
    return cause?.code === "ECONNREFUSED";
  }
}

/** A port on this machine nothing listens on (Chromium refuses to open some, like 9, as unsafe). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
