import { request, type Dispatcher } from "undici";
import { readEchoReply, type EchoFields } from "./echo-reply";
import { failureText } from "./proxy-check-failure";
import { inPool } from "./pool";
import { proxyDispatcher } from "./proxy-dispatcher";
import type { ProxyToCheck } from "./proxy-protocol";

export type { ProxyToCheck } from "./proxy-protocol";

export interface ProxyCheckOptions {
  /** An IP-echo service reached through the proxy (JSON in a common shape, or a bare address). */
  echoUrl: string;
  /** The whole check: connection, handshake, request and reply. */
  timeoutMs: number;
  /** Where the reply keeps the IP, country and time zone, when not under a common name. */
  fields?: EchoFields;
  signal?: AbortSignal;
}

/** A check's outcome; `latencyMs` (from connecting to the proxy to the reply read) and the exit are null when it failed. */
export interface ProxyCheck {
  ok: boolean;
  latencyMs: number | null;
  exitIp: string | null;
  country: string | null;
  timezone: string | null;
  /** Why it failed, in words without credentials; null when it worked. */
  error: string | null;
}

/** An echo reply is a few hundred bytes; a page this long is not one. */
const MAX_REPLY_BYTES = 65_536;

/** A check that failed, and why. */
export function failedCheck(error: string): ProxyCheck {
  return { ok: false, latencyMs: null, exitIp: null, country: null, timezone: null, error };
}

async function replyText(body: AsyncIterable<Buffer>): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > MAX_REPLY_BYTES) throw new Error("the reply is too long for an echo reply");
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

function checkedUrl(echoUrl: string): URL {
  const url = new URL(echoUrl);
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error("echoUrl must be an http or https URL");
  return url;
}

/** The echo reply's status and text, through the dispatcher. */
async function fetchEcho(url: URL, dispatcher: Dispatcher, signal: AbortSignal): Promise<{ status: number; text: string }> {
  const answer = await request(url, { dispatcher, signal, headers: { accept: "application/json" } });
  return { status: answer.statusCode, text: await replyText(answer.body) };
}

/**
 * Rejects with the signal's reason once it aborts. undici's signal does not reach a proxy's CONNECT
 * (ProxyAgent opens the tunnel in its connector), so a proxy that accepts and then stalls would hold the
 * request past its timeout; the check stops waiting here, and destroying the dispatcher ends the tunnel.
 */
function abortion(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) return reject(signal.reason);
    signal.addEventListener("abort", () => reject(signal.reason), { once: true });
  });
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** Why a reply without an IP is bad: not JSON (nor a bare address), or JSON without the IP where it was looked for. */
function missingIp(text: string, fields: EchoFields | undefined): string {
  if (!isJson(text)) return "bad echo reply: the reply is not JSON";
  return fields?.ip ? `bad echo reply: the reply has no IP at "${fields.ip}"` : "bad echo reply: the reply has no IP (ip or query)";
}

function outcomeOf(answer: { status: number; text: string }, fields: EchoFields | undefined, latencyMs: number): ProxyCheck {
  if (answer.status === 407) return failedCheck("authentication failed (HTTP 407)");
  if (answer.status < 200 || answer.status > 299) return failedCheck(`bad echo reply: HTTP ${answer.status}`);
  const exit = readEchoReply(answer.text, fields);
  if (exit.exitIp === undefined) return failedCheck(missingIp(answer.text, fields));
  return { ok: true, latencyMs, exitIp: exit.exitIp, country: exit.country ?? null, timezone: exit.timezone ?? null, error: null };
}

/** Fetches `echoUrl` through the proxy and reads the exit it reports. Never throws: a failure is `{ok: false, error}`. */
export async function checkProxy(proxy: ProxyToCheck, options: ProxyCheckOptions): Promise<ProxyCheck> {
  let url: URL;
  let dispatcher: Dispatcher;
  try {
    url = checkedUrl(options.echoUrl);
  } catch (error) {
    return failedCheck(error instanceof TypeError ? "echoUrl is not a URL" : (error as Error).message);
  }
  try {
    dispatcher = proxyDispatcher(proxy, options.timeoutMs);
  } catch (error) {
    return failedCheck(error instanceof Error && !(error instanceof TypeError) ? error.message : "the proxy's fields are not usable (proxyIp, proxyPort)");
  }
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;
  const started = performance.now();
  const echo = fetchEcho(url, dispatcher, signal);
  echo.catch(() => undefined); // its failure is read below, or it comes after the timeout and is moot
  try {
    const answer = await Promise.race([echo, abortion(signal)]);
    return outcomeOf(answer, options.fields, Math.round(performance.now() - started));
  } catch (error) {
    if (timeout.aborted) return failedCheck(`timed out after ${options.timeoutMs} ms`);
    if (options.signal?.aborted) return failedCheck("cancelled");
    return failedCheck(failureText(error));
  } finally {
    await dispatcher.destroy().catch(() => undefined);
  }
}

export interface ProxyChecksOptions extends ProxyCheckOptions {
  /** How many checks run at once (default 10). */
  concurrency?: number;
}

export const DEFAULT_CHECK_CONCURRENCY = 10;

/** Checks every proxy, at most `concurrency` at once, each with its own timeout; the outcomes in the proxies' order. */
export async function checkProxies(proxies: readonly ProxyToCheck[], options: ProxyChecksOptions): Promise<ProxyCheck[]> {
  return inPool(proxies, options.concurrency ?? DEFAULT_CHECK_CONCURRENCY, (proxy) => checkProxy(proxy, options));
}
