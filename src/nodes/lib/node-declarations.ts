import { BROWSER_ACTIONS, CONTENT_FORMATS, HUMAN_ACTIONS, WAIT_UNTIL } from "../../browser/steps";
import { ENDPOINTS, type PagedEndpointName } from "../../client";
import type { CheckboxField, DurationField, FieldDeclaration, ListDeclaration, NodeDeclaration, SelectField, TypedField } from "./declaration";

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

/** Every operation node's own timeout; blank = the call's default (15 s, 60 s for start and close, ...). */
const TIMEOUT: TypedField = {
  name: "timeout",
  input: "typed",
  defaultType: "num",
  check: "seconds",
  inBody: false,
  icon: "fa-clock-o",
  label: "morelogin.label.timeout",
  placeholder: "morelogin.placeholder.timeout",
};

const API_OPTIONS = [
  { value: "local", text: "morelogin.api.local" },
  { value: "open", text: "morelogin.api.open" },
] as const;

/** How long a started profile (a powered-on phone) may run before the config node closes it; blank = the config node's lease. */
const LEASE: DurationField = { name: "lease", input: "duration", icon: "fa-hourglass-end", label: "morelogin.label.lease", placeholder: "morelogin.placeholder.lease" };

const PROFILE: TypedField = {
  name: "envId",
  input: "typed",
  defaultType: "str",
  icon: "fa-id-card-o",
  label: "morelogin.label.envId",
  placeholder: "morelogin.placeholder.envId",
  picker: "profiles",
};

/** A select of the node's actions, labelled from its own catalog (`<type>.action.<value>`). */
function actionSelect(type: string, actions: readonly string[], defaultAction: string): SelectField {
  return {
    name: "action",
    input: "select",
    icon: "fa-cog",
    label: "morelogin.label.action",
    default: defaultAction,
    options: actions.map((value) => ({ value, text: `${type}.action.${value}` })),
  };
}

/** A field of one node shown for some of its actions, labelled from the node's own catalog. */
function actionField(type: string, name: string, actions: readonly string[], icon: string, extra: Partial<TypedField> = {}): TypedField {
  return { name, input: "typed", defaultType: "str", icon, label: `${type}.label.${name}`, placeholder: `${type}.placeholder.${name}`, actions, ...extra };
}

function actionCheckbox(type: string, name: string, actions: readonly string[], icon = "", label = ""): CheckboxField {
  return { name, input: "checkbox", icon, label, text: `${type}.label.${name}`, actions };
}

const API_SELECT: SelectField = { name: "api", input: "select", icon: "fa-plug", label: "morelogin.label.api", default: "local", options: API_OPTIONS };

const POWER_ACTIONS = ["powerOn", "powerOff", "restart"] as const;

export const PROFILE_ACTIONS = ["create", "update", "delete", "detail", "refreshFingerprint", "clearCache", "cleanCloud", "setGroup", "setProxy", "setRemark", "closeAll"] as const;
export const PHONE_ACTIONS = [
  "powerOn",
  "powerOff",
  "restart",
  "info",
  "enableAdb",
  "disableAdb",
  "adbInfo",
  "shell",
  "installApp",
  "startApp",
  "stopApp",
  "restartApp",
  "uninstallApp",
  "newMachine",
  "screenshot",
  "create",
  "edit",
  "delete",
  "models",
  "setKeyBox",
  "hideAccessibilityApps",
  "uploadFile",
  "downloadFile",
] as const;
/** Phone actions that take long and can wait for their end. */
const PHONE_WAIT_ACTIONS = [...POWER_ACTIONS, "create", "newMachine", "uploadFile", "downloadFile"] as const;
export const PROXY_ACTIONS = ["add", "update", "delete"] as const;
export const GROUP_ACTIONS = ["create", "edit", "delete"] as const;
export const TAG_ACTIONS = ["create", "edit", "delete"] as const;
export const AUTOMATION_ACTIONS = ["templates", "runOnce", "schedule", "tasks", "runs", "cancel"] as const;
export const CACHE_KINDS = ["localStorage", "indexedDB", "cookie", "extension", "extensionFile"] as const;
/** The cloud cache's two kinds: node properties `cloudCookie` and `cloudOthers`, sent as `cookie` and `others`. */
export const CLOUD_CACHE_KINDS = { cloudCookie: "cookie", cloudOthers: "others" } as const;
/** The shared spec's proxy types (`proxyProvider`), 0 HTTP to 17 922S5; the catalogs name them. */
const PROXY_PROVIDER_COUNT = 18;

