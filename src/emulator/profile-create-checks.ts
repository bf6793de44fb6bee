import { ParamError, readBoolean, readChoice, readInteger, readObject, readString, readStringList, readText, requireFields, type Body } from "./request-fields";

/**
 * The checks the browser spec (2026-09-05, `CreateEnvironmentRequest` and its parts) gives for
 * `/api/env/create/advanced`, made before anything is created: required fields, enumerations, lengths,
 * the values a switcher needs. What the spec says without a rule the emulator can apply (coordinates
 * outside mainland China, a `ua` that agrees with `uaVersion`) is not checked: docs/EMULATOR.md says so.
 */

/** The spec's lengths: envName from the older reference (the newer one only says it is unique), the others from the schema. */
export const LIMITS = { envName: 100, envRemark: 1500, groupName: 50, username: 64, password: 50 } as const;

const BINARY = [1, 2];
/** advancedSetting's parts whose `switcher` is 1 or 2 and need nothing else. */
const TWO_WAY = ["canvas", "webgl_image", "audio_context", "media_device", "client_rects", "speech_voise", "bluetooth", "battery", "port_scan_protection"];
/** Parts whose `switcher` 2 (custom) needs one more field: time zone and language IDs, a resolution ID, fonts, TLS protocols. */
const CUSTOM_NEEDS: Readonly<Record<string, string>> = { time_zone: "value", language: "value", resolution: "id", font: "value", ciphers: "value" };
const MANY_WAY: Readonly<Record<string, readonly number[]>> = { web_rtc: [1, 2, 3, 4, 5], webgl_metadata: [1, 2, 3], web_gpu: [1, 2, 3] };
const HARDWARE_CONCURRENCY = [0, 2, 3, 4, 6, 8, 10, 12];
const DEVICE_MEMORY = [0, 2, 4, 6, 8];
const CUSTOM_PLATFORM = "9999";

function maxLength(body: Body, name: string, limit: number, owner = ""): void {
  const value = readString(body, name);
  if (value !== undefined && value.length > limit) throw new ParamError(`${owner}${name} must be at most ${limit} characters`);
}

function isWebUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}

function checkAccount(account: Body): void {
  for (const name of ["username", "password", "otpSecret", "platformId", "siteId", "customerUrl"]) readString(account, name);
  maxLength(account, "username", LIMITS.username, "accountInfo.");
  maxLength(account, "password", LIMITS.password, "accountInfo.");
  const customerUrl = readText(account, "customerUrl");
  if (readText(account, "platformId") === CUSTOM_PLATFORM && customerUrl === undefined) throw new ParamError("accountInfo.customerUrl is required when platformId is 9999");
  if (customerUrl !== undefined && !isWebUrl(customerUrl)) throw new ParamError("accountInfo.customerUrl must be a valid URL");
}

function checkAfterStartup(config: Body): void {
  const mode = readChoice(config, "afterStartup", [1, 2, 3, 4]);
  const urls = readStringList(config, "autoOpenUrls");
  if ((mode === 2 || mode === 3) && (urls === undefined || urls.length === 0)) throw new ParamError("afterStartupConfig.autoOpenUrls is required when afterStartup is 2 or 3");
  const bad = urls?.findIndex((url) => !isWebUrl(url)) ?? -1;
  if (bad >= 0) throw new ParamError(`afterStartupConfig.autoOpenUrls[${bad}] must be a valid URL`);
}

/** One part of advancedSetting that has a `switcher`: an object, its switcher one of `allowed`. */
function switcherOf(advanced: Body, part: string, allowed: readonly number[]): { body: Body; switcher: number | undefined } | undefined {
  const body = readObject(advanced, part);
  if (body === undefined) return undefined;
  try {
    return { body, switcher: readChoice(body, "switcher", allowed) };
  } catch (error) {
    throw error instanceof ParamError ? new ParamError(`advancedSetting.${part}.${error.message.replace(/^Request parameter error: /, "")}`) : error;
  }
}

function checkGeoLocation(advanced: Body): void {
  const geo = switcherOf(advanced, "geo_location", BINARY);
  if (!geo) return;
  if (readBoolean(geo.body, "base_on_ip") !== false) return;
  for (const name of ["latitude", "longitude", "accuracy"]) {
    const value = geo.body[name];
    if (typeof value !== "number" || !Number.isFinite(value)) throw new ParamError(`advancedSetting.geo_location.${name} is required (a number) when base_on_ip is false`);
  }
}

function checkAdvanced(advanced: Body): void {
  for (const part of TWO_WAY) switcherOf(advanced, part, BINARY);
  for (const [part, allowed] of Object.entries(MANY_WAY)) switcherOf(advanced, part, allowed);
  for (const [part, needed] of Object.entries(CUSTOM_NEEDS)) {
    const config = switcherOf(advanced, part, BINARY);
    if (config?.switcher === 2 && readText(config.body, needed) === undefined) throw new ParamError(`advancedSetting.${part}.${needed} is required when its switcher is 2`);
  }
  checkGeoLocation(advanced);
  readChoice(advanced, "hardware_concurrency", HARDWARE_CONCURRENCY);
  readChoice(advanced, "memery_device", DEVICE_MEMORY);
  readChoice(advanced, "do_not_track", BINARY);
  for (const name of ["ua", "os_version", "mobile_device"]) readString(advanced, name);
}

/** Throws the ParamError (99001) for the first thing in the body the spec does not allow. */
export function checkAdvancedCreate(body: Body): void {
  requireFields(body, ["browserTypeId", "operatorSystemId"]);
  maxLength(body, "envName", LIMITS.envName);
  maxLength(body, "envRemark", LIMITS.envRemark);
  maxLength(body, "groupName", LIMITS.groupName);
  for (const name of ["disableAudio", "disableImg", "disableVideo"]) readChoice(body, name, [0, 1]);
  readInteger(body, "imgLimitSize");
  readInteger(body, "uaVersion");
  readString(body, "cookies");
  readStringList(body, "startupParams");
  const account = readObject(body, "accountInfo");
  if (account) checkAccount(account);
  const afterStartup = readObject(body, "afterStartupConfig");
  if (afterStartup) checkAfterStartup(afterStartup);
  const advanced = readObject(body, "advancedSetting");
  if (advanced) checkAdvanced(advanced);
}
