import { authCallError } from "./auth-errors";
import { ApiGate } from "./api-gate";
import { capacityStage, concurrencyStage, gateStage, sendAndRead } from "./call-stages";
import type { CapacityKind, CapacityUsage } from "./capacity";
import { Capacities, DEFAULT_CAPACITY, type CapacitySettings } from "./capacity-calls";
import { ConcurrencyLimit } from "./concurrency";
import { authStage } from "./auth-stage";
import { ENDPOINTS, endpointAt, endpointNameOf, pathOn, type EndpointData, type EndpointDefinition, type EndpointName } from "./endpoints";
import { MoreLoginAuthError, MoreLoginInputError, messageOf } from "./errors";
import { leaseBookFor, leaseStage } from "./lease-calls";
import type { LeaseBook } from "./leases";
import { LocalLogin, loginStage, serverLogin } from "./local-login";
import { observedWire, type ClientObserver } from "./observer";
import { createRedactor } from "./redact";
import type { ReadResult } from "./reply-reader";
import { RunningProfilesReader } from "./running-profiles";
import { runningReaders } from "./running-sets";
import { bodyJson, PreparedBody, prepareBody } from "./request-body";
import { DEFAULT_RETRY, type RetryPolicy } from "./retry";
import { retryStage } from "./retry-stage";
import { chain, exchangeFor, type CallOptions, type PreparedCall, type Send, type Stage } from "./stages";
import { TokenCache, type GrantedToken } from "./token-cache";
import { Transport, apiLabel } from "./transport";
import type { ApiName, CallResult, HttpMethod } from "./types";
import { DEFAULT_LOCAL_URL, DEFAULT_OPEN_URL, checkRelativePath, parseBaseUrl, parseOpenUrl, type BaseUrl } from "./urls";
import { assertNoUnsafeIntegers, isPlainObject } from "./values";

export type { CallOptions } from "./stages";

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
  /**
   * MoreLogin's server edition: log in to the Local API with `apiId` and `apiKey` before the first
   * Local call, and again once when a reply says the client is not logged in (default false).
   */
  localLogin?: boolean;
  /** Hears each request and each wait for pacing (metrics). */
  observer?: ClientObserver;
  /** Clock for the token cache (tests). */
  now?: () => number;
}

export interface GenericRequest {
  api: ApiName;
  method: HttpMethod;
  path: string;
  body?: unknown;
  /** The whole reply as data, a non-zero code included, instead of the reply's `data`. */
  wholeReply?: boolean;
}

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
 * Open API, keeps one keep-alive pool per origin and the Open API token in memory. Every call passes
 * through the stages listed in the constructor, in order, and ends on the wire.
 */
export class MoreLoginClient {
  readonly local: BaseUrl;
  readonly open: BaseUrl;
  /** Whether the client logs in to MoreLogin's server edition before Local calls. */
  readonly localLogin: boolean;
  private readonly apiId?: string;
  private readonly apiKey?: string;
  private readonly timeouts: Timeouts;
  private readonly transport = new Transport();
  private readonly capacities: Capacities;
  private readonly gates: Record<ApiName, ApiGate>;
  /** The one reader of the running profiles: the caps, the leases and every profiles watch share its reads. */
  readonly runningProfiles: RunningProfilesReader;
  /** What this client started and still holds, with the leases that close it. */
  readonly leases: LeaseBook;
  private readonly tokens: TokenCache;
  private readonly login?: LocalLogin;
  private lastToken?: string;
  /** A call's way: leases, capacity, concurrency, retry, credentials, the login, pacing, then the wire. */
  private readonly send: Send;
  /** The way of the token request and the login: pacing, then the wire. */
  private readonly sendDirect: Send;

