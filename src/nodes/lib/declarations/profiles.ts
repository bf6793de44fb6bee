import type { NodeDeclaration } from "./declaration";
import { actionCheckbox, actionField, actionSelect, LEASE, PROFILE, TIMEOUT } from "./fields";

export const PROFILE_ACTIONS = ["create", "update", "delete", "detail", "refreshFingerprint", "clearCache", "cleanCloud", "setGroup", "setProxy", "setRemark", "closeAll"] as const;
export const CACHE_KINDS = ["localStorage", "indexedDB", "cookie", "extension", "extensionFile"] as const;
/** The cloud cache's two kinds: node properties `cloudCookie` and `cloudOthers`, sent as `cookie` and `others`. */
export const CLOUD_CACHE_KINDS = { cloudCookie: "cookie", cloudOthers: "others" } as const;

const PROFILE_TYPE = "morelogin-profile";

/** The nodes that work on browser profiles: start, close, status and the profile actions. */
export const PROFILE_DECLARATIONS = {
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
} satisfies Record<string, NodeDeclaration>;
