import { EnvHttpProxyAgent, Pool, type Dispatcher } from "undici";
import { MoreLoginAbortError, MoreLoginNetworkError, MoreLoginTimeoutError, type ErrorContext } from "./errors";
import type { ApiName, HttpMethod } from "./types";
import { isLoopbackHost } from "./urls";

export interface RawRequest {
  api: ApiName;
  origin: string;
  method: HttpMethod;
  /** The full path sent on the wire (base path included). */
  path: string;
  /** The path as the caller named it, for error texts. */
  displayPath: string;
  headers: Record<string, string>;
  body?: string;
  timeoutMs: number;
  signal?: AbortSignal;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

const API_LABEL: Record<ApiName, string> = { local: "Local API", open: "Open API" };
export const apiLabel = (api: ApiName): string => API_LABEL[api];

/** Error codes that prove the request never left this machine. */
const NOT_SENT_CODES = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EADDRNOTAVAIL", "UND_ERR_CONNECT_TIMEOUT"]);

const PROXY_VARIABLES = ["https_proxy", "HTTPS_PROXY", "http_proxy", "HTTP_PROXY"];

/** True when the environment names a proxy (HTTPS_PROXY, HTTP_PROXY, in either case). */
export function proxyConfigured(env: NodeJS.ProcessEnv = process.env): boolean {
  return PROXY_VARIABLES.some((name) => Boolean(env[name]));
}

/**
 * One keep-alive pool per origin; close() ends sockets and aborts every call in flight. Origins
 * away from this machine go through the proxy that HTTPS_PROXY / HTTP_PROXY name, unless NO_PROXY
 * exempts them; loopback never goes through a proxy.
 */
export class Transport {
  private readonly pools = new Map<string, Dispatcher>();
  private readonly closing = new AbortController();
  private readonly inFlight = new Set<AbortController>();
  private closed = false;

  constructor(private readonly poolOptions: Pool.Options = {}) {}

  get isClosed(): boolean {
    return this.closed;
  }

  /** Fires when close() is called, so waits outside a request (retry backoff) end too. */
  get closedSignal(): AbortSignal {
    return this.closing.signal;
  }

  async send(request: RawRequest): Promise<RawResponse> {
    const context: ErrorContext = { api: request.api, method: request.method, path: request.displayPath };
    if (this.closed) throw new MoreLoginAbortError("the MoreLogin client is closed", { ...context, notSent: true });
    if (request.signal?.aborted) throw new MoreLoginAbortError("the call was cancelled", { ...context, notSent: true });

    // One controller per request, aborted by the timer, the caller's signal or close(): cheaper on
    // the hot path than combining signals with AbortSignal.any.
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, request.timeoutMs);
    const onCallerAbort = (): void => controller.abort();
    request.signal?.addEventListener("abort", onCallerAbort, { once: true });
    this.inFlight.add(controller);
    const signal = controller.signal;
    try {
      const response = await this.pool(request.origin).request({
        origin: request.origin,
        method: request.method,
        path: request.path,
        headers: request.headers,
        body: request.body,
        signal,
      });
      const text = await response.body.text();
      return { status: response.statusCode, headers: response.headers, text };
    } catch (error) {
      if (timedOut) {
        throw new MoreLoginTimeoutError(
          `no answer from the ${apiLabel(request.api)} within ${formatSeconds(request.timeoutMs)} (${request.method} ${request.displayPath})`,
          context,
        );
      }
      if (this.closed) {
        throw new MoreLoginAbortError("the MoreLogin client was closed while the call was in flight", context);
      }
      if (request.signal?.aborted) {
        throw new MoreLoginAbortError("the call was cancelled", context);
      }
      throw networkError(request, error, context);
    } finally {
      clearTimeout(timer);
      request.signal?.removeEventListener("abort", onCallerAbort);
      this.inFlight.delete(controller);
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.closing.abort();
    for (const controller of this.inFlight) controller.abort();
    const pools = [...this.pools.values()];
    this.pools.clear();
    await Promise.all(pools.map((pool) => pool.destroy().catch(() => undefined)));
  }

  private pool(origin: string): Dispatcher {
    let pool = this.pools.get(origin);
    if (!pool) {
      const options = { connections: 128, keepAliveTimeout: 10_000, connect: { timeout: 10_000 }, ...this.poolOptions };
      const viaProxy = proxyConfigured() && !isLoopbackHost(new URL(origin).hostname);
      pool = viaProxy ? new EnvHttpProxyAgent(options) : new Pool(origin, options);
      this.pools.set(origin, pool);
    }
    return pool;
  }
}

function errorCode(error: unknown): string | undefined {
  for (let current: unknown = error, depth = 0; current && depth < 4; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string") return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

function networkError(request: RawRequest, error: unknown, context: ErrorContext): MoreLoginNetworkError {
  const code = errorCode(error) ?? "connection failed";
  const notSent = NOT_SENT_CODES.has(code);
  const where = `the ${apiLabel(request.api)} at ${request.origin}`;
  const hint =
    request.api === "local" && code === "ECONNREFUSED"
      ? ": is the MoreLogin desktop client running and logged in, and is the port right?"
      : "";
  return new MoreLoginNetworkError(`cannot reach ${where} (${code})${hint}`, { ...context, notSent }, error);
}

export function formatSeconds(ms: number): string {
  const seconds = ms / 1000;
  return `${Number.isInteger(seconds) ? seconds : seconds.toFixed(1)} s`;
}
