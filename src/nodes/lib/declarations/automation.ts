import { COOKIE_FORMATS } from "../../../browser/cookie-formats";
import { BROWSER_ACTIONS, CONTENT_FORMATS, HUMAN_ACTIONS, WAIT_UNTIL } from "../../../browser/steps";
import type { NodeDeclaration } from "./declaration";
import { actionCheckbox, actionChoice, actionField, actionSelect, API_SELECT, phoneField, TIMEOUT } from "./fields";

export const AUTOMATION_ACTIONS = ["templates", "runOnce", "schedule", "tasks", "runs", "cancel"] as const;

const BROWSER_TYPE = "morelogin-browser";
const AUTOMATION_TYPE = "morelogin-automation";

/** The nodes that drive a browser or a phone: automation schedules and runs, and browser steps. */
export const AUTOMATION_DECLARATIONS = {
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
      actionChoice(BROWSER_TYPE, "waitUntil", WAIT_UNTIL, "load", ["open"], "fa-hourglass-half"),
      actionField(BROWSER_TYPE, "selector", ["click", "type", "waitFor", "extract", "select", "press", "hover", "scroll", "upload"], "fa-crosshairs"),
      actionField(BROWSER_TYPE, "text", ["type"], "fa-keyboard-o"),
      actionField(BROWSER_TYPE, "attributes", ["extract"], "fa-list"),
      actionField(BROWSER_TYPE, "option", ["select"], "fa-check-square-o"),
      actionField(BROWSER_TYPE, "key", ["press"], "fa-keyboard-o"),
      actionField(BROWSER_TYPE, "scrollBy", ["scroll"], "fa-arrows-v", { defaultType: "num" }),
      actionField(BROWSER_TYPE, "file", ["upload"], "fa-file-o"),
      actionField(BROWSER_TYPE, "expression", ["evaluate"], "fa-code"),
      actionChoice(BROWSER_TYPE, "format", CONTENT_FORMATS, "html", ["content"], "fa-file-text-o"),
      actionChoice(BROWSER_TYPE, "cookieFormat", COOKIE_FORMATS, "json", ["cookies"], "fa-file-text-o"),
      actionField(BROWSER_TYPE, "cookieDomain", ["setCookies"], "fa-globe"),
      actionCheckbox(BROWSER_TYPE, "fullPage", ["screenshot"], "fa-arrows-v", `${BROWSER_TYPE}.label.capture`),
      actionCheckbox(BROWSER_TYPE, "human", HUMAN_ACTIONS, "fa-hand-pointer-o", `${BROWSER_TYPE}.label.pace`),
      actionField(BROWSER_TYPE, "echoUrl", ["identity"], "fa-map-marker"),
      actionField(BROWSER_TYPE, "rules", ["identity"], "fa-check-square-o"),
      actionField(BROWSER_TYPE, "expectCountry", ["identity"], "fa-flag"),
      actionField(BROWSER_TYPE, "expectIp", ["identity"], "fa-globe"),
      actionField(BROWSER_TYPE, "os", ["identity"], "fa-desktop"),
      actionField(BROWSER_TYPE, "stunUrl", ["identity"], "fa-exchange"),
      { name: "endpoint", input: "typed", defaultType: "str", icon: "fa-plug", label: `${BROWSER_TYPE}.label.endpoint`, placeholder: `${BROWSER_TYPE}.placeholder.endpoint` },
      TIMEOUT,
    ],
  },
} satisfies Record<string, NodeDeclaration>;
