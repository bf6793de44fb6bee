/** Public types of the MoreLogin API emulator. Nothing here knows Node-RED exists. */

export type ApiName = "local" | "open";

/** A fault the emulator can inject instead of (or before) a normal answer. */
export type FaultKind =
  | "latency" // delay the normal answer by `latencyMs`
  | "http503" // HTTP 503 with a JSON envelope {code: 503, ...}
  | "http502html" // HTTP 502 with an HTML error page (as a reverse proxy would send)
  | "reset" // destroy the socket without answering
  | "malformed" // HTTP 200 with a body that is not valid JSON
  | "tooMany" // HTTP 429 with Retry-After and the {code: 429} envelope
  | "rateLimited" // the published rate-limit answer: HTTP 429 {code: 429, msg: "Rate limit exceeded"}, no Retry-After
  | "hang" // accept the request and never answer (until the emulator closes)
  | "tokenFailure" // Open API /oauth2/token answers HTTP 500 {code: 500}
  | "echo"; // HTTP 500 {code: 500} whose msg repeats the request as received: method, path, headers, body

/** Random faults, each with a probability in [0, 1]. All default to 0 (off). */
export interface FaultRates {
  http503?: number;
  http502html?: number;
  reset?: number;
  malformed?: number;
  tooMany?: number;
  rateLimited?: number;
  hang?: number;
  /**
   * Probability that the answer echoes the request (headers, credentials included, and body) in its
   * `msg`, as a careless server might: for testing that a client keeps secrets out of its errors.
   */
  echo?: number;
  /** Probability that a token grant fails. */
  tokenFailure?: number;
  /** Random extra latency added to every answer, uniformly in [min, max] milliseconds. */
  latencyMs?: [number, number];
  /** Retry-After seconds sent with injected `tooMany` 429s (default 1; may be fractional, sent rounded up). */
  retryAfterSeconds?: number;
}

/** A scripted fault: the next `times` requests matching `api` and `path` get `kind`. */
export interface ScriptedFault {
  kind: FaultKind;
  api?: ApiName;
  /** Exact path such as "/api/env/page"; omitted means any path. */
  path?: string;
  times?: number; // default 1
  latencyMs?: number; // for kind "latency"
  retryAfterSeconds?: number; // for kind "tooMany"
}

/** Where an emulated proxy's traffic seems to come from: what its IP-echo route reports. */
export interface ProxyExit {
  ip: string;
  /** ISO 3166-1 alpha-2, as the proxy rows' `countryCode`. */
  country: string;
  /** IANA time zone. */
  timezone: string;
}

/** How an emulated proxy misbehaves; a field left out means as its row says (alive, at once, its own exit). */
export interface ProxyCondition {
  /** Refuses connections: nothing listens on its port. */
  dead?: boolean;
  /** Waits this long on each new connection before it answers, in ms. */
  delayMs?: number;
  /** Exits elsewhere: these fields replace the row's. */
  exit?: Partial<ProxyExit>;
}

export type ProxyProtocol = "http" | "https" | "socks5";

/** One of the emulator's loopback proxies, as `emulatedProxies()` and GET /emulator/proxies show it. */
export interface EmulatedProxy {
  id: string;
  proxyName: string;
  protocol: ProxyProtocol;
  port: number;
  /** The emulator's fake credentials, which the lists withhold (as MoreLogin's do); null when the proxy takes anyone. */
  credentials: { username: string; password: string } | null;
  exit: ProxyExit;
  condition: ProxyCondition;
}