  constructor(settings: ClientSettings = {}) {
    this.local = parseBaseUrl(settings.localUrl || DEFAULT_LOCAL_URL, "Local API URL");
    this.open = parseOpenUrl(settings.openUrl || DEFAULT_OPEN_URL);
    const localToken = settings.localToken || undefined;
    this.apiId = settings.apiId || undefined;
    this.apiKey = settings.apiKey || undefined;
    this.localLogin = settings.localLogin === true;
    this.timeouts = { ...DEFAULT_TIMEOUTS, ...settings.timeouts };
    for (const [name, value] of Object.entries(this.timeouts)) checkTimeout(value, `timeouts.${name}`);
    const retry = { ...DEFAULT_RETRY, ...settings.retry };
    const pacing = { ...DEFAULT_PACING, ...settings.pacing };
    for (const [name, value] of Object.entries(pacing)) checkPacing(value, name);
    const closed = this.transport.closedSignal;
    const gates = { local: new ApiGate(pacing.localRpm, closed), open: new ApiGate(pacing.openRpm, closed) };
    this.gates = gates;
    const capacity = { ...DEFAULT_CAPACITY, ...settings.capacity };
    for (const [name, value] of Object.entries(capacity)) checkPacing(value, name);
    this.runningProfiles = new RunningProfilesReader(() => this.call("runningProfiles", {}, { signal: closed }));
    this.leases = leaseBookFor(this, this.runningProfiles, closed);
    this.capacities = new Capacities(capacity, runningReaders(this, closed), closed);
    this.runningProfiles.onAnswer((answer) => this.capacities.observed("profiles", answer));
    this.tokens = new TokenCache(() => this.grantToken(), settings.now);
    const redact = createRedactor(() => [localToken, this.apiKey, this.lastToken]);

    const read = sendAndRead(this.transport, { local: this.local, open: this.open }, redact);
    const wire = settings.observer ? observedWire(read, settings.observer) : read;
    const gate = gateStage(gates, settings.observer);
    this.sendDirect = chain([gate], wire);
    if (this.localLogin) this.login = new LocalLogin(serverLogin({ apiId: this.apiId, apiKey: this.apiKey }, this.sendDirect, this.timeouts.token));
    const stages: Stage[] = [
      leaseStage(this.leases),
      capacityStage(this.capacities),
      concurrencyStage(new ConcurrencyLimit(pacing.concurrency, closed)),
      retryStage(retry, gates, closed),
      authStage(localToken, this.tokens),
      ...(this.login ? [loginStage(this.login)] : []),
      gate,
    ];
    this.send = chain(stages, wire);
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
        endpoint,
        json: definition.method === "POST" ? jsonBody(endpoint, definition, body) : undefined,
        idempotency: definition.idempotency,
        timeoutMs: this.timeoutFor(options, definition),
        limited: definition.limited,
        capacity: definition.capacity,
        replyFields: definition.replyFields,
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
        endpoint: known ? endpointNameOf(known) : undefined,
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

  /**
   * Logs in to MoreLogin's server edition now (the config dialog's Test connection), even when a
   * login holds; rejects with the reason (kind `auth` when the server refused it).
   */
  async logIn(): Promise<void> {
    if (!this.login) throw new MoreLoginInputError("the server login is off in this MoreLogin config node");
    await this.login.renew();
  }

  /** The default timeout of a call: the caller's, else the endpoint's own, else the ordinary one. */
  timeoutFor(options: CallOptions, definition?: EndpointDefinition): number {
    if (options.timeoutMs !== undefined) return checkTimeout(options.timeoutMs, "timeoutMs");
    return definition?.timeoutMs ?? this.timeouts.request;
  }

  /** Ends every socket, timer and call in flight; later calls fail at once. */
  async close(): Promise<void> {
    this.tokens.clear();
    this.login?.clear();
    await this.transport.close();
  }

  /** The requests a minute this client lets through to `api` (0 = no pacing): the budget a batch's ETA knows. */
  requestsPerMinute(api: ApiName): number {
    return this.gates[api].requestsPerMinute;
  }

  /** How full the config node's cap on running profiles or phones is (limit 0 = no cap). */
  capacityUsage(kind: CapacityKind): CapacityUsage {
    return this.capacities.usage(kind);
  }

  private execute(call: PreparedCall, options: CallOptions): Promise<ReadResult> {
    return this.send(exchangeFor(call, options));
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
      endpoint: "token",
      json: JSON.stringify({ client_id: this.apiId, client_secret: this.apiKey, grant_type: "client_credentials" }),
      idempotency: "read",
      timeoutMs: this.timeouts.token,
    };
    let data: unknown;
    try {
      data = (await this.sendDirect(exchangeFor(call, {}))).data;
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

/** Credentials refused is final; any other failure keeps its kind and is marked as never sent (see authCallError). */
function tokenError(error: unknown): unknown {
  return authCallError(
    error,
    { api: "open", path: "/oauth2/token" },
    (refused) => `Open API token request failed: ${refused.message}: check the API ID and API Key`,
    (failed) => `Open API token request failed: ${failed.message}`,
  );
}
