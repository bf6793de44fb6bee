import { MoreLoginInputError, isPlainObjectValue } from "../../../client";
import { idsOf } from "../profile/ids";
import type { Translate } from "../shell/i18n";

/** A proxy to check: its details as given (a row of list proxies, or `proxyInfo/add`'s fields), or an ID whose row is read. */
export type CheckTarget = { row: Record<string, unknown> } | { id: string };

export interface CheckTargets {
  targets: CheckTarget[];
  /** The reply is an array (an array was given, or several IDs), not one outcome. */
  many: boolean;
}

/** A proxy's details rather than a name of one: an object with `proxyIp` (empty or not: the check then says it has no address). */
function proxyDetails(value: unknown): Record<string, unknown> | undefined {
  return isPlainObjectValue(value) && Object.hasOwn(value, "proxyIp") ? value : undefined;
}

/** One item of an array: a proxy's details, or what names proxies by ID (an ID, IDs in a string, an item with `id`). */
function itemTargets(item: unknown, field: string, t: Translate): CheckTarget[] {
  const row = proxyDetails(item);
  if (row) return [{ row }];
  const namesIds = typeof item === "string" || typeof item === "number" || (isPlainObjectValue(item) && item.id !== undefined);
  const ids = namesIds ? idsOf(item, field, t) : [];
  if (ids.length === 0) throw new MoreLoginInputError(t("morelogin-proxy.errors.notAProxy", { field }));
  return ids.map((id) => ({ id }));
}

function byId(ids: readonly string[]): CheckTargets {
  return { targets: ids.map((id) => ({ id })), many: ids.length > 1 };
}

/**
 * The proxies a check works on: an array in msg.payload (each a proxy's details or an ID), a page of
 * them (`dataList`), one proxy's details (an object with `proxyIp`), an item with `id`, IDs in a string;
 * else the node's own Proxy. A payload that names none (an inject's timestamp, say) leaves it to the node.
 */
export function targetsOf(payload: unknown, nodeProxyId: unknown, t: Translate): CheckTargets {
  if (Array.isArray(payload)) return { targets: payload.flatMap((item, index) => itemTargets(item, `msg.payload[${index}]`, t)), many: true };
  if (isPlainObjectValue(payload)) {
    if (Array.isArray(payload.dataList)) return targetsOf(payload.dataList, nodeProxyId, t);
    const row = proxyDetails(payload);
    if (row) return { targets: [{ row }], many: false };
    if (payload.id !== undefined) return byId(idsOf(payload.id, "msg.payload.id", t));
  }
  if (typeof payload === "string" && payload.trim() !== "") return byId(idsOf(payload, "msg.payload", t));
  const ids = idsOf(nodeProxyId, "proxyId", t);
  if (ids.length === 0) throw new MoreLoginInputError(t("morelogin-proxy.errors.noProxy"));
  return byId(ids);
}
