import { parseCookies } from "../../../browser/cookie-formats";
import type { CookieToSet } from "../../../browser/cookie-list";

/** sameSite as browser extensions (chrome.cookies) export it. */
const SAME_SITE = { Strict: "strict", Lax: "lax", None: "no_restriction" } as const;

/** One cookie as a browser extension's JSON export holds it (EditThisCookie, Cookie-Editor). */
interface ExportedCookie {
  name: string;
  value: string;
  domain: string;
  hostOnly: boolean;
  path: string;
  secure: boolean;
  httpOnly: boolean;
  sameSite: string;
  session: boolean;
  expirationDate?: number;
}

function exported(cookie: CookieToSet): ExportedCookie {
  const session = cookie.expires <= 0;
  return {
    name: cookie.name,
    value: cookie.value,
    domain: cookie.domain,
    hostOnly: !cookie.domain.startsWith("."),
    path: cookie.path,
    secure: cookie.secure,
    httpOnly: cookie.httpOnly,
    sameSite: cookie.sameSite === undefined ? "unspecified" : SAME_SITE[cookie.sameSite],
    session,
    ...(session ? {} : { expirationDate: cookie.expires }),
  };
}

/**
 * What create/advanced sends in MoreLogin's `cookies` string, from cookies in any format the cookie
 * module reads (an array of objects, its JSON text, a Netscape cookie file, a `name=value; …` header for
 * `domain`). MoreLogin's spec says only "Cookie string to preload": we send the JSON text of the array
 * a browser extension exports, the most common cookie export, which holds every field of a cookie
 * (docs/PROVISIONING.md says why, and that it is our choice).
 * A bad entry or line throws an input error that names it, before anything is sent.
 */
export function moreLoginCookies(input: unknown, domain: string | undefined): string {
  const cookies = parseCookies(input, { from: "cookies", ...(domain === undefined ? {} : { domain }) });
  return JSON.stringify(cookies.map(exported));
}
