import { MoreLoginInputError, isPlainObjectValue, normalizeId } from "../../../client";
import type { Translate } from "../shell/i18n";
import { isDecimalId } from "./body";

/** The ID of a list item (`id`) or a reply that names one (`envId`), if it has one. */
function itemId(item: Record<string, unknown>): unknown {
  return item.id ?? item.envId;
}

/**
 * IDs from one ID, several separated by commas or spaces, an array of IDs, the array of items a list
 * node sends (each has `id`), or a page of them (`dataList`). Each ID stays a decimal string; a number
 * beyond 2^53 is refused, since its last digits are already lost.
 */
export function idsOf(value: unknown, field: string, t: Translate): string[] {
  if (value === undefined || value === null || value === "") return [];
  if (typeof value === "string")
    return value
      .split(/[\s,]+/)
      .filter((part) => part !== "")
      .map((part) => normalizeId(part, field));
  if (Array.isArray(value)) return value.flatMap((item, index) => idsOf(isPlainObjectValue(item) ? itemId(item) : item, `${field}[${index}]`, t));
  if (isPlainObjectValue(value)) {
    if (Array.isArray(value.dataList)) return idsOf(value.dataList, field, t);
    const id = itemId(value);
    if (id === undefined) throw new MoreLoginInputError(t("morelogin.payload.noId", { field }));
    return [normalizeId(id, field)];
  }
  return [normalizeId(value, field)];
}

/** True when msg.payload names what a node works on by itself: an ID, a list of IDs or items, an item, or a page. */
export function payloadNamesTargets(payload: unknown, idFields: readonly string[]): boolean {
  if (isDecimalId(payload) || Array.isArray(payload)) return true;
  if (!isPlainObjectValue(payload)) return false;
  if (idFields.some((name) => payload[name] !== undefined)) return false;
  return Array.isArray(payload.dataList) || payload.id !== undefined;
}

/** What a delete of each kind says when nothing names its targets. */
const NO_TARGET = { group: "morelogin.payload.noGroup", tag: "morelogin.payload.noTag", proxy: "morelogin.payload.noProxy" } as const;

/**
 * The IDs a delete works on: msg.payload when it names them (an ID, IDs, list items or a page), else
 * its `ids` or `id`, else the node's own field. Throws when there are none.
 */
export function targetIds(payload: unknown, nodeValue: unknown, what: keyof typeof NO_TARGET, t: Translate): string[] {
  let ids: string[];
  if (payloadNamesTargets(payload, ["ids"])) ids = idsOf(payload, "msg.payload", t);
  else if (isPlainObjectValue(payload) && (payload.ids !== undefined || payload.id !== undefined)) ids = idsOf(payload.ids ?? payload.id, "msg.payload.ids", t);
  else ids = idsOf(nodeValue, what, t);
  if (ids.length === 0) throw new MoreLoginInputError(t(NO_TARGET[what]));
  return ids;
}
