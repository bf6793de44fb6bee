import type { EndpointDefinition } from "./endpoint-definition";
import type { CloudBrowser, CloudBrowserConnection, Page } from "./types";

/**
 * MoreLogin's cloud browsers (the browser spec's "Cloud Runtime", `/api/cloudbrowser/*`), on the Local API
 * alone. Start is accepted at once and runs on MoreLogin's side: the page's row says when it is RUNNING.
 * Start and stop change something, so they are sent again only when they provably never ran. A start
 * takes a place under the config node's `maxCloudBrowsers` and enters the lease book; a stop frees it and
 * ends the lease (their roles also tell the pacing that a stop releases what a start took).
 */
export const CLOUD_BROWSER_ENDPOINTS = {
  cloudBrowserStart: {
    api: "local",
    method: "POST",
    path: "/api/cloudbrowser/start",
    idempotency: "write",
    idFields: ["envId"],
    required: ["envId"],
    capacity: { kind: "cloudBrowsers", effect: "take" },
  },
  cloudBrowserStop: {
    api: "local",
    method: "POST",
    path: "/api/cloudbrowser/stop",
    idempotency: "write",
    idFields: ["envId"],
    required: ["envId"],
    capacity: { kind: "cloudBrowsers", effect: "free" },
  },
  cloudBrowserPage: {
    api: "local",
    method: "POST",
    path: "/api/cloudbrowser/page",
    idempotency: "read",
    pageField: "pageNo",
    // The spec requires both; MAX_PAGE_SIZE (100) is its maximum.
    defaults: { pageNo: 1, pageSize: 10 },
    required: ["pageNo", "pageSize"],
    idFields: ["envId", "groupId"],
  },
  cloudBrowserConnect: { api: "local", method: "POST", path: "/api/cloudbrowser/connect", idempotency: "read", idFields: ["envId"], required: ["envId"] },
} as const satisfies Record<keyof CloudBrowserEndpointData, EndpointDefinition>;

/** What each of these endpoints' `data` holds. */
export interface CloudBrowserEndpointData {
  cloudBrowserStart: null;
  cloudBrowserStop: null;
  cloudBrowserPage: Page<CloudBrowser>;
  cloudBrowserConnect: CloudBrowserConnection;
}
