import { describeValue, isPlainObjectValue, MoreLoginInputError } from "../../../client";
import type { Translate } from "../shell/i18n";
import { overlay } from "../shell/properties";
import type { MoreLoginMessage } from "../shell/types";

const DECIMAL_ID = /^\s*\d{1,20}\s*$/;

/** True for a string that can be a MoreLogin ID: any other string (a page title, say) names no profile or phone. */
export function isDecimalId(value: unknown): value is string {
  return typeof value === "string" && DECIMAL_ID.test(value);
}

/**
 * The body for the nodes that work on one profile. msg.payload may be the profile ID itself (a
 * decimal string; a number is an inject node's timestamp, and any other string is no ID: both are
 * ignored), a profile item from list profiles or the reply of start profile or profile status (only its ID
 * is used, and `where` when it is "cloud"),
 * or an object whose fields override the node's.
 */
export function profileBody(ownFields: Record<string, unknown>, payload: unknown): Record<string, unknown> {
  if (isDecimalId(payload)) return { ...ownFields, envId: payload.trim() };
  if (!isPlainObjectValue(payload)) return ownFields;
  const isProfileItem = payload.envId === undefined && payload.uniqueId === undefined && payload.id !== undefined;
  if (isProfileItem) return { ...ownFields, envId: payload.id };
  // A reply of start or status: local ones have debugPort; cloud ones where "cloud" (kept, so the next node acts in the cloud too) with cdpUrl or status.
  const isCloudReply = payload.where === "cloud" && (payload.cdpUrl !== undefined || payload.status !== undefined);
  const isStartReply = payload.envId !== undefined && (payload.debugPort !== undefined || isCloudReply);
  if (isStartReply) return { ...ownFields, envId: payload.envId, ...(payload.where === "cloud" ? { where: "cloud" } : {}) };
  return overlay(ownFields, payload);
}

const blank = (value: unknown): boolean => value === undefined || value === null || value === "";

/** True when the body names a profile (by `envId` or serial `uniqueId`). */
export function namesProfile(body: Record<string, unknown>): boolean {
  return !blank(body.envId) || !blank(body.uniqueId);
}

/** The body, or when it names no profile, the body for the started profile the message carries. */
export function withCarriedProfile(body: Record<string, unknown>, msg: MoreLoginMessage): Record<string, unknown> {
  const carried = msg.morelogin?.profile?.envId;
  return namesProfile(body) || blank(carried) ? body : { ...body, envId: carried };
}

/** Throws when the body names no profile: what msg.payload held instead, or that nothing was given. */
export function requireProfile(body: Record<string, unknown>, payload: unknown, t: Translate): void {
  if (namesProfile(body)) return;
  const reason = whyNotAProfile(payload, "one", t);
  throw new MoreLoginInputError(reason ?? t("morelogin.payload.noProfile", { accepts: acceptedProfiles(t, "one") }));
}

const EXAMPLE_ID = '"1993244721490239488"';

/** What the nodes on one profile accept as msg.payload, and the nodes on several profiles. */
export type ProfileTargets = "one" | "many";

/** The accepted payloads in the flow's language. */
export function acceptedProfiles(t: Translate, targets: ProfileTargets): string {
  return targets === "one" ? t("morelogin.payload.acceptsOne") : t("morelogin.payload.acceptsMany");
}

/**
 * Why msg.payload, which named no profile, is not one: a sentence that says what was given and what to
 * do instead, in the flow's language. Undefined when nothing was given (no payload, an empty string, an
 * empty object). A value inside an object is never shown (it may be a secret), only the object's kind.
 */
export function whyNotAProfile(payload: unknown, targets: ProfileTargets, t: Translate): string | undefined {
  if (payload === undefined || payload === null || payload === "") return undefined;
  const accepts = acceptedProfiles(t, targets);
  if (typeof payload === "number") {
    if (Number.isInteger(payload) && !Number.isSafeInteger(payload)) return t("morelogin.payload.bigNumber", { value: String(payload), example: EXAMPLE_ID });
    return t("morelogin.payload.number", { value: String(payload), accepts });
  }
  if (typeof payload === "string") return t("morelogin.payload.string", { value: describeValue(payload), example: EXAMPLE_ID });
  if (typeof payload === "boolean") return t("morelogin.payload.boolean", { value: String(payload), accepts });
  if (Array.isArray(payload)) return t("morelogin.payload.array", { accepts });
  if (isPlainObjectValue(payload)) return Object.keys(payload).length === 0 ? undefined : t("morelogin.payload.object");
  if (Buffer.isBuffer(payload)) return t("morelogin.payload.buffer", { accepts });
  return t("morelogin.payload.other", { type: typeNameOf(payload), accepts });
}

/** A value's type as code names it (Date, Map, a class's name, bigint): never its content. */
function typeNameOf(value: unknown): string {
  if (typeof value !== "object" || value === null) return typeof value;
  const tag = Object.prototype.toString.call(value).slice(8, -1);
  if (tag !== "Object") return tag;
  const prototype: unknown = Object.getPrototypeOf(value);
  const maker: unknown = prototype === null ? undefined : (prototype as { constructor?: unknown }).constructor;
  return typeof maker === "function" && maker.name !== "" ? maker.name : "object";
}
