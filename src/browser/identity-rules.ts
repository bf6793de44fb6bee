/**
 * Whether a started profile looks like where its IP is: the comparisons of the browser node's `identity`
 * action, without a browser (the page reads, this file judges).
 */

/** What can disagree; a flow names the ones that count in the node's `rules`. */
export const IDENTITY_RULES = ["timezone", "language", "country", "ip", "webrtc", "webdriver", "platform"] as const;
export type IdentityRule = (typeof IDENTITY_RULES)[number];
/** Counted unless the node says otherwise: a browser language from elsewhere is common among real people. */
export const DEFAULT_RULES: readonly IdentityRule[] = ["timezone", "country", "ip", "webrtc", "webdriver", "platform"];

/** Where the IP-echo service saw the request come from (fields it did not give are undefined). */
export interface SeenExit {
  exitIp?: string;
  country?: string;
  timezone?: string;
}

/** What the page itself tells any site it opens. */
export interface BrowserSide {
  browserTimezone: string;
  languages: string[];
  webdriver: boolean;
  userAgent: string;
  /** navigator.userAgentData.platform where the browser has it, else navigator.platform. */
  platform: string;
  /** Every address in the WebRTC candidates the page gathered (mDNS names left out: they hide an address). */
  webrtc: string[];
}

/** What the flow expects beyond consistency: an exit country or IP, an operating system. */
export interface Expected {
  country?: string;
  ip?: string;
  os?: string;
}

export interface Mismatch {
  what: IdentityRule;
  expected: string;
  seen: string;
}

/** The UTC offset a time zone has at `at` ("+01:00"), or undefined for a name Intl does not know. */
export function offsetOf(timeZone: string, at: Date): string | undefined {
  try {
    const part = new Intl.DateTimeFormat("en-US", { timeZone, timeZoneName: "longOffset" }).formatToParts(at).find((p) => p.type === "timeZoneName");
    const text = part?.value.replace(/^GMT/, "") ?? "";
    return text === "" ? "+00:00" : text;
  } catch {
    return undefined;
  }
}

/** The region of a language tag ("de-DE" → "DE"), or undefined when it names none ("de"). */
export function regionOf(language: string): string | undefined {
  try {
    return new Intl.Locale(language).region?.toUpperCase();
  } catch {
    return undefined;
  }
}

const OS_NAMES: ReadonlyArray<[string, RegExp]> = [
  ["Android", /android/i],
  ["iOS", /iphone|ipad|ipod|\bios\b/i],
  ["Windows", /windows|win32|win64/i],
  ["macOS", /mac ?os|macintosh|macintel|darwin/i],
  ["Linux", /linux|x11|cros|chrome ?os/i],
];

/** The operating system a user agent, a navigator.platform or a flow's word names, as one word. */
export function osOf(text: string): string | undefined {
  return OS_NAMES.find(([, pattern]) => pattern.test(text))?.[0];
}

const PRIVATE = /^(10\.|127\.|169\.254\.|192\.168\.|172\.(1[6-9]|2\d|3[01])\.|0\.|::1$|f[cd][0-9a-f]{2}:|fe80:)/i;

/** An address other sites could see: not loopback, link-local or a private network's. */
export function isPublicAddress(address: string): boolean {
  return !PRIVATE.test(address);
}

/** Both known, and not the same (case aside). */
function differs(a: string | undefined, b: string | undefined): a is string {
  return a !== undefined && b !== undefined && a.toUpperCase() !== b.toUpperCase();
}

/** Every disagreement among the rules that count, each once, in the order of IDENTITY_RULES. */
export function mismatchesOf(exit: SeenExit, browser: BrowserSide, expected: Expected, rules: readonly IdentityRule[], at = new Date()): Mismatch[] {
  const found: Mismatch[] = [];
  const add = (what: IdentityRule, wanted: string, seen: string): void => {
    if (rules.includes(what)) found.push({ what, expected: wanted, seen });
  };
  if (exit.timezone !== undefined && offsetOf(exit.timezone, at) !== offsetOf(browser.browserTimezone, at)) add("timezone", exit.timezone, browser.browserTimezone);
  const region = browser.languages[0] === undefined ? undefined : regionOf(browser.languages[0]);
  if (differs(exit.country, region)) add("language", exit.country, browser.languages[0] ?? "");
  if (expected.country !== undefined && expected.country.toUpperCase() !== exit.country?.toUpperCase()) add("country", expected.country, exit.country ?? "");
  if (expected.ip !== undefined && expected.ip !== exit.exitIp) add("ip", expected.ip, exit.exitIp ?? "");
  const leaked = browser.webrtc.filter((address) => isPublicAddress(address) && address !== exit.exitIp);
  if (leaked.length > 0) add("webrtc", exit.exitIp ?? "", leaked.join(", "));
  if (browser.webdriver) add("webdriver", "false", "true");
  const agentOs = osOf(browser.userAgent);
  if (expected.os !== undefined) {
    const wantedOs = osOf(expected.os) ?? expected.os;
    if (wantedOs !== agentOs) add("platform", wantedOs, agentOs ?? browser.userAgent);
  } else {
    const platformOs = osOf(browser.platform);
    // An Android phone's navigator.platform says Linux (its kernel): that is no contradiction.
    const agrees = platformOs === undefined || agentOs === undefined || platformOs === agentOs || (agentOs === "Android" && platformOs === "Linux");
    if (!agrees) add("platform", agentOs, platformOs);
  }
  return found;
}
