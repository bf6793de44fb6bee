import { isPlainObjectValue, MoreLoginInputError } from "../../client";
import type { Translate } from "./shell/i18n";
import { acceptedProfiles, whyNotAProfile } from "./not-a-profile";
import { overlay } from "./shell/properties";
import type { MoreLoginMessage } from "./shell/types";

const DECIMAL_ID = /^\s*\d{1,20}\s*$/;

/** True for a string that can be a MoreLogin ID: any other string (a page title, say) names no profile or phone. */
export function isDecimalId(value: unknown): value is string {
  return typeof value === "string" && DECIMAL_ID.test(value);
}

/**
 * The body for the nodes that work on one profile. msg.payload may be the profile ID itself (a
 * decimal string; a number is an inject node's timestamp, and any other string is no ID: both are
 * ignored), a profile item from list profiles or the reply of start profile (only its ID is used),
 * or an object whose fields override the node's.
 */
export function profileBody(ownFields: Record<string, unknown>, payload: unknown): Record<string, unknown> {
  if (isDecimalId(payload)) return { ...ownFields, envId: payload.trim() };
  if (!isPlainObjectValue(payload)) return ownFields;
  const isProfileItem = payload.envId === undefined && payload.uniqueId === undefined && payload.id !== undefined;
  if (isProfileItem) return { ...ownFields, envId: payload.id };
  const isStartReply = payload.envId !== undefined && payload.debugPort !== undefined;
  if (isStartReply) return { ...ownFields, envId: payload.envId };
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
