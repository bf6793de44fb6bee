import { isPlainObjectValue, MoreLoginInputError } from "../../client";
import { overlay } from "./properties";

/**
 * The body for start and close. msg.payload may be the profile ID itself (a string; a number is an
 * inject node's timestamp, not an ID, and is ignored), a profile item
 * from list profiles or the reply of start profile (only its ID is used), or an object whose fields
 * override the node's.
 */
export function profileBody(ownFields: Record<string, unknown>, payload: unknown): Record<string, unknown> {
  if (typeof payload === "string" && payload.trim() !== "") return { ...ownFields, envId: payload };
  if (!isPlainObjectValue(payload)) return ownFields;
  const isProfileItem = payload.envId === undefined && payload.uniqueId === undefined && payload.id !== undefined;
  if (isProfileItem) return { ...ownFields, envId: payload.id };
  const isStartReply = payload.envId !== undefined && payload.debugPort !== undefined;
  if (isStartReply) return { ...ownFields, envId: payload.envId };
  return overlay(ownFields, payload);
}

export function requireProfile(body: Record<string, unknown>): void {
  const blank = (value: unknown): boolean => value === undefined || value === null || value === "";
  if (blank(body.envId) && blank(body.uniqueId)) {
    throw new MoreLoginInputError("no profile given: set the profile ID in the node, or send it as msg.payload (an ID string, a profile from list profiles, or {envId})");
  }
}
