import { ParamError, readChoice, readInteger, readObject, readString, readStringList, type Body } from "./request-fields";
import type { Profile } from "./types";

/** The parts of /api/env/detail that the profile list does not carry. */
export interface ProfileSettings {
  browserTypeId: number;
  operatorSystemId: number;
  isEncrypt: number;
  uaVersion: number;
  browserCore: number;
  accountInfo: Record<string, unknown>;
  isShowAccount: number;
  afterStartupConfig: Record<string, unknown>;
  startupParams: string[] | null;
  cookies: string | null;
  advancedSetting: Record<string, unknown>;
  /** Fields a create/advanced carried that the emulator has no use for (disableAudio, imgLimitSize, ...): kept, shown in detail. */
  extras: Record<string, unknown>;
}

/** The kernel the emulator's browsers report (see /api/env/start). */
export const UA_VERSION = 142;

export function defaultSettings(): ProfileSettings {
  return {
    browserTypeId: 1,
    operatorSystemId: 1,
    isEncrypt: 0,
    uaVersion: UA_VERSION,
    browserCore: 0,
    accountInfo: { username: "", password: "", siteId: "0", platformId: "0", customerUrl: "", otpSecret: null },
    isShowAccount: 0,
    afterStartupConfig: { afterStartup: 1, autoOpenUrls: [], platformUrl: null },
    startupParams: null,
    cookies: null,
    advancedSetting: {},
    extras: {},
  };
}

/** The /api/env/detail answer: the list item's fields followed by the settings. */
export function detailOf(profile: Profile, settings: ProfileSettings): Record<string, unknown> {
  const { extras, ...rest } = settings;
  return { ...extras, ...profile, ...rest };
}

const ACCOUNT_FIELDS = ["username", "password", "siteId", "platformId", "customerUrl", "otpSecret"];

/** Copies the named fields of `from` that are strings over `into`. */
function mergeStrings(into: Record<string, unknown>, from: Body, names: readonly string[], owner: string): Record<string, unknown> {
  const merged = { ...into };
  for (const name of names) {
    const value = readString(from, name);
    if (value !== undefined) merged[name] = value;
    else if (Object.hasOwn(from, name) && from[name] !== null) throw new ParamError(`${owner}.${name} must be a string`);
  }
  return merged;
}

/**
 * The settings after an update: only the fields the body carries change; advancedSetting is merged
 * key by key ("existing values are kept unless overwritten"). The operating system and browser type
 * cannot change: sending a different one is refused.
 */
export function updatedSettings(settings: ProfileSettings, body: Body): ProfileSettings {
  const next = { ...settings };
  for (const name of ["browserTypeId", "operatorSystemId"] as const) {
    const value = readInteger(body, name);
    if (value !== undefined && value !== settings[name]) throw new ParamError(`${name} cannot be changed`);
  }
  next.isEncrypt = readChoice(body, "isEncrypt", [0, 1]) ?? next.isEncrypt;
  next.uaVersion = readInteger(body, "uaVersion") ?? next.uaVersion;
  next.browserCore = readInteger(body, "browserCore") ?? next.browserCore;
  const account = readObject(body, "accountInfo");
  if (account) next.accountInfo = mergeStrings(next.accountInfo, account, ACCOUNT_FIELDS, "accountInfo");
  const afterStartup = readObject(body, "afterStartupConfig");
  if (afterStartup) {
    const urls = readStringList(afterStartup, "autoOpenUrls");
    const mode = readChoice(afterStartup, "afterStartup", [1, 2, 3, 4]);
    next.afterStartupConfig = { ...next.afterStartupConfig, ...(mode === undefined ? {} : { afterStartup: mode }), ...(urls === undefined ? {} : { autoOpenUrls: urls }) };
  }
  next.startupParams = readStringList(body, "startupParams") ?? next.startupParams;
  next.cookies = readString(body, "cookies") ?? next.cookies;
  const advanced = readObject(body, "advancedSetting");
  if (advanced) next.advancedSetting = { ...next.advancedSetting, ...advanced };
  for (const name of ["disableAudio", "disableImg", "disableVideo"]) readChoice(body, name, [0, 1]);
  readInteger(body, "imgLimitSize");
  return next;
}
