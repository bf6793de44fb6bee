import { MoreLoginInputError, isPlainObjectValue } from "../../../client";
import type { Translate } from "../shell/i18n";
import { idsOf } from "../profile/ids";
import { isDecimalId } from "../profile/body";
import { overlay } from "../shell/properties";

/** True when msg.payload names phones by itself: an ID, an array of IDs or phones, a phone, or a page of phones. */
export function namesPhones(payload: unknown): boolean {
  if (isDecimalId(payload) || Array.isArray(payload)) return true;
  return isPlainObjectValue(payload) && (isPhoneItem(payload) || Array.isArray(payload.dataList));
}

/** A phone item from list cloud phones (or its info): only its ID is used, never its other fields. */
function isPhoneItem(value: Record<string, unknown>): boolean {
  return value.id !== undefined && (value.envName !== undefined || value.envStatus !== undefined);
}

/**
 * The body for an action on one phone: `id` from msg.payload (an ID string or a phone item) or the
 * node's phone field; an other object payload's fields are laid over the body (so `msg.payload.command`
 * overrides the node's command).
 */
export function onePhoneBody(own: Record<string, unknown>, phoneId: unknown, payload: unknown, t: Translate): Record<string, unknown> {
  let body: Record<string, unknown> = { ...own };
  const fromNode = idsOf(phoneId, "phoneId", t);
  if (fromNode.length > 1) throw new MoreLoginInputError(t("morelogin.payload.onePhone"));
  if (fromNode.length === 1) body.id = fromNode[0];
  if (isDecimalId(payload)) body.id = payload.trim();
  else if (isPlainObjectValue(payload)) body = isPhoneItem(payload) ? { ...body, id: payload.id } : overlay(body, payload);
  if (body.id === undefined || body.id === null || body.id === "") throw new MoreLoginInputError(t("morelogin.payload.noPhone"));
  return body;
}

/**
 * The phones of an action that takes several: msg.payload when it names them (an ID, IDs, phone items
 * or a page of them), else its `<listField>` or `id`, else the node's phone field. An object payload's
 * other fields come back as `extra`, to be laid over the body.
 */
export function phoneIds(phoneId: unknown, payload: unknown, listField: string, t: Translate): { ids: string[]; extra?: Record<string, unknown> } {
  const required = (ids: string[]): string[] => {
    if (ids.length === 0) throw new MoreLoginInputError(t("morelogin.payload.noPhone"));
    return ids;
  };
  if (isDecimalId(payload) || Array.isArray(payload)) return { ids: required(idsOf(payload, "msg.payload", t)) };
  if (!isPlainObjectValue(payload)) return { ids: required(idsOf(phoneId, "phoneId", t)) };
  if (isPhoneItem(payload) || Array.isArray(payload.dataList)) return { ids: required(idsOf(payload, "msg.payload", t)) };
  const { [listField]: listed, id, ...extra } = payload;
  const ids = listed !== undefined ? idsOf(listed, listField, t) : id !== undefined ? idsOf(id, "id", t) : idsOf(phoneId, "phoneId", t);
  return { ids: required(ids), extra };
}
