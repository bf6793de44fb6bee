import { ApiGate } from "./api-gate";
import type { CapacityKind, CapacityRole, CapacityUsage } from "./capacity";
import { Capacities, DEFAULT_CAPACITY, type CapacitySettings } from "./capacity-calls";
import { ConcurrencyLimit } from "./concurrency";
import { ENDPOINTS, endpointAt, pathOn, type EndpointData, type EndpointDefinition, type EndpointName } from "./endpoints";
import { readEnvelope, type ReadResult } from "./reply-reader";
import { MoreLoginAbortError, MoreLoginAuthError, MoreLoginError, MoreLoginInputError, MoreLoginRateLimitError, cancellationError, messageOf } from "./errors";
import { createRedactor } from "./redact";
import { leaseBookFor, noteCall } from "./lease-calls";
import type { LeaseBook } from "./leases";
import { RunningProfilesReader } from "./running-profiles";
import { runningReaders } from "./running-sets";
import { bodyJson, PreparedBody, prepareBody } from "./request-body";
import { DEFAULT_RETRY, isRateLimit, isRetryable, retryDelay, sleep, type Idempotency, type RetryPolicy } from "./retry";
import { TokenCache, type GrantedToken } from "./token-cache";
import { Transport, apiLabel, type RawResponse } from "./transport";
import type { ApiName, CallResult, HttpMethod } from "./types";
import { DEFAULT_LOCAL_URL, DEFAULT_OPEN_URL, checkRelativePath, parseBaseUrl, parseOpenUrl, type BaseUrl } from "./urls";
import { assertNoUnsafeIntegers, isPlainObject } from "./values";
import type { WaitOptions } from "./wait-queue";

export interface Timeouts {
  /** Calls without a timeout of their own (lists, status, most generic requests); see ENDPOINTS for the long ones. */
  request: number;
  /** The Open API token request. */
  token: number;
}

export const DEFAULT_TIMEOUTS: Timeouts = { request: 15_000, token: 15_000 };

/** How many requests the client lets through, per API and for long operations. */
export interface Pacing {
  /** Requests per minute to the Local API (0 = no pacing). MoreLogin allows 120. */
  localRpm: number;
  /** Requests per minute to the Open API (0 = no pacing). MoreLogin allows 120 per account. */
  openRpm: number;
  /** Profile starts and cloud-phone power-ons in flight at once (0 = no limit). */
  concurrency: number;
}

export const DEFAULT_PACING: Pacing = { localRpm: 120, openRpm: 120, concurrency: 5 };

export interface ClientSettings {
  localUrl?: string;
  /** The desktop client's "Local API Authentication" token, sent as `Authorization: <token>`. */
  localToken?: string;
  openUrl?: string;
  apiId?: string;
  apiKey?: string;
  timeouts?: Partial<Timeouts>;
  pacing?: Partial<Pacing>;
  /** Profiles running and cloud phones powered on at once (default: no limit). */
  capacity?: Partial<CapacitySettings>;
  retry?: Partial<RetryPolicy>;
  /** Clock for the token cache (tests). */
  now?: () => number;
}

export interface CallOptions extends WaitOptions {
  /** How long each attempt waits for an answer; time spent queued does not count. Default: the call's own. */
  timeoutMs?: number;
  /** For an endpoint that both APIs have: which one to call (default: the endpoint's own). */
  api?: ApiName;
}

export interface GenericRequest {
  api: ApiName;
  method: HttpMethod;
  path: string;
  body?: unknown;
  /** The whole reply as data, a non-zero code included, instead of the reply's `data`. */
  wholeReply?: boolean;
}

interface PreparedCall {
  api: ApiName;
  method: HttpMethod;
  path: string;
  /** The body, already JSON. */
  json?: string;
  idempotency: Idempotency;
  timeoutMs: number;
  limited?: boolean;
  capacity?: CapacityRole;
  allowBareJson?: boolean;
  wholeReply?: boolean;
}

