import { CODES } from "./codes";
import { profileById, profileByIdOrSerial, profilesOf } from "./profile-lookup";
import { defaultSettings, detailOf, UA_VERSION, updatedSettings, type ProfileSettings } from "./profile-settings";
import { fail, isReply, ok, profileNotFound, type Reply } from "./replies";
import { ParamError, readBoolean, readChoice, readId, readIdList, readInteger, readObject, readString, readText, requireFields, type Body } from "./request-fields";
import type { Route } from "./routes";
import type { EmulatorState } from "./state";
import { groupByName, groupOf, resolveProxy } from "./team-resources";
import type { Profile, ProxyInfo } from "./types";

/** Profile management on the Local API (the browser spec has no Open API twin for these). */

const MAX_QUICK_CREATE = 50;
const MAX_REMARK = 1500;
const FIREFOX = 2;

const settingsOf = (state: EmulatorState, profile: Profile): ProfileSettings => state.profileSettings.get(profile.id) ?? defaultSettings();

/** The proxy a body's `proxy` object names, null when it has none, or the refusal. */
function proxyOf(state: EmulatorState, body: Body): ProxyInfo | null | Reply {
  const proxy = readObject(body, "proxy");
  return proxy === undefined ? null : resolveProxy(state, proxy);
}

export function createQuick(state: EmulatorState, body: Body): Reply {
  requireFields(body, ["browserTypeId", "operatorSystemId", "quantity"]);
  const browserTypeId = readChoice(body, "browserTypeId", [1, 2]) ?? 1;
  const operatorSystemId = readChoice(body, "operatorSystemId", [1, 2, 3, 4, 5]) ?? 1;
  const quantity = readInteger(body, "quantity") ?? 0;
  if (quantity < 1 || quantity > MAX_QUICK_CREATE) throw new ParamError(`quantity must be from 1 to ${MAX_QUICK_CREATE}`);
  if (browserTypeId === FIREFOX && operatorSystemId > 2) throw new ParamError("Firefox is only available on Windows and macOS");
  const isEncrypt = readChoice(body, "isEncrypt", [0, 1]) ?? 0;
  const browserCore = readInteger(body, "browserCore") ?? 0;
  const proxy = proxyOf(state, body);
  if (isReply(proxy)) return proxy;
  const group = groupOf(state, body) ?? { groupId: "0", groupName: null };
  const ids: string[] = [];
  for (let i = 0; i < quantity; i++) {
    const id = state.ids.profile();
    // New profiles are named P-<serial>, as the spec's examples show (uniqueId 1788, envName "P-1788").
    const profile: Profile = { id, envName: "", ...group, tagInfos: [], envRemark: null, proxyId: proxy?.id ?? "0", proxy };
    profile.envName = `P-${state.addProfile(profile)}`;
    state.profileSettings.set(id, { ...defaultSettings(), browserTypeId, operatorSystemId, isEncrypt, browserCore, uaVersion: browserCore > 0 ? browserCore : UA_VERSION });
    ids.push(id);
  }
  return ok(ids);
}

function remarkOf(body: Body): string | undefined {
  const envRemark = readString(body, "envRemark");
  if (envRemark !== undefined && envRemark.length > MAX_REMARK) throw new ParamError(`envRemark must be at most ${MAX_REMARK} characters`);
  return envRemark;
}

export function update(state: EmulatorState, body: Body): Reply {
  const profile = profileById(state, body);
  if (!profile) return profileNotFound();
  const settings = updatedSettings(settingsOf(state, profile), body);
  const envName = readText(body, "envName");
  const envRemark = remarkOf(body);
  const tagIds = readIdList(body, "tagIds");
  const tagInfos = tagIds?.map((id) => state.data.tags.find((tag) => tag.id === id));
  if (tagInfos?.some((tag) => tag === undefined)) throw new ParamError("tagIds names a tag that does not exist");
  const proxy = updatedProxy(state, body);
  if (isReply(proxy)) return proxy;
  const group = groupOf(state, body);
  // Every check has passed: apply the fields the body carries.
  if (envName !== undefined) profile.envName = envName;
  if (envRemark !== undefined) profile.envRemark = envRemark === "" ? null : envRemark;
  if (tagInfos) profile.tagInfos = tagInfos.filter((tag) => tag !== undefined);
  if (proxy !== undefined) setProxy(profile, proxy);
  if (group) Object.assign(profile, group);
  state.profileSettings.set(profile.id, settings);
  return ok(null);
}

/** `proxyId` in an update: "0" removes the proxy, another must exist; undefined when not sent. */
function updatedProxy(state: EmulatorState, body: Body): ProxyInfo | null | undefined | Reply {
  const proxyId = readId(body, "proxyId");
  if (proxyId === undefined) return undefined;
  if (proxyId === "0") return null;
  return state.data.proxies.find((p) => p.id === proxyId) ?? fail(CODES.proxyNotFound, "Proxy does not exist");
}

function setProxy(profile: Profile, proxy: ProxyInfo | null): void {
  profile.proxyId = proxy?.id ?? "0";
  profile.proxy = proxy;
}

