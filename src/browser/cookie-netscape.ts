import { type CookieFields, type CookieToSet, domainFor, expiresOf } from "./cookie-list";
import { inputError } from "./errors";

/** What curl and wget put before the domain of an httpOnly cookie: the line is a cookie, not a comment. */
const HTTP_ONLY = "#HttpOnly_";
const FIELDS = "domain, include subdomains, path, secure, expiry, name, value";
const FLAG = /^(true|false)$/i;
const SECONDS = /^\d+(\.\d+)?$/;

const linesOf = (text: string): string[] => text.split(/\r\n|\r|\n/);
/** A line without its leading spaces: a tab there is an empty first field (the domain), not indentation. */
const unindented = (line: string): string => line.replace(/^ +/, "");
const isComment = (line: string): boolean => line.trimStart().startsWith("#") && !unindented(line).startsWith(HTTP_ONLY);

/** Text is a cookie file when a line has a tab or is a comment: a name=value; … header has neither. */
export function isNetscapeText(text: string): boolean {
  return linesOf(text).some((line) => line.includes("\t") || line.trimStart().startsWith("#"));
}

/** One cookie line; its number and what is wrong with it go into the error, never its content. */
function cookieOfLine(text: string, at: string): CookieToSet {
  const line = unindented(text);
  const httpOnly = line.startsWith(HTTP_ONLY);
  const fields = (httpOnly ? line.slice(HTTP_ONLY.length) : line).split("\t");
  // A cookie with an empty value may have lost its last tab; some exporters end each line with one more.
  if (fields.length === 6) fields.push("");
  if (fields.length === 8 && fields[7] === "") fields.pop();
  if (fields.length !== 7) throw inputError(`${at} has ${fields.length} field${fields.length === 1 ? "" : "s"} separated by tabs; a cookie line has 7: ${FIELDS}`);
  const [domain, subdomains, path, secure, expiry, name, value] = fields.map((field, index) => (index === 6 ? field : field.trim())) as [string, string, string, string, string, string, string];
  if (domain === "") throw inputError(`${at} has no domain (its first field)`);
  if (!FLAG.test(subdomains)) throw inputError(`${at}: its second field (include subdomains) must be TRUE or FALSE`);
  if (!FLAG.test(secure)) throw inputError(`${at}: its fourth field (secure) must be TRUE or FALSE`);
  if (!SECONDS.test(expiry)) throw inputError(`${at}: its fifth field (expiry) must be seconds since 1970, 0 for a session cookie`);
  if (name === "") throw inputError(`${at} has no name (its sixth field)`);
  const expires = Number(expiry);
  return {
    name,
    value,
    domain: domainFor(domain, subdomains.toLowerCase() === "true"),
    path: path === "" ? "/" : path,
    expires: expires === 0 ? -1 : expiresOf(expires, `${at}: its fifth field (expiry)`),
    httpOnly,
    secure: secure.toLowerCase() === "true",
  };
}

/** The cookies of a Netscape cookie file (curl's and wget's cookies.txt): comments and blank lines skipped, CRLF or LF. */
export function cookiesOfNetscape(text: string, where: string): CookieToSet[] {
  const cookies: CookieToSet[] = [];
  linesOf(text).forEach((line, index) => {
    if (line.trim() === "" || isComment(line)) return;
    cookies.push(cookieOfLine(line, `line ${index + 1} of ${where} (a Netscape cookie file)`));
  });
  return cookies;
}

/** A Netscape cookie file of the cookies, as curl writes one; a session cookie's expiry is 0. */
export function netscapeOf(cookies: readonly CookieFields[]): string {
  const lines = cookies.map((cookie) =>
    [
      `${cookie.httpOnly ? HTTP_ONLY : ""}${cookie.domain}`,
      cookie.domain.startsWith(".") ? "TRUE" : "FALSE",
      cookie.path,
      cookie.secure ? "TRUE" : "FALSE",
      String(cookie.expires > 0 ? Math.trunc(cookie.expires) : 0),
      cookie.name,
      cookie.value,
    ].join("\t"),
  );
  return ["# Netscape HTTP Cookie File", "# https://curl.se/docs/http-cookies.html", "# These cookies hold logins: keep this file private.", "", ...lines, ""].join("\n");
}
