import { isPlainObjectValue } from "../client";
import { inputError } from "./errors";

/** A cookie as Playwright's addCookies takes it, and as the cookies action gives it. */
export interface CookieToSet {
  name: string;
  value: string;
  url?: string;
  domain?: string;
  path?: string;
  expires?: number;
  httpOnly?: boolean;
  secure?: boolean;
  sameSite?: "Strict" | "Lax" | "None";
}

const SAME_SITE = ["Strict", "Lax", "None"] as const;

/** What a value is, without showing it: cookies hold sessions, so their values never go into an error text. */
function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (value === undefined) return "nothing";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

/** A cookie field that must be text when given: its path in msg.payload and what it holds instead. */
function optionalText(value: unknown, where: string): string | undefined {
  if (value === undefined || value === null || value === "") return undefined;
  if (typeof value !== "string") throw inputError(`${where} must be a string, got ${kindOf(value)}`);
  return value;
}

function cookieOf(value: unknown, index: number): CookieToSet {
  const where = `msg.payload[${index}]`;
  if (!isPlainObjectValue(value)) throw inputError(`${where} must be a cookie object {name, value, domain, path, …}, got ${kindOf(value)}`);
  const { name, expires, httpOnly, secure, sameSite } = value;
  if (name === undefined || name === null || name === "") throw inputError(`${where} has no \`name\``);
  if (typeof name !== "string") throw inputError(`${where}.name must be a string, got ${kindOf(name)}`);
  if (value.value === undefined) throw inputError(`${where} has no \`value\``);
  if (typeof value.value !== "string") throw inputError(`${where}.value must be a string, got ${kindOf(value.value)}`);
  const cookie: CookieToSet = { name, value: value.value };
  const url = optionalText(value.url, `${where}.url`);
  const domain = optionalText(value.domain, `${where}.domain`);
  const path = optionalText(value.path, `${where}.path`);
  if (url !== undefined) cookie.url = url;
  else if (domain !== undefined) {
    cookie.domain = domain;
    cookie.path = path ?? "/";
  } else throw inputError(`${where} has no \`domain\` (with a \`path\`) or \`url\``);
  if (expires !== undefined && expires !== null) {
    if (typeof expires !== "number" || !Number.isFinite(expires)) throw inputError(`${where}.expires must be seconds since 1970 (or -1 for a session cookie), got ${kindOf(expires)}`);
    cookie.expires = expires;
  }
  if (typeof httpOnly === "boolean") cookie.httpOnly = httpOnly;
  if (typeof secure === "boolean") cookie.secure = secure;
  if (sameSite !== undefined && sameSite !== null && sameSite !== "") {
    if (!SAME_SITE.includes(sameSite as (typeof SAME_SITE)[number])) throw inputError(`${where}.sameSite must be Strict, Lax or None`);
    cookie.sameSite = sameSite as CookieToSet["sameSite"];
  }
  return cookie;
}

/** setCookies' msg.payload: an array of cookies in the shape the cookies action replies (extra fields are ignored). */
export function cookiesToSet(payload: unknown): CookieToSet[] {
  if (!Array.isArray(payload)) throw inputError(`setCookies needs msg.payload to be an array of cookies, as read cookies gives, got ${kindOf(payload)}`);
  return payload.map(cookieOf);
}
