import type { Idempotency } from "./retry";
import type { ApiName, App, ClosedProfile, CloudPhone, Group, HttpMethod, Page, Profile, ProfileStatus, ProxyInfo, StartedProfile, Tag } from "./types";

export interface EndpointDefinition {
  /** The API a call goes to unless it names the other one (see `twinPath`). */
  api: ApiName;
  method: HttpMethod;
  path: string;
  /** The path of the same operation on the other API, for endpoints both APIs have. */
  twinPath?: string;
  idempotency: Idempotency;
  /** The call's own timeout when it is not the ordinary one: launching a browser or a phone takes long. */
  timeoutMs?: number;
  /** Counts against the client's `concurrency`: a long operation that loads the machine or the account. */
  limited?: boolean;
  /** Fields always sent, with these values when the caller leaves them out (the API requires them). */
  defaults?: Readonly<Record<string, unknown>>;
  /** The field that carries the page number, for paged endpoints. */
  pageField?: "pageNo" | "pageNum";
  /** Fields that hold a MoreLogin ID and must stay decimal strings. */
  idFields?: readonly string[];
  /** At least one of these fields must be present. */
  requiresOneOf?: readonly string[];
}

/** Starting or closing a browser: MoreLogin's own CLI allows 30 s; a slow machine needs more. */
const PROFILE_TIMEOUT_MS = 60_000;
/** A cloud phone powers on in 30 to 90 s; MoreLogin's CLI waits 120 s. */
const POWER_ON_TIMEOUT_MS = 120_000;
/** Downloading browser kernels: MoreLogin's CLI waits 1,810 s. */
const KERNEL_DOWNLOAD_TIMEOUT_MS = 1_810_000;

/** Every endpoint the client knows, with its rules; the generic request node applies them by path. */
export const ENDPOINTS = {
  listProfiles: { api: "local", method: "POST", path: "/api/env/page", idempotency: "read", pageField: "pageNo", idFields: ["groupId", "envId"] },
  startProfile: {
    api: "local",
    method: "POST",
    path: "/api/env/start",
    idempotency: "write",
    timeoutMs: PROFILE_TIMEOUT_MS,
    limited: true,
    idFields: ["envId"],
    requiresOneOf: ["envId", "uniqueId"],
  },
  closeProfile: {
    api: "local",
    method: "POST",
    path: "/api/env/close",
    idempotency: "write",
    timeoutMs: PROFILE_TIMEOUT_MS,
    idFields: ["envId"],
    requiresOneOf: ["envId", "uniqueId"],
  },
  profileStatus: { api: "local", method: "POST", path: "/api/env/status", idempotency: "read", idFields: ["envId"], requiresOneOf: ["envId"] },
  profileDetail: { api: "local", method: "POST", path: "/api/env/detail", idempotency: "read", idFields: ["envId"], requiresOneOf: ["envId"] },
  listCloudPhones: { api: "local", method: "POST", path: "/api/cloudphone/page", idempotency: "read", pageField: "pageNo" },
  listProxies: { api: "local", method: "POST", path: "/api/proxyInfo/page", idempotency: "read", pageField: "pageNo", idFields: ["id"] },
  listGroups: {
    api: "local",
    method: "POST",
    path: "/api/envgroup/page",
    idempotency: "read",
    pageField: "pageNo",
    defaults: { groupName: "", pageNo: 1, pageSize: 10 },
  },
  listTags: { api: "local", method: "GET", path: "/api/envtag/all", idempotency: "read" },
  listApps: { api: "open", method: "POST", path: "/cloudphone/app/page", twinPath: "/api/cloudphone/app/page", idempotency: "read", pageField: "pageNum" },
  powerOnCloudPhone: {
    api: "local",
    method: "POST",
    path: "/api/cloudphone/powerOn",
    twinPath: "/cloudphone/powerOn",
    idempotency: "write",
    timeoutMs: POWER_ON_TIMEOUT_MS,
    limited: true,
    idFields: ["id"],
    requiresOneOf: ["id"],
  },
  downloadKernels: { api: "local", method: "POST", path: "/api/env/core/download", idempotency: "write", timeoutMs: KERNEL_DOWNLOAD_TIMEOUT_MS },
} as const satisfies Record<string, EndpointDefinition>;

export type EndpointName = keyof typeof ENDPOINTS;
export type PagedEndpointName = {
  [K in EndpointName]: (typeof ENDPOINTS)[K] extends { pageField: string } ? K : never;
}[EndpointName];

/** What each endpoint's `data` holds. */
export interface EndpointData {
  listProfiles: Page<Profile>;
  startProfile: StartedProfile;
  closeProfile: ClosedProfile;
  profileStatus: ProfileStatus;
  profileDetail: Profile;
  listCloudPhones: Page<CloudPhone>;
  listProxies: Page<ProxyInfo>;
  listGroups: Page<Group>;
  listTags: Tag[];
  listApps: Page<App>;
  powerOnCloudPhone: null;
  downloadKernels: unknown;
}

/** The path of an endpoint on one API; undefined when that API does not have it. */
export function pathOn(definition: EndpointDefinition, api: ApiName): string | undefined {
  return api === definition.api ? definition.path : definition.twinPath;
}

const otherApi = (api: ApiName): ApiName => (api === "local" ? "open" : "local");

const BY_PATH = new Map<string, EndpointDefinition>();
for (const definition of Object.values(ENDPOINTS) as EndpointDefinition[]) {
  BY_PATH.set(`${definition.api} ${definition.method} ${definition.path}`, definition);
  if (definition.twinPath) BY_PATH.set(`${otherApi(definition.api)} ${definition.method} ${definition.twinPath}`, definition);
}

/** The known endpoint a generic request names (its query string aside), if any. */
export function endpointAt(api: ApiName, method: HttpMethod, path: string): EndpointDefinition | undefined {
  const end = path.indexOf("?");
  return BY_PATH.get(`${api} ${method} ${end === -1 ? path : path.slice(0, end)}`);
}

export type ItemOf<K extends PagedEndpointName> = EndpointData[K] extends Page<infer T> ? T : never;

/** The largest page size the API allows (documented maximum for the list endpoints). */
export const MAX_PAGE_SIZE = 100;
