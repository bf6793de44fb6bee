import type { NodeAPI } from "node-red";
import { BROWSER_ACTIONS, BrowserSteps, firstAddress, type BrowserAction, type PageHandle } from "../browser";
import { isPlainObjectValue, MoreLoginInputError } from "../client";
import { registerMessageActionNode, type MessageActionRun } from "./lib/shell/action-node";
import { selectField, selected } from "./lib/declarations/declaration";
import { NODE_DECLARATIONS } from "./lib/declarations/node-declarations";
import type { MoreLoginMessage } from "./lib/shell/types";
import { isChecked } from "./lib/shell/checkbox";
import { uploadPlacesOf } from "./lib/config/upload-places";

const declaration = NODE_DECLARATIONS["morelogin-browser"];
const waitUntilField = selectField(declaration, "waitUntil");
const formatField = selectField(declaration, "format");
const cookieFormatField = selectField(declaration, "cookieFormat");
/** How long a step may take when the node's timeout is blank. */
const STEP_DEFAULT_MS = 30_000;

/** The tab an earlier browser node acted on, when the message carries one. */
function pageOf(msg: MoreLoginMessage): PageHandle | undefined {
  const page: unknown = msg.morelogin?.page;
  if (!isPlainObjectValue(page) || typeof page.targetId !== "string" || typeof page.webSocketDebuggerUrl !== "string") return undefined;
  return { targetId: page.targetId, webSocketDebuggerUrl: page.webSocketDebuggerUrl };
}

export = (RED: NodeAPI): void => {
  // One connection per browser for every browser node of this runtime; dropped when the last node stops.
  const steps = new BrowserSteps();
  let nodes = 0;

  const run: MessageActionRun = async ({ def, msg, action, fields, options, t }) => {
    const page = pageOf(msg);
    // msg.payload, the started profile, the browser of the tab an earlier browser node used, the node's own endpoint.
    const address = firstAddress([isPlainObjectValue(msg.payload) ? msg.payload : undefined, msg.morelogin?.profile, page]) ?? fields.endpoint;
    // A failure reports the browser step, not the call of the node before.
    msg.morelogin = { ...msg.morelogin, api: "cdp", path: "" };
    if (address === undefined) {
      throw new MoreLoginInputError("no browser given: put a start profile node before this one (its reply and msg.morelogin.profile name the browser), or set the node's endpoint");
    }
    const outcome = await steps.run({
      action: action as BrowserAction,
      address,
      page,
      inputs: {
        url: fields.url,
        selector: fields.selector,
        text: fields.text,
        expression: fields.expression,
        waitUntil: waitUntilField ? selected(def, waitUntilField) : undefined,
        format: formatField ? selected(def, formatField) : undefined,
        cookieFormat: cookieFormatField ? selected(def, cookieFormatField) : undefined,
        cookieDomain: fields.cookieDomain,
        fullPage: def.fullPage === true,
        attributes: fields.attributes,
        option: fields.option,
        key: fields.key,
        scrollBy: fields.scrollBy,
        file: fields.file,
        places: uploadPlacesOf(RED),
        human: isChecked(def.human),
        echoUrl: fields.echoUrl,
        stunUrl: fields.stunUrl,
        rules: fields.rules,
        expectCountry: fields.expectCountry,
        expectIp: fields.expectIp,
        os: fields.os,
        payload: msg.payload,
        filename: msg.filename,
      },
      timeoutMs: options.timeoutMs ?? STEP_DEFAULT_MS,
      signal: options.signal,
    });
    if (Object.hasOwn(outcome, "payload")) msg.payload = outcome.payload;
    const { error: _previousError, page: _previousPage, ...kept } = msg.morelogin ?? {};
    msg.morelogin = { ...kept, api: "cdp", path: "", ...(outcome.page ? { page: outcome.page } : {}) };
    return { messages: [msg], summary: t(`morelogin-browser.status.${action}`, { detail: outcome.detail }) };
  };

  registerMessageActionNode(RED, declaration, Object.fromEntries(BROWSER_ACTIONS.map((action) => [action, run])) as Record<BrowserAction, MessageActionRun>, {
    onStart: () => {
      nodes++;
    },
    onClose: () => {
      nodes--;
      if (nodes === 0) void steps.disconnectAll();
    },
  });
};
