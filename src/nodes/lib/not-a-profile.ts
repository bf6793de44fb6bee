import { describeValue, isPlainObjectValue } from "../../client";
import type { Translate } from "./shell/i18n";

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