export interface EmulatorOptions {
  host?: string; // default "127.0.0.1"
  localPort?: number; // default 0 (the OS chooses); the CLI defaults to 40100
  openPort?: number; // default 0; the CLI defaults to 40101
  /** The IP-echo route's port (`GET /ip`): default 0; the CLI defaults to the Local port + 2 (40102) when that is free. */
  echoPort?: number;
  /** Emulated proxies that start dead, slow or exiting elsewhere, by proxy ID or name (docs/EMULATOR.md). */
  proxyConditions?: Record<string, ProxyCondition>;
  /** When set, every Local API request must carry `Authorization: <localToken>` exactly. */
  localToken?: string;
  apiId?: string; // Open API client_id; default "1690000000000001"
  apiKey?: string; // Open API client_secret; default "emulator-api-key"
  tokenLifetimeSeconds?: number; // default 3600
  seed?: number; // default 1
  profiles?: number; // default 25
  cloudPhones?: number; // default 12
  /**
   * How many seeded cloud phones are powered on (envStatus 4) at start: the first ones of the list (Phone 001,
   * Phone 002, ...), the others powered off (2). Undefined: each is on or off as the seed drew it (about half on).
   */
  phonesOn?: number;
  proxies?: number; // default 8
  groups?: number; // default 5
  tags?: number; // default 6
  apps?: number; // default 30
  maxPageSize?: number; // default 100; larger requested page sizes are clamped to it
  /**
   * Requests accepted per API (Local and Open counted apart) in any 60 s; 0 or undefined = no limit.
   * Past it the answer is the published HTTP 429 `{code: 429, msg: "Rate limit exceeded", data: null}`.
   */
  rateLimitPerMinute?: number;
  /** Adds Retry-After (seconds until a request would be accepted) to rate-limited answers; default false, as published. */
  rateLimitRetryAfter?: boolean;
  faults?: FaultRates;
  /** Delay before /api/env/start answers, in ms (default 0). */
  startDelayMs?: number;
  /**
   * How long a cloud phone boots (envStatus 3, then 4) after power-on, restarts (6, then 4), resets (5, then 4) or is
   * provisioned after create (0, then 2), and a cloud runtime (STARTING, then RUNNING) or live stream starts, in ms (default 3000).
   */
  phoneBootMs?: number;
  /** How long an automation run waits (taskState 0) and then runs (1) before it ends, in ms each (default 3000). */
  automationStepMs?: number;
  /** How long an app install takes before the app is in the installed list, in ms (default 1000). */
  appInstallMs?: number;
  /** How many requests `requestLog` keeps (default 1000). */
  requestLogSize?: number;
  /**
   * For tests: phone boots, app installs, automation steps and the other state changes that follow
   * time wait for `advanceClock` instead of the wall clock (default false). Latency and startDelayMs stay real.
   */
  manualClock?: boolean;
  /**
   * Path of a Chromium binary: each started profile, and each cloud runtime (behind its gateway), then
   * gets a real headless Chromium with its own temporary user data folder, killed when the profile or
   * runtime stops or the emulator closes. Without it a started profile's debug port, and a cloud
   * runtime's gateway, only answer `/json/version` and `/json/list`.
   */
  browser?: string;
  /**
   * MoreLogin's server edition: the Local API refuses every call but `POST /api/user/login` (code
   * 35001, assumed) until a login with `apiId` and `apiKey` succeeds. Default false.
   */
  login?: boolean;
}