const DELETE_PROFILES = ENDPOINTS.deleteProfiles.path;
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
  return bodyJson(definition, prepareBody(definition, body ?? {}));
}

/** A pacing setting: a whole number, 0 or more. */
function checkPacing(value: unknown, name: string): number {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) {
    throw new MoreLoginInputError(`${name} must be a whole number, 0 or more, got ${String(value)}`);
  }
  return value;
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
    throw new MoreLoginInputError(`the request body cannot be sent as JSON: ${messageOf(error)}`);
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
  private readonly gates: Record<ApiName, ApiGate>;
  private readonly concurrency: ConcurrencyLimit;
  private readonly capacities: Capacities;
  /** The one reader of the running profiles: the caps, the leases and every profiles watch share its reads. */
  readonly runningProfiles: RunningProfilesReader;
  /** What this client started and still holds, with the leases that close it. */
  readonly leases: LeaseBook;
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
    const pacing = { ...DEFAULT_PACING, ...settings.pacing };
    for (const [name, value] of Object.entries(pacing)) checkPacing(value, name);
    const closed = this.transport.closedSignal;
    this.gates = { local: new ApiGate(pacing.localRpm, closed), open: new ApiGate(pacing.openRpm, closed) };
    this.concurrency = new ConcurrencyLimit(pacing.concurrency, closed);
    const capacity = { ...DEFAULT_CAPACITY, ...settings.capacity };
    for (const [name, value] of Object.entries(capacity)) checkPacing(value, name);
    this.runningProfiles = new RunningProfilesReader(() => this.call("runningProfiles", {}, { signal: closed }));
    this.leases = leaseBookFor(this, this.runningProfiles, closed);
    this.capacities = new Capacities(capacity, runningReaders(this, closed), closed);
    this.runningProfiles.onAnswer((answer) => this.capacities.observed("profiles", answer));
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
    const api = options.api ?? definition.api;
    const path = pathOn(definition, api);
    if (path === undefined) throw new MoreLoginInputError(`the ${apiLabel(api)} has no ${definition.path}`);
    const result = await this.execute(
      {
        api,
        method: definition.method,
        path,
        json: definition.method === "POST" ? jsonBody(endpoint, definition, body) : undefined,
        idempotency: definition.idempotency,
        timeoutMs: this.timeoutFor(options, definition),
        limited: definition.limited,
        capacity: definition.capacity,
      },
      options,
    );
    return { data: result.data as EndpointData[K], api, path, requestId: result.requestId };
  }

  /**
   * Any endpoint of either API. The path must be relative to the API's base URL. A path the client
   * knows (ENDPOINTS) gets that endpoint's timeout, retries and concurrency limit; any other GET is
   * retried like a read, any other POST only when it provably never reached the server.
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
    const known = endpointAt(request.api, request.method, path);
    const result = await this.execute(
      {
        api: request.api,
        method: request.method,
        path,
        json,
        idempotency: known?.idempotency ?? (request.method === "GET" ? "read" : "write"),
        timeoutMs: this.timeoutFor(options, known),
        limited: known?.limited,
        capacity: known?.capacity,
        allowBareJson: true,
        wholeReply: request.wholeReply,
      },
      options,
    );
    return { data: result.data, api: request.api, path, requestId: result.requestId };
  }

  /** The default timeout of a call: the caller's, else the endpoint's own, else the ordinary one. */
  timeoutFor(options: CallOptions, definition?: EndpointDefinition): number {
    if (options.timeoutMs !== undefined) return checkTimeout(options.timeoutMs, "timeoutMs");
    return definition?.timeoutMs ?? this.timeouts.request;
  }

  /** Ends every socket, timer and call in flight; later calls fail at once. */
  async close(): Promise<void> {
    this.tokens.clear();
    await this.transport.close();
  }

  /** How full the config node's cap on running profiles or phones is (limit 0 = no cap). */
  capacityUsage(kind: CapacityKind): CapacityUsage {
    return this.capacities.usage(kind);
  }

  /** A start first waits for a free profile or phone under the caps, then for its place under `concurrency`. */
  private execute(call: PreparedCall, options: CallOptions): Promise<ReadResult> {
    const result = this.capacities.run(call, options, () => this.limited(call, options));
    // The lease hook: a start, close, power or delete that went through is entered in the lease book.
    return call.capacity || call.path === DELETE_PROFILES ? result.then((read) => noteCall(this.leases, call, read)) : result;
  }

  /** A long operation first waits for its place under `concurrency`, then goes like any call. */
  private async limited(call: PreparedCall, options: CallOptions): Promise<ReadResult> {
    if (!call.limited) return this.attempts(call, options);
    const release = await this.concurrency.acquire(options, call);
    try {
      return await this.attempts(call, options);
    } finally {
      release();
    }
  }

  /** The first attempt, and retries only once it failed (the common case stays one promise deep). */
  private attempts(call: PreparedCall, options: CallOptions): Promise<ReadResult> {
    return this.attempt(call, options).catch((error: unknown) => this.retryFailed(call, options, error));
  }

  /**
   * A rate-limit refusal holds every call to that API and is sent again, at the head of the queue,
   * up to `retry.refusals` times in a row; other failures are retried as `isRetryable` allows.
   */
  private async retryFailed(call: PreparedCall, options: CallOptions, firstError: unknown): Promise<ReadResult> {
    let failures = 0;
    let refusals = 0;
    for (let error = firstError; ; ) {
      if (this.transport.isClosed) throw error;
      let refused = false;
      if (isRateLimit(error)) {
        refused = true;
        refusals++;
        // The API asked for a pause: the other calls to it keep to it even when this one gives up.
        this.gates[call.api].refused(error.retryAfterMs, this.retry.maxRateLimitWaitMs);
        if (refusals >= this.retry.refusals) throw gaveUp(error, refusals);
      } else {
        refusals = 0;
        failures++;
        if (failures >= this.retry.attempts || !isRetryable(error, call.idempotency)) throw error;
        const delay = retryDelay(error, failures - 1, this.retry);
        if (delay > this.retry.maxRateLimitWaitMs) throw error;
        await this.backOff(delay, options.signal);
      }
      try {
        return await this.attempt(call, options, refused);
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
  private attempt(call: PreparedCall, options: CallOptions, first = false): Promise<ReadResult> {
    if (call.api === "open") return this.attemptOpen(call, options, first);
    return this.through(call, this.localHeaders, options, first).then((response) => this.read(call, response));
  }

  private async attemptOpen(call: PreparedCall, options: CallOptions, first: boolean): Promise<ReadResult> {
    for (let tokenTry = 0; ; tokenTry++) {
      const token = this.tokens.current() ?? (await this.waitForToken(call, options.signal));
      const response = await this.through(call, this.openHeaders(token), options, first);
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

  /** Sends one request once the API's gate lets it through (pacing, a rate-limit hold), and tells the gate when it is over. */
  private through(call: PreparedCall, headers: RequestHeaders, options: CallOptions, first: boolean): Promise<RawResponse> {
    const gate = this.gates[call.api];
    const go = (): Promise<RawResponse> => this.send(call, headers, options.signal).finally(() => gate.leave());
    const waiting = gate.enter(options, first, call);
    return waiting ? waiting.then(go) : go();
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
      wholeReply: call.wholeReply,
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
      data = this.read(call, await this.through(call, TOKEN_HEADERS, {}, false)).data;
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

/** The refusal after which a call stops trying: the API's own words, and how often it refused. */
function gaveUp(error: MoreLoginError, refusals: number): MoreLoginRateLimitError {
  const times = refusals === 1 ? "once" : `${refusals} times in a row`;
  return new MoreLoginRateLimitError(`${error.message}: refused ${times} as too frequent, so the call gives up`, {
    api: error.api,
    method: error.method,
    path: error.path,
    status: error.status,
    code: error.code,
    apiMsg: error.apiMsg,
    requestId: error.requestId,
    retryAfterMs: error.retryAfterMs,
    notSent: true,
  });
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
