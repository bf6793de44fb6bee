import { ENDPOINTS, type PagedEndpointName } from "../../../client";
import type { FieldDeclaration, ListDeclaration, NodeDeclaration, TypedField } from "./declaration";
import { API_OPTIONS, TIMEOUT } from "./fields";

const OUTPUT: FieldDeclaration = {
  name: "output",
  input: "select",
  icon: "fa-sign-out",
  label: "morelogin.label.output",
  default: "array",
  options: [
    { value: "array", text: "morelogin.output.array" },
    { value: "split", text: "morelogin.output.split" },
  ],
};

/** A list node: page, page size, its own filters, all pages, item limit, output mode and timeout. */
function listNode(type: string, label: string, icon: string, endpoint: PagedEndpointName, filters: TypedField[], first: FieldDeclaration[] = []): ListDeclaration {
  const pageField = ENDPOINTS[endpoint].pageField;
  return {
    type,
    label,
    icon,
    list: endpoint,
    fields: [
      ...first,
      { name: pageField, input: "typed", defaultType: "num", default: "1", check: "page", icon: "fa-file-o", label: `morelogin.label.${pageField}`, whenAll: false },
      { name: "pageSize", input: "typed", defaultType: "num", check: "page", icon: "fa-arrows-v", label: "morelogin.label.pageSize", placeholder: "morelogin.placeholder.pageSize" },
      ...filters,
      { name: "all", input: "checkbox", icon: "fa-files-o", label: "morelogin.label.all", text: "morelogin.label.allPages" },
      { name: "maxItems", input: "count", default: 10_000, icon: "fa-hand-paper-o", label: "morelogin.label.maxItems", whenAll: true },
      OUTPUT,
      TIMEOUT,
    ],
  };
}

/** A text filter of a list node, labelled from the node's own catalog. */
function filter(type: string, name: string, icon = "fa-search", picker?: TypedField["picker"]): TypedField {
  return { name, input: "typed", defaultType: "str", icon, label: `${type}.label.${name}`, placeholder: `${type}.placeholder.${name}`, picker };
}

/** The list nodes: one page of a paged endpoint, or every page. */
export const LIST_DECLARATIONS = {
  "morelogin-list-profiles": listNode("morelogin-list-profiles", "list profiles", "morelogin-list.svg", "listProfiles", [
    filter("morelogin-list-profiles", "envName"),
    filter("morelogin-list-profiles", "groupId", "fa-folder-o", "groups"),
  ]),
  "morelogin-list-cloud-phones": listNode("morelogin-list-cloud-phones", "list cloud phones", "morelogin-phone.svg", "listCloudPhones", [filter("morelogin-list-cloud-phones", "keyword")]),
  "morelogin-list-proxies": listNode("morelogin-list-proxies", "list proxies", "morelogin-list.svg", "listProxies", [filter("morelogin-list-proxies", "proxyName")]),
  "morelogin-list-groups": listNode("morelogin-list-groups", "list groups", "morelogin-list.svg", "listGroups", [filter("morelogin-list-groups", "groupName")]),
  "morelogin-list-tags": { type: "morelogin-list-tags", label: "list tags", icon: "morelogin-list.svg", endpoint: "listTags", fields: [OUTPUT, TIMEOUT] },
  "morelogin-list-apps": listNode(
    "morelogin-list-apps",
    "list cloud-phone apps",
    "morelogin-phone.svg",
    "listApps",
    [filter("morelogin-list-apps", "appName")],
    // The Local API serves the same catalogue without an API key; nodes saved before 0.2 used the Open API.
    [{ name: "api", input: "select", icon: "fa-plug", label: "morelogin.label.api", default: "local", savedDefault: "open", options: API_OPTIONS }],
  ),
} satisfies Record<string, NodeDeclaration>;
