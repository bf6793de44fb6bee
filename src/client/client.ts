import { ENDPOINTS, type EndpointData, type EndpointDefinition, type EndpointName } from "./endpoints";
import { readEnvelope, type ReadResult } from "./envelope";
import { MoreLoginAbortError, MoreLoginAuthError, MoreLoginError, MoreLoginInputError, cancellationError } from "./errors";
import { createRedactor } from "./redact";
import { PreparedBody, prepareBody } from "./request-body";
import { DEFAULT_RETRY, isRetryable, retryDelay, sleep, type Idempotency, type RetryPolicy } from "./retry";
import { TokenCache, type GrantedToken } from "./token-cache";
import { Transport, type RawResponse } from "./transport";
import type { ApiName, CallResult, HttpMethod } from "./types";
import { DEFAULT_LOCAL_URL, DEFAULT_OPEN_URL, checkRelativePath, parseBaseUrl, parseOpenUrl, type BaseUrl } from "./urls";
import { assertNoUnsafeIntegers, isPlainObject } from "./values";

export interface Timeouts {
  /** Ordinary calls (lists, status, generic requests). */
  request: number;
  /** Starting or closing a profile: the desktop client may take many seconds to launch a browser. */
  profile: number;
  /** The Open API token request. */
  token: number;
}

export const DEFAULT_TIMEOUTS: Timeouts = { request: 15_000, profile: 60_000, token: 15_000 };

export interface ClientSettings {
  localUrl?: string;
  /** The desktop client's "Local API Authentication" token, sent as `Authorization: <token>`. */
  localToken?: string;
  openUrl?: string;
  apiId?: string;
  apiKey?: string;
  timeouts?: Partial<Timeouts>;
  retry?: Partial<RetryPolicy>;
  /** Clock for the token cache (tests). */
  now?: () => number;
}

export interface CallOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
}

export interface GenericRequest {
  api: ApiName;
  method: HttpMethod;
  path: string;
  body?: unknown;
}

interface PreparedCall {
  api: ApiName;
  method: HttpMethod;
  path: string;
  /** The body, already JSON. */
  json?: string;
  idempotency: Idempotency;
  timeoutMs: number;
  allowBareJson?: boolean;
}

const USER_AGENT = "node-red-contrib-morelogin";

/** The headers of a call without a body, and of one with a JSON body. */
interface RequestHeaders {
  plain: Record<string, string>;
  json: Record<string, string>;
}

function requestHeaders(authorization?: string): RequestHeaders {
  const plain: Record<string, string> = { accept: "application/json", "user-agent": USER_AGENT };
  if (authorization) plain.authorization = authorization;
  return { plain, json: { ...plain, "content-type": "application/json" } };
}

const TOKEN_HEADERS = requestHeaders();

/** The JSON a known endpoint is sent: a PreparedBody as it is, anything else checked first. */
function jsonBody(endpoint: EndpointName, definition: EndpointDefinition, body: unknown): string {
  if (body instanceof PreparedBody) {
    if (body.endpoint !== endpoint) throw new MoreLoginInputError(`the body was prepared for ${body.endpoint}, not for ${endpoint}`);
    return body.json;
  }
  return JSON.stringify(prepareBody(definition, body ?? {}));
}

/** A timeout in milliseconds: a positive, finite number (undici would take 0 as "no timeout"). */
function checkTimeout(value: unknown, name: string): number {
  if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) {
    throw new MoreLoginInputError(`${name} must be a positive number of milliseconds, got ${String(value)}`);
  }
  return value;
}