const PROFILE_TYPE = "morelogin-profile";
const BROWSER_TYPE = "morelogin-browser";
const PHONE_TYPE = "morelogin-cloud-phone";
const AUTOMATION_TYPE = "morelogin-automation";
/** The power actions that start a phone, and so take a lease. */
export const LEASED_POWER_ACTIONS = ["powerOn", "restart"] as const;
const PROXY_TYPE = "morelogin-proxy";
const GROUP_TYPE = "morelogin-group";
const TAG_TYPE = "morelogin-tag";
const PROXY_DETAILS = ["add", "update"] as const;

/** The cloud phone (or phones) a node works on. */
function phoneField(actions?: readonly string[]): TypedField {
  const field: TypedField = {
    name: "phoneId",
    input: "typed",
    defaultType: "str",
    icon: "fa-mobile",
    label: "morelogin.label.phoneId",
    placeholder: "morelogin.placeholder.phoneId",
    picker: "phones",
  };
  return actions ? { ...field, actions } : field;
}

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

export const NODE_DECLARATIONS = {
  "morelogin-list-profiles": listNode("morelogin-list-profiles", "list profiles", "morelogin-list.svg", "listProfiles", [
    filter("morelogin-list-profiles", "envName"),
    filter("morelogin-list-profiles", "groupId", "fa-folder-o", "groups"),
  ]),
  "morelogin-start-profile": {
    type: "morelogin-start-profile",
    label: "start profile",
    icon: "morelogin-start.svg",
    endpoint: "startProfile",
    fields: [
      PROFILE,
      { name: "isHeadless", input: "checkbox", icon: "fa-eye-slash", label: "morelogin-start-profile.label.options", text: "morelogin-start-profile.label.isHeadless" },
      { name: "cdpEvasion", input: "checkbox", icon: "", label: "", text: "morelogin-start-profile.label.cdpEvasion" },
      LEASE,
      TIMEOUT,
    ],
  },
  "morelogin-close-profile": { type: "morelogin-close-profile", label: "close profile", icon: "morelogin-close.svg", endpoint: "closeProfile", fields: [PROFILE, TIMEOUT] },
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
  "morelogin-request": {
    type: "morelogin-request",
    label: "MoreLogin request",
    icon: "morelogin-request.svg",
    fields: [
      { name: "api", input: "select", icon: "fa-plug", label: "morelogin.label.api", default: "local", options: API_OPTIONS },
      { name: "method", input: "select", icon: "fa-tasks", label: "morelogin-request.label.method", default: "POST", options: [{ value: "POST" }, { value: "GET" }], narrow: true },
      {
        name: "path",
        input: "typed",
        defaultType: "str",
        required: true,
        check: "path",
        inBody: false,
        icon: "fa-road",
        label: "morelogin-request.label.path",
        placeholder: "morelogin-request.placeholder.path",
      },
      {
        name: "output",
        input: "select",
        icon: "fa-sign-out",
        label: "morelogin.label.output",
        default: "data",
        options: [
          { value: "data", text: "morelogin-request.output.data" },
          { value: "reply", text: "morelogin-request.output.reply" },
        ],
      },
      TIMEOUT,
    ],
  },
  "morelogin-profile-status": {
    type: "morelogin-profile-status",
    label: "profile status",
    icon: "morelogin-status.svg",
    endpoint: "profileStatus",
    fields: [
      PROFILE,
      {
        name: "waitFor",
        input: "select",
        icon: "fa-hourglass-half",
        label: "morelogin-profile-status.label.waitFor",
        default: "",
        options: [
          { value: "", text: "morelogin-profile-status.waitFor.none" },
          { value: "running", text: "morelogin-profile-status.waitFor.running" },
          { value: "stopped", text: "morelogin-profile-status.waitFor.stopped" },
        ],
      },
      TIMEOUT,
    ],
  },
  [PROFILE_TYPE]: {
    type: PROFILE_TYPE,
    label: "profile",
    icon: "morelogin-profile.svg",
    fields: [
      actionSelect(PROFILE_TYPE, PROFILE_ACTIONS, "detail"),
      { ...PROFILE, actions: ["update", "delete", "detail", "refreshFingerprint", "clearCache", "cleanCloud", "setGroup", "setProxy", "setRemark"] },
      actionField(PROFILE_TYPE, "envName", ["update"], "fa-tag"),
      actionField(PROFILE_TYPE, "envRemark", ["update", "setRemark"], "fa-comment-o"),
      actionField(PROFILE_TYPE, "groupId", ["create", "update"], "fa-folder-o", { picker: "groups" }),
      actionField(PROFILE_TYPE, "groupName", ["setGroup"], "fa-folder-o"),
      actionField(PROFILE_TYPE, "proxyId", ["update", "setProxy"], "fa-globe", { picker: "proxies" }),
      actionCheckbox(PROFILE_TYPE, "removeEnvData", ["delete"], "fa-trash-o", `${PROFILE_TYPE}.label.remove`),
      ...CACHE_KINDS.map((kind, index) => actionCheckbox(PROFILE_TYPE, kind, ["clearCache"], index === 0 ? "fa-eraser" : "", index === 0 ? `${PROFILE_TYPE}.label.clear` : "")),
      actionCheckbox(PROFILE_TYPE, "cloudCookie", ["cleanCloud"], "fa-cloud", `${PROFILE_TYPE}.label.clean`),
      actionCheckbox(PROFILE_TYPE, "cloudOthers", ["cleanCloud"]),
      TIMEOUT,
    ],
  },
  [PHONE_TYPE]: {
    type: PHONE_TYPE,
    label: "cloud phone",
    icon: "morelogin-phone.svg",
    fields: [
      API_SELECT,
      actionSelect(PHONE_TYPE, PHONE_ACTIONS, "info"),
      phoneField(PHONE_ACTIONS.filter((action) => action !== "create" && action !== "models")),
      actionField(PHONE_TYPE, "skuId", ["create", "models"], "fa-mobile", { default: "10002" }),
      actionField(PHONE_TYPE, "quantity", ["create"], "fa-hashtag", { defaultType: "num", default: "1" }),
      actionCheckbox(PHONE_TYPE, "wait", PHONE_WAIT_ACTIONS, "fa-hourglass-half", "morelogin.label.wait"),
      actionCheckbox(PHONE_TYPE, "powerOnCreated", ["create"], "fa-power-off"),
      { ...LEASE, actions: [...LEASED_POWER_ACTIONS, "create"] },
      actionField(PHONE_TYPE, "command", ["shell"], "fa-terminal"),
      actionField(PHONE_TYPE, "appVersionId", ["installApp"], "fa-download"),
      actionField(PHONE_TYPE, "packageName", ["installApp", "startApp", "stopApp", "restartApp", "uninstallApp", "hideAccessibilityApps"], "fa-cube"),
      actionField(PHONE_TYPE, "brand", ["newMachine", "create"], "fa-mobile"),
      actionField(PHONE_TYPE, "modelId", ["newMachine", "create"], "fa-barcode", { defaultType: "num" }),
      actionField(PHONE_TYPE, "envName", ["edit"], "fa-tag"),
      actionField(PHONE_TYPE, "envRemark", ["create", "edit"], "fa-sticky-note-o"),
      actionField(PHONE_TYPE, "filePath", ["setKeyBox", "downloadFile"], "fa-file-o"),
      actionField(PHONE_TYPE, "localFile", ["uploadFile"], "fa-upload"),
      actionField(PHONE_TYPE, "fileName", ["uploadFile"], "fa-file-o"),
      actionField(PHONE_TYPE, "uploadDest", ["uploadFile"], "fa-folder-o"),
      actionField(PHONE_TYPE, "saveTo", ["downloadFile"], "fa-floppy-o"),
      TIMEOUT,
    ],
  },
  [PROXY_TYPE]: {
    type: PROXY_TYPE,
    label: "proxy",
    icon: "morelogin-proxy.svg",
    fields: [
      actionSelect(PROXY_TYPE, PROXY_ACTIONS, "add"),
      actionField(PROXY_TYPE, "proxyId", ["update", "delete"], "fa-globe", { picker: "proxies" }),
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
      TIMEOUT,
    ],
    credentials: [{ name: "password", icon: "fa-key", label: `${PROXY_TYPE}.label.password`, placeholder: `${PROXY_TYPE}.placeholder.password`, actions: PROXY_DETAILS, after: "username" }],
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
  [AUTOMATION_TYPE]: {
    type: AUTOMATION_TYPE,
    label: "automation",
    icon: "morelogin-automation.svg",
    fields: [
      API_SELECT,
      actionSelect(AUTOMATION_TYPE, AUTOMATION_ACTIONS, "templates"),
      {
        name: "source",
        input: "select",
        icon: "fa-shopping-bag",
        label: `${AUTOMATION_TYPE}.label.source`,
        default: "market",
        options: [
          { value: "market", text: `${AUTOMATION_TYPE}.source.market` },
          { value: "personal", text: `${AUTOMATION_TYPE}.source.personal` },
        ],
        actions: ["templates", "schedule"],
      },
      actionField(AUTOMATION_TYPE, "templateId", ["runOnce", "schedule"], "fa-file-code-o", { picker: "templates" }),
      phoneField(["runOnce", "schedule"]),
      actionField(AUTOMATION_TYPE, "parameters", ["runOnce", "schedule"], "fa-sliders", { defaultType: "json", types: ["json", "str", "msg", "flow", "global", "env", "jsonata"] }),
      actionField(AUTOMATION_TYPE, "scheduleName", ["runOnce", "schedule"], "fa-tag"),
      actionField(AUTOMATION_TYPE, "triggerTime", ["schedule"], "fa-clock-o"),
      {
        name: "repeat",
        input: "select",
        icon: "fa-repeat",
        label: `${AUTOMATION_TYPE}.label.repeat`,
        default: "ONCE",
        options: [
          { value: "ONCE", text: `${AUTOMATION_TYPE}.repeat.once` },
          { value: "DAILY", text: `${AUTOMATION_TYPE}.repeat.daily` },
        ],
        actions: ["schedule"],
      },
      actionField(AUTOMATION_TYPE, "endTime", ["schedule"], "fa-calendar-times-o"),
      actionField(AUTOMATION_TYPE, "taskId", ["runs", "cancel"], "fa-calendar"),
      actionCheckbox(AUTOMATION_TYPE, "wait", ["runOnce"], "fa-hourglass-half", "morelogin.label.wait"),
      TIMEOUT,
    ],
  },
  [BROWSER_TYPE]: {
    type: BROWSER_TYPE,
    label: "browser",
    icon: "morelogin-browser.svg",
    config: false,
    fields: [
      actionSelect(BROWSER_TYPE, BROWSER_ACTIONS, "open"),
      actionField(BROWSER_TYPE, "url", ["open", "cookies"], "fa-link"),
      {
        name: "waitUntil",
        input: "select",
        icon: "fa-hourglass-half",
        label: `${BROWSER_TYPE}.label.waitUntil`,
        default: "load",
        options: WAIT_UNTIL.map((value) => ({ value, text: `${BROWSER_TYPE}.waitUntil.${value}` })),
        actions: ["open"],
      },
      actionField(BROWSER_TYPE, "selector", ["click", "type", "waitFor", "extract", "select", "press", "hover", "scroll", "upload"], "fa-crosshairs"),
      actionField(BROWSER_TYPE, "text", ["type"], "fa-keyboard-o"),
      actionField(BROWSER_TYPE, "attributes", ["extract"], "fa-list"),
      actionField(BROWSER_TYPE, "option", ["select"], "fa-check-square-o"),
      actionField(BROWSER_TYPE, "key", ["press"], "fa-keyboard-o"),
      actionField(BROWSER_TYPE, "scrollBy", ["scroll"], "fa-arrows-v", { defaultType: "num" }),
      actionField(BROWSER_TYPE, "file", ["upload"], "fa-file-o"),
      actionField(BROWSER_TYPE, "expression", ["evaluate"], "fa-code"),
      {
        name: "format",
        input: "select",
        icon: "fa-file-text-o",
        label: `${BROWSER_TYPE}.label.format`,
        default: "html",
        options: CONTENT_FORMATS.map((value) => ({ value, text: `${BROWSER_TYPE}.format.${value}` })),
        actions: ["content"],
      },
      actionCheckbox(BROWSER_TYPE, "fullPage", ["screenshot"], "fa-arrows-v", `${BROWSER_TYPE}.label.capture`),
      actionCheckbox(BROWSER_TYPE, "human", HUMAN_ACTIONS, "fa-hand-pointer-o", `${BROWSER_TYPE}.label.pace`),
      { name: "endpoint", input: "typed", defaultType: "str", icon: "fa-plug", label: `${BROWSER_TYPE}.label.endpoint`, placeholder: `${BROWSER_TYPE}.placeholder.endpoint` },
      TIMEOUT,
    ],
  },
} satisfies Record<string, NodeDeclaration>;
