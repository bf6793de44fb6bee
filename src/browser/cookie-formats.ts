import { isPlainObjectValue } from "../client";
import { type CookieFields, type CookiePlace, type CookieToSet, cookiesOfList, kindOf, placeOfUrl } from "./cookie-list";
import { cookiesOfNetscape, isNetscapeText, netscapeOf } from "./cookie-netscape";
import { inputError } from "./errors";
import { bytesOf } from "./upload-file";

export const COOKIE_FORMATS = ["json", "netscape"] as const;
export type CookieFormat = (typeof COOKIE_FORMATS)[number];

export interface ParseOptions extends CookiePlace {
  /** What the input is called in error texts; msg.payload when not given. */
  from?: string;
}

const FORMATS = "an array of cookie objects (as read cookies gives, or a browser extension's JSON export), its JSON text, a Netscape cookie file (cookies.txt) or a name=value; … header";

/** Where JSON.parse stopped, as a line and column: its own message may quote the text, and with it a cookie's value. */
function positionIn(text: string, error: unknown): string {
  const position = /at position (\d+)/.exec(error instanceof Error ? error.message : "")?.[1];
  if (position === undefined) return "";
  const before = text.slice(0, Number(position)).split("\n");
  return ` (line ${before.length}, column ${(before.at(-1)?.length ?? 0) + 1})`;
}

function cookiesOfJson(text: string, from: string, place: CookiePlace): CookieToSet[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw inputError(`${from} starts like JSON but is not valid JSON${positionIn(text, error)}`);
  }
  if (typeof parsed === "string") throw inputError(`${from} is JSON text of a string: give the cookies themselves, ${FORMATS}`);
  return cookiesOfValue(parsed, from, place);
}

/** `name=value; name2=value2` (a Cookie header, with or without `Cookie:`; new lines count as `;`), for the place given. */
function cookiesOfHeader(text: string, from: string, place: CookiePlace): CookieToSet[] {
  const pairs = text
    .replace(/^cookie:/i, "")
    .split(/;|\r\n|\n|\r/)
    .map((pair) => pair.trim())
    .filter((pair) => pair !== "");
  const cookies = pairs.map((pair, index) => {
    const equals = pair.indexOf("=");
    if (equals < 0) throw inputError(`${from} is neither JSON, a Netscape cookie file (fields separated by tabs) nor a name=value; … header: its part ${index + 1} has no \`=\``);
    const name = pair.slice(0, equals).trim();
    if (name === "") throw inputError(`${from} (a name=value; … header): its part ${index + 1} has no name before \`=\``);
    return { name, value: pair.slice(equals + 1).trim() };
  });
  const at = place.url !== undefined ? placeOfUrl(place.url, "the cookie URL") : place.domain !== undefined ? { domain: place.domain, path: "/", secure: false } : undefined;
  if (!at) throw inputError(`${from} is a name=value; … header, which says nothing of the site it is for: set the node's Cookie domain (e.g. example.com)`);
  return cookies.map(({ name, value }) => ({ name, value, ...at, expires: -1, httpOnly: false }));
}

function cookiesOfText(text: string, from: string, place: CookiePlace): CookieToSet[] {
  const body = text.replace(/^\uFEFF/, "");
  const trimmed = body.trim();
  if (trimmed === "") throw inputError(`${from} is empty text: no cookies in it`);
  if (trimmed.startsWith("[") || trimmed.startsWith("{")) return cookiesOfJson(body, from, place);
  if (isNetscapeText(body)) return cookiesOfNetscape(body, from);
  return cookiesOfHeader(trimmed, from, place);
}

function cookiesOfValue(input: unknown, from: string, place: CookiePlace): CookieToSet[] {
  if (Array.isArray(input)) return cookiesOfList(input, from, place);
  // Playwright's storageState (and exports shaped like it) keep the list in `cookies`.
  if (isPlainObjectValue(input) && Array.isArray(input.cookies)) return cookiesOfList(input.cookies, `${from}.cookies`, place);
  throw inputError(`${from} must be cookies: ${FORMATS}, got ${kindOf(input)}`);
}

/**
 * Cookies in any format users have, checked and converted to what Playwright's addCookies takes. The
 * format comes from the value: an array (or an object with a `cookies` array), text that starts with
 * `[` or `{` (JSON), text with tabs or `#` lines (a Netscape cookie file), other text (a header, for
 * `domain` or `url`). A Buffer is read as UTF-8 text. One bad entry or line fails the whole input,
 * naming its index or line number, never a cookie's value.
 */
export function parseCookies(input: unknown, options: ParseOptions = {}): CookieToSet[] {
  const { from = "msg.payload", ...place } = options;
  const bytes = bytesOf(input);
  const text = bytes ? bytes.toString("utf8") : input;
  return typeof text === "string" ? cookiesOfText(text, from, place) : cookiesOfValue(text, from, place);
}

/** The cookies as `json` (the array as it is) or `netscape` (a cookie file's text; sameSite has no column in it). */
export function formatCookies<C extends CookieFields>(cookies: readonly C[], format: "json"): C[];
export function formatCookies(cookies: readonly CookieFields[], format: "netscape"): string;
export function formatCookies<C extends CookieFields>(cookies: readonly C[], format: CookieFormat): C[] | string;
export function formatCookies<C extends CookieFields>(cookies: readonly C[], format: CookieFormat): C[] | string {
  return format === "netscape" ? netscapeOf(cookies) : [...cookies];
}
