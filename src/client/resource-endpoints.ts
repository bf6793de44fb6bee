import type { EndpointDefinition } from "./endpoint-definition";
import type { Group, Page, ProxyInfo, Tag } from "./types";

/** Proxies, groups and tags of the team (the shared spec; the Open API has the same paths without /api). */
export const RESOURCE_ENDPOINTS = {
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
  addProxy: {
    api: "local",
    method: "POST",
    path: "/api/proxyInfo/add",
    twinPath: "/proxyInfo/add",
    idempotency: "write",
    required: ["proxyIp", "proxyPort", "proxyProvider"],
  },
  // A full overwrite: fields left out fall back to their defaults.
  updateProxy: {
    api: "local",
    method: "POST",
    path: "/api/proxyInfo/update",
    twinPath: "/proxyInfo/update",
    idempotency: "write",
    idFields: ["id"],
    required: ["id", "proxyIp", "proxyPort", "proxyProvider"],
  },
  deleteProxies: {
    api: "local",
    method: "POST",
    path: "/api/proxyInfo/delete",
    twinPath: "/proxyInfo/delete",
    idempotency: "write",
    idListFields: ["ids"],
    required: ["ids"],
    sendsList: "ids",
  },
  createGroup: { api: "local", method: "POST", path: "/api/envgroup/create", twinPath: "/envgroup/create", idempotency: "write", required: ["groupName"] },
  editGroup: { api: "local", method: "POST", path: "/api/envgroup/edit", twinPath: "/envgroup/edit", idempotency: "write", idFields: ["id"], required: ["id", "groupName"] },
  deleteGroups: { api: "local", method: "POST", path: "/api/envgroup/delete", twinPath: "/envgroup/delete", idempotency: "write", idListFields: ["ids"], required: ["ids"] },
  createTag: { api: "local", method: "POST", path: "/api/envtag/create", twinPath: "/envtag/create", idempotency: "write", required: ["tagName"] },
  editTag: { api: "local", method: "POST", path: "/api/envtag/edit", twinPath: "/envtag/edit", idempotency: "write", idFields: ["id"], required: ["id", "tagName"] },
  deleteTags: { api: "local", method: "POST", path: "/api/envtag/delete", twinPath: "/envtag/delete", idempotency: "write", idListFields: ["ids"], required: ["ids"] },
} as const satisfies Record<keyof ResourceEndpointData, EndpointDefinition>;

/** What each of these endpoints' `data` holds. */
export interface ResourceEndpointData {
  listProxies: Page<ProxyInfo>;
  listGroups: Page<Group>;
  listTags: Tag[];
  addProxy: string | number;
  updateProxy: null;
  deleteProxies: null;
  createGroup: Group;
  editGroup: boolean;
  deleteGroups: boolean;
  createTag: Tag;
  editTag: boolean;
  deleteTags: boolean;
}
