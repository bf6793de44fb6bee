import type { NodeDeclaration } from "./declaration";
import { actionCheckbox, actionField, actionSelect, TIMEOUT } from "./fields";

export const PROXY_ACTIONS = ["add", "update", "delete", "check"] as const;
export const GROUP_ACTIONS = ["create", "edit", "delete"] as const;
export const TAG_ACTIONS = ["create", "edit", "delete"] as const;
/** The shared spec's proxy types (`proxyProvider`), 0 HTTP to 17 922S5; the catalogs name them. */
const PROXY_PROVIDER_COUNT = 18;

const PROXY_TYPE = "morelogin-proxy";
const GROUP_TYPE = "morelogin-group";
const TAG_TYPE = "morelogin-tag";
const PROXY_DETAILS = ["add", "update"] as const;
/** A check reads a proxy's row with a password withheld: the node's own stands in. */
const PROXY_PASSWORD_ACTIONS = [...PROXY_DETAILS, "check"] as const;

/** The team resources: proxies, groups and tags. */
export const RESOURCE_DECLARATIONS = {
  [PROXY_TYPE]: {
    type: PROXY_TYPE,
    label: "proxy",
    icon: "morelogin-proxy.svg",
    fields: [
      actionSelect(PROXY_TYPE, PROXY_ACTIONS, "add"),
      actionField(PROXY_TYPE, "proxyId", ["update", "delete", "check"], "fa-globe", { picker: "proxies" }),
      actionField(PROXY_TYPE, "proxyName", PROXY_DETAILS, "fa-tag"),
      {
        name: "proxyProvider",
        input: "select",
        icon: "fa-plug",
        label: `${PROXY_TYPE}.label.proxyProvider`,
        default: "0",
        options: Array.from({ length: PROXY_PROVIDER_COUNT }, (_, index) => ({ value: String(index), text: `${PROXY_TYPE}.provider.${index}` })),
        actions: PROXY_DETAILS,
      },
      actionField(PROXY_TYPE, "proxyIp", PROXY_DETAILS, "fa-server"),
      actionField(PROXY_TYPE, "proxyPort", PROXY_DETAILS, "fa-hashtag", { defaultType: "num" }),
      actionField(PROXY_TYPE, "username", PROXY_DETAILS, "fa-user"),
      {
        name: "proxyType",
        input: "select",
        icon: "fa-exchange",
        label: `${PROXY_TYPE}.label.proxyType`,
        default: "",
        options: [{ value: "", text: `${PROXY_TYPE}.proxyType.auto` }, { value: "0" }, { value: "1" }, { value: "2" }, { value: "3" }].map((option) =>
          option.text ? option : { value: option.value, text: `${PROXY_TYPE}.proxyType.${option.value}` },
        ),
        actions: PROXY_DETAILS,
      },
      actionField(PROXY_TYPE, "country", PROXY_DETAILS, "fa-flag"),
      actionField(PROXY_TYPE, "state", PROXY_DETAILS, "fa-map-o"),
      actionField(PROXY_TYPE, "city", PROXY_DETAILS, "fa-map-marker"),
      actionField(PROXY_TYPE, "refreshUrl", PROXY_DETAILS, "fa-refresh"),
      actionField(PROXY_TYPE, "encryptionType", PROXY_DETAILS, "fa-lock", { defaultType: "num" }),
      actionCheckbox(PROXY_TYPE, "ipMonitor", PROXY_DETAILS, "fa-eye", `${PROXY_TYPE}.label.monitor`),
      {
        name: "ipChangeAction",
        input: "select",
        icon: "fa-bell-o",
        label: `${PROXY_TYPE}.label.ipChangeAction`,
        default: "",
        options: ["", "0", "1"].map((value) => ({ value, text: `${PROXY_TYPE}.ipChangeAction.${value === "" ? "none" : value}` })),
        actions: PROXY_DETAILS,
      },
      actionField(PROXY_TYPE, "echoUrl", ["check"], "fa-map-marker"),
      actionField(PROXY_TYPE, "echoFields", ["check"], "fa-code", { defaultType: "json", types: ["json", "msg", "flow", "global", "env", "jsonata"] }),
      actionField(PROXY_TYPE, "concurrency", ["check"], "fa-tasks", { defaultType: "num" }),
      TIMEOUT,
    ],
    credentials: [{ name: "password", icon: "fa-key", label: `${PROXY_TYPE}.label.password`, placeholder: `${PROXY_TYPE}.placeholder.password`, actions: PROXY_PASSWORD_ACTIONS, after: "username" }],
  },
  [GROUP_TYPE]: {
    type: GROUP_TYPE,
    label: "group",
    icon: "morelogin-group.svg",
    fields: [
      actionSelect(GROUP_TYPE, GROUP_ACTIONS, "create"),
      actionField(GROUP_TYPE, "groupId", ["edit", "delete"], "fa-folder-o", { picker: "groups" }),
      actionField(GROUP_TYPE, "groupName", ["create", "edit"], "fa-tag"),
      actionCheckbox(GROUP_TYPE, "isDeleteAllEnv", ["delete"], "fa-trash-o", `${GROUP_TYPE}.label.profiles`),
      TIMEOUT,
    ],
  },
  [TAG_TYPE]: {
    type: TAG_TYPE,
    label: "tag",
    icon: "morelogin-tag.svg",
    fields: [
      actionSelect(TAG_TYPE, TAG_ACTIONS, "create"),
      actionField(TAG_TYPE, "tagId", ["edit", "delete"], "fa-tags", { picker: "tags" }),
      actionField(TAG_TYPE, "tagName", ["create", "edit"], "fa-tag"),
      TIMEOUT,
    ],
  },
} satisfies Record<string, NodeDeclaration>;
