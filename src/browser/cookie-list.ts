import { isPlainObjectValue } from "../client";
import { inputError } from "./errors";

export type SameSite = "Strict" | "Lax" | "None";

/** The fields every cookie has: what a Netscape cookie file holds of one. */
export interface CookieFields {
  name: string;
  value: string;
  /** With a leading dot, its subdomains get it too; without, only that host. */
  domain: string;
  path: string;
  /** Seconds since 1970; -1 for a session cookie. */
  expires: number;
  httpOnly: boolean;
  secure: boolean;
}

/** A cookie as Playwright's addCookies takes it, every field given: what each format is converted to. */
export interface CookieToSet extends CookieFields {
  /** Absent: the browser's default (Chromium's is Lax). */
  sameSite?: SameSite;
}

/** Where a cookie that names no place of its own goes (a header's, an entry's without domain or url). */
export interface CookiePlace {
  domain?: string;
  url?: string;
}

/** Playwright refuses a later expiry (the end of the year 9999). */
const MAX_EXPIRES = 253_402_300_799;

/** sameSite as Playwright and CDP spell it, and as browser extensions (chrome.cookies) export it. */
const SAME_SITE: Record<string, SameSite | undefined> = {
  strict: "Strict",
  lax: "Lax",
  none: "None",
  no_restriction: "None",
  unspecified: undefined,
};

/** The expiry fields of the formats in use: Playwright/CDP/Puppeteer, browser extensions, Selenium. */
const EXPIRY_FIELDS = ["expires", "expirationDate", "expiry"] as const;

/** What a value is, without showing it: cookies hold sessions, so their values never go into an error text. */
export function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (value === undefined) return "nothing";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

const isIpAddress = (host: string): boolean => /^\d{1,3}(\.\d{1,3}){3}$/.test(host) || host.includes(":");

/** The domain as Playwright takes it: a leading dot when the cookie's subdomains get it too (never for an IP address). */
export function domainFor(domain: string, subdomains: boolean | undefined): string {
  const host = domain.replace(/^\.+/, "");
  if (subdomains === false || isIpAddress(host)) return host;
  return subdomains === true ? `.${host}` : domain;
}

/** A cookie's expiry in seconds since 1970 (-1: a session cookie), or why it is none; `where` names the field. */
export function expiresOf(value: unknown, where: string): number {
  if (typeof value !== "number" || !Number.isFinite(value) || (value < 0 && value !== -1) || value > MAX_EXPIRES) {
    throw inputError(`${where} must be seconds since 1970 (or -1 for a session cookie), got ${typeof value === "number" ? "a number out of range" : kindOf(value)}`);
  }
  return value;
}

/** A cookie field that must be text when given: its path in the input and what it holds instead. */
function optionalText(value: unknown, where: string): string | undefined {
  if (value === undefined || value === null || value === "") return undefined;
  if (typeof value !== "string") throw inputError(`${where} must be a string, got ${kindOf(value)}`);
  return value;
}

/** Domain, path and secure of a cookie for a URL, as Playwright derives them. */
export function placeOfUrl(url: string, where: string): Pick<CookieToSet, "domain" | "path" | "secure"> {
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (!parsed || (parsed.protocol !== "http:" && parsed.protocol !== "https:")) throw inputError(`${where} must be an http:// or https:// address`);
  return { domain: parsed.hostname, path: parsed.pathname.slice(0, parsed.pathname.lastIndexOf("/") + 1), secure: parsed.protocol === "https:" };
}

function sameSiteOf(value: unknown, where: string): SameSite | undefined {
  if (value === undefined || value === null || value === "") return undefined;
  const key = typeof value === "string" ? value.toLowerCase() : "";
  if (!Object.hasOwn(SAME_SITE, key)) throw inputError(`${where}.sameSite must be Strict, Lax or None (or an export's no_restriction, lax, strict or unspecified)`);
  return SAME_SITE[key];
}

function expiryOf(entry: Record<string, unknown>, where: string): number {
  if (entry.session === true) return -1;
  const field = EXPIRY_FIELDS.find((name) => entry[name] !== undefined && entry[name] !== null);
  if (!field) return -1;
  // 0 is what a cookie file and some exports write for a session cookie; taken as 1970, the browser would drop it.
  return entry[field] === 0 ? -1 : expiresOf(entry[field], `${where}.${field}`);
}

function placeOf(entry: Record<string, unknown>, where: string, fallback: CookiePlace): Pick<CookieToSet, "domain" | "path"> & { secure?: boolean } {
  const url = optionalText(entry.url, `${where}.url`);
  const domain = optionalText(entry.domain, `${where}.domain`);
  const path = optionalText(entry.path, `${where}.path`) ?? "/";
  if (url !== undefined) return placeOfUrl(url, `${where}.url`);
  const hostOnly = typeof entry.hostOnly === "boolean" ? entry.hostOnly : undefined;
  if (domain !== undefined) return { domain: domainFor(domain, hostOnly === undefined ? undefined : !hostOnly), path };
  if (fallback.url !== undefined) return placeOfUrl(fallback.url, "the cookie URL");
  if (fallback.domain !== undefined) return { domain: fallback.domain, path };
  throw inputError(`${where} has no \`domain\` (with a \`path\`) or \`url\``);
}

/** One cookie object: Playwright's or CDP's, or a browser extension's export (EditThisCookie, Cookie-Editor); other fields are ignored. */
function cookieOf(entry: unknown, where: string, fallback: CookiePlace): CookieToSet {
  if (!isPlainObjectValue(entry)) throw inputError(`${where} must be a cookie object {name, value, domain, path, …}, got ${kindOf(entry)}`);
  const { name, value, httpOnly, secure } = entry;
  if (name === undefined || name === null || name === "") throw inputError(`${where} has no \`name\``);
  if (typeof name !== "string") throw inputError(`${where}.name must be a string, got ${kindOf(name)}`);
  if (value === undefined) throw inputError(`${where} has no \`value\``);
  if (typeof value !== "string") throw inputError(`${where}.value must be a string, got ${kindOf(value)}`);
  const place = placeOf(entry, where, fallback);
  const cookie: CookieToSet = {
    name,
    value,
    domain: place.domain,
    path: place.path,
    expires: expiryOf(entry, where),
    httpOnly: httpOnly === true,
    secure: place.secure ?? secure === true,
  };
  const sameSite = sameSiteOf(entry.sameSite, where);
  if (sameSite !== undefined) cookie.sameSite = sameSite;
  return cookie;
}

/** A list of cookie objects; `where` names the list in error texts (msg.payload, msg.payload.cookies). */
export function cookiesOfList(list: readonly unknown[], where: string, fallback: CookiePlace = {}): CookieToSet[] {
  return list.map((entry, index) => cookieOf(entry, `${where}[${index}]`, fallback));
}
