import { ACCOUNT_ENDPOINTS, type AccountEndpointData } from "./account-endpoints";
import { AUTOMATION_ENDPOINTS, type AutomationEndpointData } from "./automation-endpoints";
import { CLOUD_BROWSER_ENDPOINTS, type CloudBrowserEndpointData } from "./cloud-browser-endpoints";
import { CLOUD_PHONE_ENDPOINTS, type CloudPhoneEndpointData } from "./cloud-phone-endpoints";
import type { EndpointDefinition } from "./endpoint-definition";
import { PROFILE_ENDPOINTS, type ProfileEndpointData } from "./profile-endpoints";
import { RESOURCE_ENDPOINTS, type ResourceEndpointData } from "./resource-endpoints";
import type { ApiName, HttpMethod, Page } from "./types";

export type { EndpointDefinition } from "./endpoint-definition";

/** Every endpoint the client knows, with its rules, one file per family; the generic request node applies them by path. */
export const ENDPOINTS = { ...PROFILE_ENDPOINTS, ...CLOUD_PHONE_ENDPOINTS, ...RESOURCE_ENDPOINTS, ...AUTOMATION_ENDPOINTS, ...CLOUD_BROWSER_ENDPOINTS, ...ACCOUNT_ENDPOINTS } as const satisfies Record<
  string,
  EndpointDefinition
>;

export type EndpointName = keyof typeof ENDPOINTS;
export type PagedEndpointName = {
  [K in EndpointName]: (typeof ENDPOINTS)[K] extends { pageField: string } ? K : never;
}[EndpointName];

/** What each endpoint's `data` holds. */
export interface EndpointData extends ProfileEndpointData, CloudPhoneEndpointData, ResourceEndpointData, AutomationEndpointData, CloudBrowserEndpointData, AccountEndpointData {}

/** The path of an endpoint on one API; undefined when that API does not have it. */
export function pathOn(definition: EndpointDefinition, api: ApiName): string | undefined {
  return api === definition.api ? definition.path : definition.twinPath;
}

const otherApi = (api: ApiName): ApiName => (api === "local" ? "open" : "local");

const BY_PATH = new Map<string, EndpointDefinition>();
const NAMES = new Map<EndpointDefinition, EndpointName>();
for (const [name, definition] of Object.entries(ENDPOINTS) as Array<[EndpointName, EndpointDefinition]>) {
  NAMES.set(definition, name);
  BY_PATH.set(`${definition.api} ${definition.method} ${definition.path}`, definition);
  if (definition.twinPath) BY_PATH.set(`${otherApi(definition.api)} ${definition.method} ${definition.twinPath}`, definition);
}

/** The known endpoint a generic request names (its query string aside), if any. */
export function endpointAt(api: ApiName, method: HttpMethod, path: string): EndpointDefinition | undefined {
  const end = path.indexOf("?");
  return BY_PATH.get(`${api} ${method} ${end === -1 ? path : path.slice(0, end)}`);
}

/** The name of a known endpoint's definition (as `endpointAt` gives it). */
export function endpointNameOf(definition: EndpointDefinition): EndpointName | undefined {
  return NAMES.get(definition);
}

export type ItemOf<K extends PagedEndpointName> = EndpointData[K] extends Page<infer T> ? T : never;

/** The largest page size the API allows (documented maximum for the list endpoints). */
export const MAX_PAGE_SIZE = 100;
