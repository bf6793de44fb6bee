import { catalogueValue } from "./profile-catalogue-routes";
import type { ProfileSettings } from "./profile-settings";
import type { ProxyExit } from "./types";

/** What a profile's Chromium is started with, so its pages see the profile's clock, languages and network. */
export interface BrowserIdentity {
  /** An IANA zone, given to Chromium as TZ. */
  timezone?: string;
  /** navigator.languages, first the main one. */
  languages?: string[];
  /** --proxy-server: the profile's proxy (its door for the emulator's Chromium). */
  proxyServer?: string;
}

/** The language a country's exit gives a profile whose language follows its IP (assumed: one per seeded country). */
const LANGUAGE_BY_COUNTRY: Readonly<Record<string, string>> = { US: "en-US", GB: "en-GB", DE: "de-DE", JP: "ja-JP", SG: "en-SG", FR: "fr-FR", CN: "zh-CN" };

/** A part of advancedSetting with `switcher` 2 (custom) and its catalogue IDs; undefined when it follows the IP or is absent. */
function customValues(settings: ProfileSettings | undefined, part: "time_zone" | "language", kind: "timeZone" | "language"): string[] | undefined {
  const setting = settings?.advancedSetting[part];
  if (typeof setting !== "object" || setting === null) return undefined;
  const { switcher, value } = setting as { switcher?: unknown; value?: unknown };
  if (Number(switcher) !== 2 || typeof value !== "string") return undefined;
  const values = value
    .split(",")
    .map((id) => catalogueValue(kind, id))
    .filter((found): found is string => found !== undefined);
  return values.length > 0 ? values : undefined;
}

/**
 * MoreLogin's rule for time zone and language (switcher 1, the default: from the IP; 2: the value set):
 * a custom one as set, else the exit's of the profile's proxy; with neither, Chromium's own.
 */
export function browserIdentityOf(settings: ProfileSettings | undefined, exit: ProxyExit | undefined, proxyServer: string | undefined): BrowserIdentity {
  const timezone = customValues(settings, "time_zone", "timeZone")?.[0] ?? exit?.timezone;
  const ipLanguage = exit ? LANGUAGE_BY_COUNTRY[exit.country.toUpperCase()] : undefined;
  const languages = customValues(settings, "language", "language") ?? (ipLanguage ? [ipLanguage] : undefined);
  return { ...(timezone ? { timezone } : {}), ...(languages ? { languages } : {}), ...(proxyServer ? { proxyServer } : {}) };
}
