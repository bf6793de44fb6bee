import type { NodeDeclaration, SelectField } from "./declaration";
import { actionCheckbox, actionChoice, actionField, actionSelect, LEASE, PROFILE, TIMEOUT, WHERE } from "./fields";

export const PROFILE_ACTIONS = [
  "create",
  "update",
  "delete",
  "detail",
  "refreshFingerprint",
  "clearCache",
  "cleanCloud",
  "setGroup",
  "setProxy",
  "setRemark",
  "closeAll",
  "lockStatus",
  "ua",
  "screens",
  "arrangeWindows",
  "processes",
  "createAdvanced",
  "catalogue",
] as const;
export const CACHE_KINDS = ["localStorage", "indexedDB", "cookie", "extension", "extensionFile"] as const;
/** The cloud cache's two kinds: node properties `cloudCookie` and `cloudOthers`, sent as `cookie` and `others`. */
export const CLOUD_CACHE_KINDS = { cloudCookie: "cookie", cloudOthers: "others" } as const;

const PROFILE_TYPE = "morelogin-profile";

/** ua/get's `os` (1 Windows, 2 macOS, 3 Android, 4 iOS) and `vendor` (1 Chrome, 2 Firefox), as the spec numbers them. */
export const UA_OS = ["1", "2", "3", "4"] as const;
export const UA_VENDORS = ["1", "2"] as const;
/** arrangeWindows' `arrangeType` by name: the API's 1 tiles, 2 stacks. */
export const ARRANGE_TYPES = { tile: 1, stack: 2 } as const;

/** A select of the profile node shown for some actions, each option's text `<type>.<name>.<value>`. */
const choiceSelect = (name: string, values: readonly string[], actions: readonly string[], icon: string): SelectField => actionChoice(PROFILE_TYPE, name, values, values[0] ?? "", actions, icon);

/** The nodes that work on browser profiles: start, close, status and the profile actions. */
export const PROFILE_DECLARATIONS = {
  "morelogin-start-profile": {
    type: "morelogin-start-profile",
    label: "start profile",
    icon: "morelogin-start.svg",
    endpoint: "startProfile",
    fields: [
      PROFILE,
      WHERE,
      { name: "isHeadless", input: "checkbox", icon: "fa-eye-slash", label: "morelogin-start-profile.label.options", text: "morelogin-start-profile.label.isHeadless", where: "local" },
      { name: "cdpEvasion", input: "checkbox", icon: "", label: "", text: "morelogin-start-profile.label.cdpEvasion", where: "local" },
      // A lease closes a local profile or stops a cloud browser that a flow left running.
      LEASE,
      TIMEOUT,
    ],
  },
  "morelogin-close-profile": {
    type: "morelogin-close-profile",
    label: "close profile",
    icon: "morelogin-close.svg",
    endpoint: "closeProfile",
    fields: [PROFILE, WHERE, { name: "force", input: "checkbox", icon: "fa-bolt", label: "morelogin-close-profile.label.force", text: "morelogin-close-profile.label.forceText" }, TIMEOUT],
  },
  "morelogin-profile-status": {
    type: "morelogin-profile-status",
    label: "profile status",
    icon: "morelogin-status.svg",
    endpoint: "profileStatus",
    fields: [
      PROFILE,
      WHERE,
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
      { ...PROFILE, actions: ["update", "delete", "detail", "refreshFingerprint", "clearCache", "cleanCloud", "setGroup", "setProxy", "setRemark", "lockStatus", "arrangeWindows"] },
      actionField(PROFILE_TYPE, "settings", ["createAdvanced"], "fa-sliders", {
        defaultType: "json",
        types: ["json", "msg", "flow", "global", "env", "jsonata"],
        default: '{"browserTypeId": 1, "operatorSystemId": 1}',
        settingsPickers: true,
      }),
      actionField(PROFILE_TYPE, "envName", ["update", "createAdvanced"], "fa-tag"),
      actionField(PROFILE_TYPE, "envRemark", ["update", "setRemark"], "fa-comment-o"),
      actionField(PROFILE_TYPE, "groupId", ["create", "update", "createAdvanced"], "fa-folder-o", { picker: "groups" }),
      actionField(PROFILE_TYPE, "groupName", ["setGroup"], "fa-folder-o"),
      actionField(PROFILE_TYPE, "proxyId", ["update", "setProxy", "createAdvanced"], "fa-globe", { picker: "proxies" }),
      actionField(PROFILE_TYPE, "tagIds", ["createAdvanced"], "fa-tags", { picker: "tags" }),
      actionField(PROFILE_TYPE, "cookieDomain", ["createAdvanced"], "fa-globe"),
      actionCheckbox(PROFILE_TYPE, "removeEnvData", ["delete"], "fa-trash-o", `${PROFILE_TYPE}.label.remove`),
      ...CACHE_KINDS.map((kind, index) => actionCheckbox(PROFILE_TYPE, kind, ["clearCache"], index === 0 ? "fa-eraser" : "", index === 0 ? `${PROFILE_TYPE}.label.clear` : "")),
      actionCheckbox(PROFILE_TYPE, "cloudCookie", ["cleanCloud"], "fa-cloud", `${PROFILE_TYPE}.label.clean`),
      actionCheckbox(PROFILE_TYPE, "cloudOthers", ["cleanCloud"]),
      choiceSelect("os", UA_OS, ["ua"], "fa-desktop"),
      actionField(PROFILE_TYPE, "osVersion", ["ua"], "fa-code-fork"),
      choiceSelect("vendor", UA_VENDORS, ["ua"], "fa-chrome"),
      choiceSelect("arrangeType", Object.keys(ARRANGE_TYPES), ["arrangeWindows"], "fa-th-large"),
      actionField(PROFILE_TYPE, "screenIds", ["arrangeWindows"], "fa-television"),
      TIMEOUT,
    ],
    credentials: [
      {
        name: "accountPassword",
        icon: "fa-key",
        label: `${PROFILE_TYPE}.label.accountPassword`,
        placeholder: `${PROFILE_TYPE}.placeholder.accountPassword`,
        actions: ["createAdvanced"],
        after: "cookieDomain",
      },
      { name: "otpSecret", icon: "fa-shield", label: `${PROFILE_TYPE}.label.otpSecret`, placeholder: `${PROFILE_TYPE}.placeholder.otpSecret`, actions: ["createAdvanced"], after: "cookieDomain" },
    ],
  },
} satisfies Record<string, NodeDeclaration>;
