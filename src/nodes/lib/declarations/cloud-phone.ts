import type { NodeDeclaration } from "./declaration";
import { actionCheckbox, actionChoice, actionField, actionSelect, API_SELECT, LEASE, phoneField, TIMEOUT } from "./fields";

const POWER_ACTIONS = ["powerOn", "powerOff", "restart"] as const;

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
  "balance",
  "webhook",
] as const;
/** Phone actions that take long and can wait for their end. */
const PHONE_WAIT_ACTIONS = [...POWER_ACTIONS, "create", "newMachine", "uploadFile", "downloadFile"] as const;
const PHONE_TYPE = "morelogin-cloud-phone";
/** The power actions that start a phone, and so take a lease. */
export const LEASED_POWER_ACTIONS = ["powerOn", "restart"] as const;

/** The actions that name no phone: a new fleet, a SKU's models, the team's account. */
const NO_PHONE_ACTIONS: readonly string[] = ["create", "models", "balance", "webhook"];

/** What the Brand and Model pickers need: the SKU (create), or the phone whose SKU it is (newMachine), on the node's API. */
const MODEL_PICKER_WITH = ["api", "skuId", "phoneId"] as const;

/** The cloud phone node. */
export const PHONE_DECLARATIONS = {
  [PHONE_TYPE]: {
    type: PHONE_TYPE,
    label: "cloud phone",
    icon: "morelogin-phone.svg",
    fields: [
      API_SELECT,
      actionSelect(PHONE_TYPE, PHONE_ACTIONS, "info"),
      phoneField(PHONE_ACTIONS.filter((action) => !NO_PHONE_ACTIONS.includes(action))),
      actionField(PHONE_TYPE, "skuId", ["create", "models"], "fa-mobile", { default: "10002" }),
      actionField(PHONE_TYPE, "quantity", ["create"], "fa-hashtag", { defaultType: "num", default: "1" }),
      actionCheckbox(PHONE_TYPE, "wait", PHONE_WAIT_ACTIONS, "fa-hourglass-half", "morelogin.label.wait"),
      actionCheckbox(PHONE_TYPE, "powerOnCreated", ["create"], "fa-power-off"),
      { ...LEASE, actions: [...LEASED_POWER_ACTIONS, "create"] },
      actionField(PHONE_TYPE, "command", ["shell"], "fa-terminal"),
      actionField(PHONE_TYPE, "appVersionId", ["installApp"], "fa-download"),
      actionField(PHONE_TYPE, "packageName", ["installApp", "startApp", "stopApp", "restartApp", "uninstallApp", "hideAccessibilityApps"], "fa-cube"),
      actionField(PHONE_TYPE, "brand", ["newMachine", "create"], "fa-mobile", { picker: "phoneBrands", pickerWith: MODEL_PICKER_WITH }),
      actionField(PHONE_TYPE, "modelId", ["newMachine", "create"], "fa-barcode", { defaultType: "num", picker: "phoneModels", pickerWith: MODEL_PICKER_WITH }),
      actionField(PHONE_TYPE, "envName", ["edit"], "fa-tag"),
      actionField(PHONE_TYPE, "envRemark", ["create", "edit"], "fa-sticky-note-o"),
      actionField(PHONE_TYPE, "filePath", ["setKeyBox", "downloadFile"], "fa-file-o"),
      actionField(PHONE_TYPE, "localFile", ["uploadFile"], "fa-upload"),
      actionField(PHONE_TYPE, "fileName", ["uploadFile"], "fa-file-o"),
      actionField(PHONE_TYPE, "uploadDest", ["uploadFile"], "fa-folder-o"),
      actionField(PHONE_TYPE, "saveTo", ["downloadFile"], "fa-floppy-o"),
      actionField(PHONE_TYPE, "callbackUrl", ["webhook"], "fa-link"),
      actionChoice(PHONE_TYPE, "webhookEnabled", ["on", "off"], "on", ["webhook"], "fa-toggle-on"),
      TIMEOUT,
    ],
  },
} satisfies Record<string, NodeDeclaration>;
