import { setMaxListeners } from "node:events";
import { EnvHttpProxyAgent, Pool, type Dispatcher } from "undici";
import { MoreLoginAbortError, MoreLoginNetworkError, cancellationError, MoreLoginResponseError, MoreLoginTimeoutError, type ErrorContext, type MoreLoginError } from "./errors";
import type { ApiName, HttpMethod } from "./types";
import { Exchange, ReplyTooLargeError } from "./exchange";
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
  /** Fails the call when no answer starts within this time, or the answer stalls for this long. */
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

/** Where calls to one origin go: a keep-alive pool, or the proxy agent for remote hosts. */
interface Route {
  dispatcher: Dispatcher;
  viaProxy: boolean;
}

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
  private readonly routes = new Map<string, Route>();
  private readonly closing = new AbortController();
  private readonly bySignal = new WeakMap<AbortSignal, Set<Exchange>>();
  private closed = false;

  constructor(private readonly poolOptions: Pool.Options = {}) {
    // Every call waiting to retry listens for close(): many at once is normal, not a leak, and
    // must not print "Possible EventTarget memory leak detected" into the user's log.
    setMaxListeners(0, this.closing.signal);
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Fires when close() is called, so waits outside a request (retry backoff) end too. */
  get closedSignal(): AbortSignal {
    return this.closing.signal;
  }

  send(request: RawRequest): Promise<RawResponse> {
    if (this.closed) return Promise.reject(new MoreLoginAbortError("the MoreLogin client is closed", { ...contextOf(request), notSent: true }));
    const { signal } = request;
    if (signal?.aborted) return Promise.reject(cancellationError(signal, { ...contextOf(request), notSent: true }));

    // A dispatch handler rather than undici's request(): no stream and no abort listener per call
    // (one listener per caller signal, see exchangesOf), and undici's own timers for the timeout.
    // Both measurably slowed the hot path. close() destroys the pools, which ends every exchange.
    let route: Route;
    try {
      route = this.route(request.origin);
    } catch (error) {
      return Promise.reject(this.failure(request, error));
    }
    return new Promise<RawResponse>((resolve, reject) => {
      const exchanges = signal ? this.exchangesOf(signal) : undefined;
      const exchange = new Exchange(
        resolve,
        (error) => reject(this.failure(request, error)),
        (settled) => exchanges?.delete(settled),
      );
      exchanges?.add(exchange);
      route.dispatcher.dispatch(
        {
          origin: request.origin,
          method: request.method,
          path: request.path,
          // undici's proxy agent writes a host header into the object it is given: it gets a copy,
          // so the client's shared header objects stay as they are.
          headers: route.viaProxy ? { ...request.headers } : request.headers,
          body: request.body,
          headersTimeout: request.timeoutMs,
          bodyTimeout: request.timeoutMs,
        },
        exchange,
      );
    });
  }

  /** The exchanges in flight for one caller signal, which aborts them all with one listener. */
  private exchangesOf(signal: AbortSignal): Set<Exchange> {
    let exchanges = this.bySignal.get(signal);
    if (!exchanges) {
      const watched = new Set<Exchange>();
      signal.addEventListener(
        "abort",
        () => {
          for (const exchange of watched) exchange.cancel(new Error("the call was cancelled"));
        },
        { once: true },
      );
      this.bySignal.set(signal, watched);
      exchanges = watched;
    }
    return exchanges;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.closing.abort();
    const routes = [...this.routes.values()];
    this.routes.clear();
    await Promise.all(routes.map((route) => route.dispatcher.destroy().catch(() => undefined)));
  }

  /** The typed error for a call that did not get its whole answer. */
  private failure(request: RawRequest, error: unknown): MoreLoginError {
    const context = contextOf(request);
    const code = errorCode(error);
    if (code === "UND_ERR_HEADERS_TIMEOUT") {
      return new MoreLoginTimeoutError(`no answer from the ${apiLabel(request.api)} within ${formatSeconds(request.timeoutMs)} (${request.method} ${request.displayPath})`, context);
    }
    if (code === "UND_ERR_BODY_TIMEOUT") {
      return new MoreLoginTimeoutError(`the ${apiLabel(request.api)} stopped sending its answer for ${formatSeconds(request.timeoutMs)} (${request.method} ${request.displayPath})`, context);
    }
    if (error instanceof ReplyTooLargeError) {
      return new MoreLoginResponseError(`the ${apiLabel(request.api)} sent a reply that is too large: ${error.message} (${request.method} ${request.displayPath})`, context);
    }
    if (request.signal?.aborted) return cancellationError(request.signal, context);
    if (this.closed) return new MoreLoginAbortError("the MoreLogin client was closed while the call was in flight", context);
    return networkError(request, error, context);
  }

  private route(origin: string): Route {
    let route = this.routes.get(origin);
    if (!route) {
      const options = { connections: 128, keepAliveTimeout: 10_000, connect: { timeout: 10_000 }, ...this.poolOptions };
      const viaProxy = proxyConfigured() && !isLoopbackHost(new URL(origin).hostname);
      route = { dispatcher: viaProxy ? new EnvHttpProxyAgent(options) : new Pool(origin, options), viaProxy };
      this.routes.set(origin, route);
    }
    return route;
  }
}

function contextOf(request: RawRequest): ErrorContext {
  return { api: request.api, method: request.method, path: request.displayPath };
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
  const hint = request.api === "local" && code === "ECONNREFUSED" ? ": is the MoreLogin desktop client running and logged in, and is the port right?" : "";
  return new MoreLoginNetworkError(`cannot reach ${where} (${code})${hint}`, { ...context, notSent }, error);
}

export function formatSeconds(ms: number): string {
  const seconds = ms / 1000;
  return `${Number.isInteger(seconds) ? seconds : seconds.toFixed(1)} s`;
}
