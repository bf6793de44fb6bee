import { describeValue, isPlainObjectValue } from "../../client";

const EXAMPLE_ID = '"1993244721490239488"';

/**
 * Why msg.payload, which named no profile, is not one: a sentence that says what was given and what to
 * do instead. Undefined when nothing was given (no payload, an empty string, an empty object).
 */
export function whyNotAProfile(payload: unknown, accepts: string): string | undefined {
  if (payload === undefined || payload === null || payload === "") return undefined;
  if (typeof payload === "number") {
    if (Number.isInteger(payload) && !Number.isSafeInteger(payload)) {
      return `msg.payload ${String(payload)} is a number beyond 2^53, so its last digits are already lost and it names no profile: send the profile ID as a string (${EXAMPLE_ID}), as list profiles gives it`;
    }
    return `msg.payload ${String(payload)} is a number, not a profile ID (an inject node sends the time as a number): set the profile ID in the node, or send ${accepts}`;
  }
  if (typeof payload === "string") {
    return `msg.payload ${describeValue(payload)} is not a profile ID (IDs are decimal strings such as ${EXAMPLE_ID}): if it is a profile's name, pick the profile in the node's profile field (it suggests profiles by name) or find its ID with list profiles`;
  }
  if (Array.isArray(payload)) return `msg.payload is an array, and this node works on one profile: send ${accepts}, or split the list (list profiles' "one message per item")`;
  if (isPlainObjectValue(payload)) {
    if (Object.keys(payload).length === 0) return undefined;
    return "msg.payload is an object without envId, uniqueId or id, so it names no profile: add the profile ID as envId, or set it in the node";
  }
  const shown = typeof payload === "boolean" ? `msg.payload ${String(payload)} is` : "msg.payload is a value that is";
  return `${shown} not a profile ID: set the profile ID in the node, or send ${accepts}`;
}
