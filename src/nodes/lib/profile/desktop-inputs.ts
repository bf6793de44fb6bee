import { describeValue, isPlainObjectValue, MoreLoginInputError } from "../../../client";
import { selectField, selected } from "../declarations/declaration";
import { NODE_DECLARATIONS } from "../declarations/node-declarations";
import { ARRANGE_TYPES, UA_OS, UA_VENDORS } from "../declarations/profiles";
import type { ActionContext } from "../shell/action-node";
import type { Translate } from "../shell/i18n";
import { overlay, pick } from "../shell/properties";

/**
 * What the profile node's actions on the desktop client itself send: ua/get's OS and browser,
 * arrangeWindows' arrangement and screens. Each is checked before anything is sent, whether it came
 * from the node or from msg.payload, so a typo fails with the values it may take instead of MoreLogin's
 * "request parameter error".
 */

const declaration = NODE_DECLARATIONS["morelogin-profile"];

/** The node's own choice of a select, as a string. */
function chosen(context: ActionContext, name: string): string {
  const field = selectField(declaration, name);
  return field ? selected(context.def, field) : "";
}

/** A whole number the spec allows (given as a number or a decimal string), else an input error in the flow's language. */
function numberChoice(value: unknown, allowed: readonly string[], key: string, t: Translate): number {
  const text = typeof value === "number" || typeof value === "string" ? String(value).trim() : "";
  if (!allowed.includes(text)) throw new MoreLoginInputError(t(key, { value: describeValue(value) }));
  return Number(text);
}

/** ua/get's body: the node's OS, OS version and browser, with an object msg.payload's fields laid over them. */
export function userAgentBody(context: ActionContext): Record<string, unknown> {
  const { msg, fields, t } = context;
  const own = { os: chosen(context, "os"), ...pick(fields, ["osVersion"]), vendor: chosen(context, "vendor") };
  const body = isPlainObjectValue(msg.payload) ? overlay(own, msg.payload) : own;
  body.os = numberChoice(body.os, UA_OS, "morelogin-profile.error.os", t);
  body.vendor = numberChoice(body.vendor, UA_VENDORS, "morelogin-profile.error.vendor", t);
  return body;
}

/** The node's own arrangement and screens, before msg.payload names profiles or changes them. */
export function arrangementFields(context: ActionContext): Record<string, unknown> {
  return { arrangeType: chosen(context, "arrangeType"), ...pick(context.fields, ["screenIds"]) };
}

/**
 * arrangeWindows' body as the API takes it: `arrangeType` 1 or 2 (tile or stack by name), `screenIds`
 * a list of whole numbers (from an array or a text of IDs separated by commas or spaces), neither
 * `envIds` nor `screenIds` when empty (all windows, on the screen under the mouse).
 */
export function arrangementBody(body: Record<string, unknown>, t: Translate): Record<string, unknown> {
  const result = { ...body };
  const type = result.arrangeType;
  const named = typeof type === "string" && Object.hasOwn(ARRANGE_TYPES, type) ? ARRANGE_TYPES[type as keyof typeof ARRANGE_TYPES] : type;
  result.arrangeType = numberChoice(named, Object.values(ARRANGE_TYPES).map(String), "morelogin-profile.error.arrangeType", t);
  const screenIds = screenIdsOf(result.screenIds, t);
  if (screenIds.length > 0) result.screenIds = screenIds;
  else delete result.screenIds;
  if (Array.isArray(result.envIds) && result.envIds.length === 0) delete result.envIds;
  return result;
}

/** Screen IDs as getAllScreen lists them, sent as the whole numbers the spec asks for. */
function screenIdsOf(value: unknown, t: Translate): number[] {
  if (value === undefined || value === null || value === "") return [];
  const items = typeof value === "string" ? value.split(/[\s,]+/).filter((part) => part !== "") : Array.isArray(value) ? value : [value];
  return items.map((item) => {
    const text = typeof item === "number" || typeof item === "string" ? String(item).trim() : "";
    const id = /^\d+$/.test(text) ? Number(text) : Number.NaN;
    if (!Number.isSafeInteger(id)) throw new MoreLoginInputError(t("morelogin-profile.error.screenIds", { value: describeValue(item) }));
    return id;
  });
}
