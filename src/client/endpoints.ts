import type { Idempotency } from "./retry";
import type { ApiName, App, ClosedProfile, CloudPhone, Group, HttpMethod, Page, Profile, ProfileStatus, ProxyInfo, StartedProfile, Tag } from "./types";

export interface EndpointDefinition {
  api: ApiName;
  method: HttpMethod;
  path: string;
  idempotency: Idempotency;
  /** Which timeout applies: starting or closing a browser takes far longer than a list call. */
  slow?: boolean;
  /** The field that carries the page number, for paged endpoints. */
  pageField?: "pageNo" | "pageNum";
  /** Fields that hold a MoreLogin ID and must stay decimal strings. */
  idFields?: readonly string[];
  /** At least one of these fields must be present. */
  requiresOneOf?: readonly string[];
}

/** Every endpoint the nodes use, with its rules. */
export const ENDPOINTS = {
  listProfiles: { api: "local", method: "POST", path: "/api/env/page", idempotency: "read", pageField: "pageNo", idFields: ["groupId", "envId"] },
  startProfile: { api: "local", method: "POST", path: "/api/env/start", idempotency: "write", slow: true, idFields: ["envId"], requiresOneOf: ["envId", "uniqueId"] },
  closeProfile: { api: "local", method: "POST", path: "/api/env/close", idempotency: "write", slow: true, idFields: ["envId"], requiresOneOf: ["envId", "uniqueId"] },
  profileStatus: { api: "local", method: "POST", path: "/api/env/status", idempotency: "read", idFields: ["envId"], requiresOneOf: ["envId", "uniqueId"] },
  profileDetail: { api: "local", method: "POST", path: "/api/env/detail", idempotency: "read", idFields: ["envId"], requiresOneOf: ["envId"] },
  listCloudPhones: { api: "local", method: "POST", path: "/api/cloudphone/page", idempotency: "read", pageField: "pageNo" },
  listProxies: { api: "local", method: "POST", path: "/api/proxyInfo/page", idempotency: "read", pageField: "pageNo", idFields: ["id"] },
  listGroups: { api: "local", method: "POST", path: "/api/envgroup/page", idempotency: "read", pageField: "pageNo" },
  listTags: { api: "local", method: "GET", path: "/api/envtag/all", idempotency: "read" },
  listApps: { api: "open", method: "POST", path: "/cloudphone/app/page", idempotency: "read", pageField: "pageNum" },
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
}

export type ItemOf<K extends PagedEndpointName> = EndpointData[K] extends Page<infer T> ? T : never;

/** The largest page size the API allows (documented maximum for the list endpoints). */
export const MAX_PAGE_SIZE = 100;