function removeToRecycleBin(state: EmulatorState, body: Body): Reply {
  const envIds = readIdList(body, "envIds");
  if (envIds === undefined || envIds.length === 0) throw new ParamError("envIds is required");
  readBoolean(body, "removeEnvData");
  if (envIds.some((id) => !state.profilesById.has(id))) return profileNotFound();
  // The spec: the profile "must not be running ... Close the browser first."
  if (envIds.some((id) => state.sessions.isOpen(id))) return fail(CODES.alreadyRunning, "Profile is running; close it first");
  state.removeProfiles(new Set(envIds));
  return ok(true);
}

function detail(state: EmulatorState, body: Body): Reply {
  const profile = profileById(state, body);
  return profile ? ok(detailOf(profile, settingsOf(state, profile))) : profileNotFound();
}

function refreshFingerprint(state: EmulatorState, body: Body): Reply {
  const profile = profileByIdOrSerial(state, body);
  const uaVersion = readInteger(body, "uaVersion");
  const browserTypeId = readChoice(body, "browserTypeId", [1, 2]);
  const operatorSystemId = readChoice(body, "operatorSystemId", [1, 2, 3, 4]);
  const advancedSetting = readObject(body, "advancedSetting");
  if (!profile) return profileNotFound();
  const settings = settingsOf(state, profile);
  // A fresh fingerprint: generated values the spec does not show are left out; values sent win.
  state.profileSettings.set(profile.id, {
    ...settings,
    uaVersion: uaVersion ?? settings.uaVersion,
    browserTypeId: browserTypeId ?? settings.browserTypeId,
    operatorSystemId: operatorSystemId ?? settings.operatorSystemId,
    advancedSetting: { ...advancedSetting },
  });
  return ok(null);
}

const CACHE_TYPES = ["localStorage", "indexedDB", "cookie", "extension"] as const;

function removeLocalCache(state: EmulatorState, body: Body): Reply {
  const profile = profileByIdOrSerial(state, body);
  const chosen = CACHE_TYPES.filter((name) => readBoolean(body, name) === true);
  const extensionFile = readBoolean(body, "extensionFile") === true;
  if (chosen.length === 0 && !extensionFile) throw new ParamError("select at least one cache type");
  if (!profile) return profileNotFound();
  if (settingsOf(state, profile).browserTypeId === FIREFOX && chosen.length < CACHE_TYPES.length) throw new ParamError("Firefox profiles must clear every cache type at once");
  return ok({ envId: profile.id });
}

/** Cloud cache: nothing of it lives in the emulator, so only the request is checked. */
function cleanCloudCache(state: EmulatorState, body: Body): Reply {
  const profile = profileByIdOrSerial(state, body);
  const chosen = ["cookie", "others"].filter((name) => readBoolean(body, name) === true);
  if (chosen.length === 0) throw new ParamError("select cookie, others or both");
  return profile ? ok(null) : profileNotFound();
}

/** Each profile a batch names, or the refusal when one of them does not exist. */
function targets(state: EmulatorState, body: Body): Profile[] | Reply {
  return profilesOf(state, body) ?? profileNotFound();
}

function setGroupBatch(state: EmulatorState, body: Body): Reply {
  requireFields(body, ["groupName"]);
  const groupName = readText(body, "groupName");
  if (groupName === undefined) throw new ParamError("groupName is required");
  const profiles = targets(state, body);
  if (isReply(profiles)) return profiles;
  const group = groupByName(state, groupName);
  for (const profile of profiles) Object.assign(profile, group);
  return ok(true);
}

function setProxyBatch(state: EmulatorState, body: Body): Reply {
  requireFields(body, ["proxy"]);
  const profiles = targets(state, body);
  if (isReply(profiles)) return profiles;
  const proxy = proxyOf(state, body);
  if (isReply(proxy)) return proxy;
  for (const profile of profiles) setProxy(profile, proxy);
  return ok(true);
}

function setRemarkBatch(state: EmulatorState, body: Body): Reply {
  requireFields(body, ["envRemark"]);
  const envRemark = remarkOf(body) ?? "";
  const profiles = targets(state, body);
  if (isReply(profiles)) return profiles;
  for (const profile of profiles) profile.envRemark = envRemark === "" ? null : envRemark;
  return ok(true);
}

export function profileRoutes(state: EmulatorState): Route[] {
  const post = (path: string, handle: (state: EmulatorState, body: Body) => Reply): Route => ({ method: "POST", path, auth: true, handle: ({ body }) => handle(state, body) });
  return [
    post("/api/env/create/quick", createQuick),
    post("/api/env/update", update),
    post("/api/env/removeToRecycleBin/batch", removeToRecycleBin),
    post("/api/env/detail", detail),
    post("/api/env/fingerprint/refresh", refreshFingerprint),
    post("/api/env/removeLocalCache", removeLocalCache),
    post("/api/env/cache/cleanCloud", cleanCloudCache),
    post("/api/env/setGroup/batch", setGroupBatch),
    post("/api/env/setProxy/batch", setProxyBatch),
    post("/api/env/setRemark/batch", setRemarkBatch),
  ];
}