export interface LoggedRequest {
  api: ApiName;
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

export interface EmulatorStats {
  /** Requests per route, keyed "<api> <METHOD> <path>", e.g. "local POST /api/env/page". */
  requests: Record<string, number>;
  tokensGranted: number;
  tokenRequests: number;
  faultsInjected: Record<FaultKind, number>;
  rateLimited: number;
  /** The most profiles running at once (from their start request on) since the last reset: test-only. */
  peakRunningProfiles: number;
  /** The most cloud phones booting, on or restarting (envStatus 3, 4, 6) at once since the last reset: test-only. */
  peakPoweredPhones: number;
}

/** How often the emulator served a profile's start and close (`refused`: those calls answered with an error code). */
export interface ProfileServed {
  name: string;
  starts: number;
  closes: number;
  refused: number;
}

/**
 * How often the emulator served a cloud phone's power-on, power-off and delete (`refused`: those calls
 * answered with an error code).
 */
export interface PhoneServed {
  name: string;
  powerOns: number;
  powerOffs: number;
  deletes: number;
  refused: number;
}

/** What the emulator was asked, by profile ID and by cloud phone ID (only those named by a start, close, power-on, power-off or delete). */
export interface ServedCounts {
  profiles: Record<string, ProfileServed>;
  phones: Record<string, PhoneServed>;
}

export interface Tag {
  id: string;
  tagName: string;
}

export interface Group {
  id: string;
  groupName: string;
}

export interface ProxyInfo {
  id: string;
  proxyName: string;
  proxyType: number;
  proxyProvider: number;
  proxyCategoryType: number;
  proxyCheckStatus: number;
  proxyStatus: number;
  state: string | null;
  city: string | null;
  proxyPort: number | null;
  proxyIp: string;
  exportIp: string;
  countryCode: string;
  expiryTime: string | null;
  username: string;
  password: string | null;
  refreshUrl: string | null;
}

export interface Profile {
  id: string;
  envName: string;
  groupId: string;
  groupName: string | null;
  tagInfos: Tag[];
  envRemark: string | null;
  proxyId: string;
  proxy: ProxyInfo | null;
}

/** ADB access to a cloud phone (the spec's AdbInfo): only a powered-on phone has it (`success` 1). */
export interface AdbInfo {
  adbIp: string;
  adbPassword: string;
  adbPort: string;
  /** The SSH tunnel command for phones reached through one (MoreLogin's ADB guide), else null. */
  command: string | null;
  expireTime: string | null;
  /** Why ADB details could not be had, when `success` is 0. */
  remark: string;
  success: 1 | 0;
}

export interface ProxySubscription {
  activeRecordId: string;
  businessId: string;
  createMember: number;
  endTime: string;
  id: string;
  nextBillingTime: string;
  startTime: string;
  subPayMethod: string;
  subStatus: number;
  subType: number;
  teamId: string;
}

/** A cloud phone's proxy: the cloud-phone spec's ProxyInfo, a different shape from the proxy list's. */
export interface CloudPhoneProxy {
  id: string;
  proxyName: string;
  proxyIp: string;
  proxyPort: number | null;
  country: string;
  countryCode: string;
  state: string | null;
  city: string | null;
  exportIp: string;
  proxyStatus: number;
  proxyCheckStatus: number;
  /** Spelled so in the spec. */
  proxyCatagoryType: number;
  proxyType: number;
  createDate: string;
  delFlag: number;
  expiryTime: string;
  groupId: string;
  providerCode: string;
  proxyAreaCode: string;
  proxyInfo: string;
  proxyRegionCode: string;
  proxySub: ProxySubscription;
  proxyTypeCode: string;
  regionKey: string;
  releaseTime: string;
  uniqueId: number;
}

export interface CloudPhone {
  id: string;
  envName: string;
  envRemark: string;
  envStatus: number;
  abnormalStatus: number;
  billingType: number;
  enableAdb: boolean;
  supportAdb: boolean;
  adbInfo: AdbInfo;
  groupId: string;
  groupName: string | null;
  tagInfos: Tag[];
  androidId: string;
  proxyStatus: number;
  /** Null only when the emulator has no proxy a cloud phone can use. */
  proxy: CloudPhoneProxy | null;
  createDate: string;
}

export interface AppVersion {
  id: string;
  versionCode: string;
  versionName: string;
  installStatus: null;
  packageName: null;
}

export interface App {
  id: string;
  appName: string;
  appIcon: string;
  packageName: string;
  categoryValue: number;
  sortNo: number;
  appVersionList: AppVersion[];
}

/** The seeded data set, exactly as the emulator serves it (tests compare payloads against it). */
export interface EmulatorData {
  profiles: Profile[];
  cloudPhones: CloudPhone[];
  proxies: ProxyInfo[];
  groups: Group[];
  tags: Tag[];
  apps: App[];
}

export interface RunningProfile {
  envId: string;
  debugPort: string;
}

export interface Emulator {
  readonly localUrl: string; // e.g. "http://127.0.0.1:40100" (no trailing slash)
  readonly openUrl: string; // e.g. "http://127.0.0.1:40101"
  /** The IP-echo route: through an emulated proxy it answers that proxy's exit, e.g. "http://127.0.0.1:40102/ip". */
  readonly echoUrl: string;
  /** A small HTML page on the Local port for flows to open in a profile's browser, e.g. "http://127.0.0.1:40100/demo". */
  readonly demoUrl: string;
  readonly credentials: { apiId: string; apiKey: string; localToken?: string };
  readonly data: EmulatorData;
  readonly stats: EmulatorStats;
  /** The most recent requests, oldest first. */
  readonly requestLog: readonly LoggedRequest[];
  /** Profiles currently started, with their debug ports. */
  running(): RunningProfile[];
  /** Clears the statistics, the request log and the served counts. */
  resetStats(): void;
  /** Per profile and cloud phone, the starts, closes, power-ons and power-offs served so far (GET /emulator/served answers the same). */
  served(): ServedCounts;
  /** Makes every Open API token issued so far invalid (HTTP 401 on next use). */
  revokeAllTokens(): void;
  setFaults(rates: FaultRates): void;
  script(fault: ScriptedFault): void;
  setLocalToken(token: string | undefined): void;
  /**
   * As the option `browser`, for profiles and cloud runtimes started from now on: a Chromium's path, or
   * undefined for the stand-in debug port. Those already running keep what they have. Throws a RangeError for a path
   * that is not an executable file.
   */
  setBrowser(path: string | undefined): void;
  /** With `login`: forgets the login, as a restart of MoreLogin's server does; Local calls are refused until the next one. */
  forgetLogin(): void;
  /** Sets the limit (undefined or 0 lifts it) and starts a new window; `retryAfter` as the option `rateLimitRetryAfter`. */
  setRateLimit(perMinute: number | undefined, options?: { retryAfter?: boolean }): void;
  /**
   * For tests: the automation run with this execution ID takes its next step now (waiting to running,
   * running to its end, or a queued cancel), as if its time had come; its own timer is replaced.
   * Lets a test hold a state under a long automationStepMs and move on when it chooses. False when
   * there is no such run or it has already ended.
   */
  stepAutomationRun(id: string): boolean;
  /** With the `manualClock` option: moves the emulator's clock forward by `ms`, making every state change then due happen now. */
  advanceClock(ms: number): void;
  /**
   * Changes no API request made, as when someone acts in the desktop client or a device fails: a
   * profile started by hand, a profile whose browser exits, a cloud phone that shuts down, a
   * profile's security lock switched on or off. Each resolves to false when the ID is unknown or
   * nothing changes (already running, not running, already locked, not locked).
   */
  readonly happen: {
    profileStarts(envId: string): Promise<boolean>;
    profileExits(envId: string): Promise<boolean>;
    phoneShutsDown(id: string): boolean;
    /** `lock/query` answers `locked: true` for the profile from now on; nothing else changes (see docs/EMULATOR.md). */
    profileLocks(envId: string): boolean;
    profileUnlocks(envId: string): boolean;
  };
  /** The loopback proxies that stand behind the seeded proxy rows with an address (docs/EMULATOR.md). */
  emulatedProxies(): EmulatedProxy[];
  /** Replaces an emulated proxy's condition (by proxy ID or name); false when none has it. Resolves once a dead one stopped listening or a revived one listens. */
  setProxyCondition(idOrName: string, condition: ProxyCondition): Promise<boolean>;
  /** Stops both servers, every profile's browser or debug-port listener and every cloud runtime's browser and gateway; destroys open sockets. */
  close(): Promise<void>;
}