/** A generic request's body as JSON, or the input error that says why it cannot be. */
function toJson(body: unknown): string {
  try {
    return JSON.stringify(body);
  } catch (error) {
    throw new MoreLoginInputError(`the request body cannot be sent as JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/**
 * The MoreLogin client: one per set of settings. Talks to the desktop client's Local API and to the
 * Open API, keeps one keep-alive pool per origin and the Open API token in memory.
 */
export class MoreLoginClient {
  readonly local: BaseUrl;
  readonly open: BaseUrl;
  private readonly localToken?: string;
  private readonly apiId?: string;
  private readonly apiKey?: string;
  private readonly timeouts: Timeouts;
  private readonly retry: RetryPolicy;
  private readonly transport = new Transport();
  private readonly tokens: TokenCache;
  private readonly redact: (text: string) => string;
  private lastToken?: string;
  /** Headers are the same for every call of one API (and one token): made once, not per call. */
  private readonly localHeaders: RequestHeaders;
  private openHeadersFor?: { token: string; headers: RequestHeaders };

  constructor(settings: ClientSettings = {}) {
    this.local = parseBaseUrl(settings.localUrl || DEFAULT_LOCAL_URL, "Local API URL");
    this.open = parseOpenUrl(settings.openUrl || DEFAULT_OPEN_URL);
    this.localToken = settings.localToken || undefined;
    this.apiId = settings.apiId || undefined;
    this.apiKey = settings.apiKey || undefined;
    this.timeouts = { ...DEFAULT_TIMEOUTS, ...settings.timeouts };
    for (const [name, value] of Object.entries(this.timeouts)) checkTimeout(value, `timeouts.${name}`);
    this.retry = { ...DEFAULT_RETRY, ...settings.retry };
    this.tokens = new TokenCache(() => this.grantToken(), settings.now);
    this.redact = createRedactor(() => [this.localToken, this.apiKey, this.lastToken]);
    this.localHeaders = requestHeaders(this.localToken);
  }

  /** False when the Local API URL points away from this machine (the desktop client only listens on loopback). */
  get localIsLoopback(): boolean {
    return this.local.loopback;
  }

  get hasOpenCredentials(): boolean {
    return Boolean(this.apiId && this.apiKey);
  }

  get isClosed(): boolean {
    return this.transport.isClosed;
  }

  /**
   * Calls one of the known endpoints; the body is checked against the endpoint's rules first, unless
   * it is a PreparedBody for this endpoint (checked once when it was made).
   */
  async call<K extends EndpointName>(endpoint: K, body?: unknown, options: CallOptions = {}): Promise<CallResult<EndpointData[K]>> {
    const definition: EndpointDefinition = ENDPOINTS[endpoint];
    const result = await this.execute(
      {
        api: definition.api,
        method: definition.method,
        path: definition.path,
        json: definition.method === "POST" ? jsonBody(endpoint, definition, body) : undefined,
        idempotency: definition.idempotency,
        timeoutMs: options.timeoutMs === undefined ? (definition.slow ? this.timeouts.profile : this.timeouts.request) : checkTimeout(options.timeoutMs, "timeoutMs"),
      },
      options.signal,
    );
    return { data: result.data as EndpointData[K], api: definition.api, path: definition.path, requestId: result.requestId };
  }

  /**
   * Any endpoint of either API. The path must be relative to the API's base URL; GET calls are
   * retried like reads, POST calls only when they provably never reached the server.
   */
  async request(request: GenericRequest, options: CallOptions = {}): Promise<CallResult<unknown>> {
    if (request.api !== "local" && request.api !== "open") throw new MoreLoginInputError('api must be "local" or "open"');
    if (request.method !== "GET" && request.method !== "POST") throw new MoreLoginInputError('method must be "GET" or "POST"');
    const path = checkRelativePath(request.path);
    let json: string | undefined;
    if (request.method === "POST") {
      const given = request.body ?? {};
      if (!isPlainObject(given) && !Array.isArray(given)) {
        throw new MoreLoginInputError("the request body must be a JSON object or array");
      }
      assertNoUnsafeIntegers(given);
      json = toJson(given);
    }
    const result = await this.execute(
      {
        api: request.api,
        method: request.method,
        path,
        json,
        idempotency: request.method === "GET" ? "read" : "write",
        timeoutMs: options.timeoutMs === undefined ? this.timeouts.request : checkTimeout(options.timeoutMs, "timeoutMs"),
        allowBareJson: true,
      },
      options.signal,
    );
    return { data: result.data, api: request.api, path, requestId: result.requestId };
  }

  /** Ends every socket, timer and call in flight; later calls fail at once. */
  async close(): Promise<void> {
    this.tokens.clear();
    await this.transport.close();
  }

  /** The first attempt, and retries only once it failed (the common case stays one promise deep). */
  private execute(call: PreparedCall, signal?: AbortSignal): Promise<ReadResult> {
    return this.attempt(call, signal).catch((error: unknown) => this.retryFailed(call, signal, error));
  }

  private async retryFailed(call: PreparedCall, signal: AbortSignal | undefined, firstError: unknown): Promise<ReadResult> {
    let error = firstError;
    for (let attempt = 0; ; attempt++) {
      const last = attempt + 1 >= this.retry.attempts;
      if (last || this.transport.isClosed || !isRetryable(error, call.idempotency)) throw error;
      const delay = retryDelay(error, attempt, this.retry);
      if (delay > this.retry.maxRetryAfterMs) throw error;
      await this.backOff(delay, signal);
      try {
        return await this.attempt(call, signal);
      } catch (next) {
        error = next;
      }
    }
  }

  private async backOff(delay: number, signal?: AbortSignal): Promise<void> {
    const closed = this.transport.closedSignal;
    try {
      await sleep(delay, signal ? AbortSignal.any([signal, closed]) : closed);
    } catch (error) {
      if (closed.aborted) throw new MoreLoginAbortError("the MoreLogin client was closed while the call waited to retry", {});
      if (signal?.aborted) throw cancellationError(signal, {}, "the call was cancelled while waiting to retry");
      throw error;
    }
  }

  /** One attempt; on the Open API a refused token is dropped and the call sent once more with a new one. */
  private attempt(call: PreparedCall, signal?: AbortSignal): Promise<ReadResult> {
    if (call.api === "open") return this.attemptOpen(call, signal);
    return this.send(call, this.localHeaders, signal).then((response) => this.read(call, response));
  }

  private async attemptOpen(call: PreparedCall, signal?: AbortSignal): Promise<ReadResult> {
    for (let tokenTry = 0; ; tokenTry++) {
      const token = this.tokens.current() ?? (await this.waitForToken(call, signal));
      const response = await this.send(call, this.openHeaders(token), signal);
      if (response.status !== 401) return this.read(call, response);
      this.tokens.invalidate(token);
      if (tokenTry >= 1) {
        throw new MoreLoginAuthError("the Open API refused a freshly issued token (HTTP 401): check the API ID's permissions", {
          api: call.api,
          method: call.method,
          path: call.path,
          status: 401,
        });
      }
    }
  }

  /**
   * The token that is being fetched (one request, shared by every waiting call). A call whose own
   * signal fires stops waiting at once; the token request goes on for the others.
   */
  private waitForToken(call: PreparedCall, signal?: AbortSignal): Promise<string> {
    const pending = this.tokens.get();
    if (!signal) return pending;
    const context = { api: call.api, method: call.method, path: call.path, notSent: true };
    if (signal.aborted) return Promise.reject(cancellationError(signal, context));
    return new Promise((resolve, reject) => {
      const onAbort = (): void => reject(cancellationError(signal, context));
      signal.addEventListener("abort", onAbort, { once: true });
      pending.then(
        (token) => {
          signal.removeEventListener("abort", onAbort);
          resolve(token);
        },
        (error: unknown) => {
          signal.removeEventListener("abort", onAbort);
          reject(error);
        },
      );
    });
  }

  private send(call: PreparedCall, headers: RequestHeaders, signal?: AbortSignal): Promise<RawResponse> {
    const base = call.api === "local" ? this.local : this.open;
    return this.transport.send({
      api: call.api,
      origin: base.origin,
      method: call.method,
      path: base.basePath + call.path,
      displayPath: call.path,
      headers: call.json === undefined ? headers.plain : headers.json,
      body: call.json,
      timeoutMs: call.timeoutMs,
      signal,
    });
  }

  /** The Open API's headers for one token, made again only when the token changes. */
  private openHeaders(token: string): RequestHeaders {
    if (this.openHeadersFor?.token !== token) this.openHeadersFor = { token, headers: requestHeaders(`Bearer ${token}`) };
    return this.openHeadersFor.headers;
  }

  private read(call: PreparedCall, response: RawResponse): ReadResult {
    return readEnvelope(response, {
      api: call.api,
      method: call.method,
      path: call.path,
      allowBareJson: call.allowBareJson,
      redact: this.redact,
    });
  }

  private async grantToken(): Promise<GrantedToken> {
    if (!this.apiId || !this.apiKey) {
      throw new MoreLoginAuthError("the Open API needs an API ID and API Key in the MoreLogin config node", {
        api: "open",
        path: "/oauth2/token",
        notSent: true,
      });
    }
    const call: PreparedCall = {
      api: "open",
      method: "POST",
      path: "/oauth2/token",
      json: JSON.stringify({ client_id: this.apiId, client_secret: this.apiKey, grant_type: "client_credentials" }),
      idempotency: "read",
      timeoutMs: this.timeouts.token,
    };
    let data: unknown;
    try {
      data = this.read(call, await this.send(call, TOKEN_HEADERS)).data;
    } catch (error) {
      throw tokenError(error);
    }
    const accessToken = (data as { access_token?: unknown } | null)?.access_token;
    const expiresIn = Number((data as { expires_in?: unknown } | null)?.expires_in);
    if (typeof accessToken !== "string" || accessToken === "" || !Number.isFinite(expiresIn) || expiresIn <= 0) {
      throw new MoreLoginAuthError("Open API token request failed: the reply has no usable access_token and expires_in", {
        api: "open",
        path: call.path,
      });
    }
    this.lastToken = accessToken;
    return { accessToken, expiresInSeconds: expiresIn };
  }
}

/**
 * Credentials refused is final. Any other failure (network, 5xx, an unreadable reply) keeps its kind
 * and is marked as never sent, because the call that needed the token has not gone out yet.
 */
function tokenError(error: unknown): unknown {
  if (!(error instanceof MoreLoginError)) return error;
  const context = {
    api: "open" as const,
    method: "POST",
    path: "/oauth2/token",
    status: error.status,
    code: error.code,
    apiMsg: error.apiMsg,
    requestId: error.requestId,
    retryAfterMs: error.retryAfterMs,
  };
  const refused = error.status === 401 || error.status === 403 || (error.kind === "api" && error.status === 200);
  if (refused) {
    return new MoreLoginAuthError(`Open API token request failed: ${error.message}: check the API ID and API Key`, context);
  }
  return new MoreLoginError(error.kind, `Open API token request failed: ${error.message}`, { ...context, notSent: true }, { cause: error });
}
