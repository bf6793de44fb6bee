import { BILLING_MONTHLY, MONTHLY_SKU, UNACTIVATED } from "./account-routes";
import { adbInfoOf, phoneProxyOf } from "./cloud-phone-data";
import { powerReply } from "./cloud-phone-routes";
import { formatUtc } from "./dates";
import { perEmulator } from "./per-emulator";
import { PHONE_STATUS } from "./phone-state";
import { modelNamed, modelsOf, skuOf } from "./phone-models";
import { idSequence, mulberry32 } from "./prng";
import { fail, isReply, ok, phoneNotFound, type Reply } from "./replies";
import { CODES } from "./codes";
import { pageOf, readPageRequest } from "./paging";
import {
  ParamError,
  readBoolean,
  readId,
  readIdList,
  readInteger,
  readIntegerList,
  readObject,
  readString,
  readStringList,
  readText,
  requireFields,
  requireId,
  requireText,
  type Body,
} from "./request-fields";
import type { Route } from "./routes";
import type { EmulatorState } from "./state";
import { groupOf, resolveProxy } from "./team-resources";
import type { ApiName, CloudPhone, CloudPhoneProxy, Tag } from "./types";

/** Creating, resetting, re-proxying and finding cloud phones, and the team's app library (Local API). */

const MAX_CREATE = 10;
const MAX_REMARK = 1500;

const phoneIdsOf = perEmulator((state) => {
  const random = mulberry32(state.options.seed ^ 0xc4ea);
  return { next: idSequence(random, 1_724_000_000_000_000n, 1_000_000), random };
});

/** Tag names that are the team's tags; other names are left out (the emulator does not create tags here). */
function tagsNamed(state: EmulatorState, names: readonly string[]): Tag[] {
  const wanted = new Set(names.map((name) => name.trim()).filter((name) => name !== ""));
  return state.data.tags.filter((tag) => wanted.has(tag.tagName));
}

/**
 * The phone's view of the proxy `proxyId` names: null for "0" (none), undefined when the body names
 * none, or the refusal of an unknown ID.
 */
function phoneProxyNamed(state: EmulatorState, body: Body): CloudPhoneProxy | null | undefined | Reply {
  const proxyId = readId(body, "proxyId");
  if (proxyId === undefined) return undefined;
  if (proxyId === "0") return null;
  const index = state.data.proxies.findIndex((p) => p.id === proxyId);
  const proxy = state.data.proxies[index];
  return proxy ? phoneProxyOf(proxy, index + 1, formatUtc(Date.now())) : fail(CODES.proxyNotFound, "Proxy does not exist");
}

/**
 * Accepted at once: each phone is listed new (0), then off (2) once provisioned. A monthly SKU's
 * phones are created unactivated until `/cloudphone/monthly/activate` (the spec); others bill per minute.
 */
function create(state: EmulatorState, body: Body): Reply {
  requireFields(body, ["skuId", "quantity"]);
  const skuId = requireText(body, "skuId");
  const sku = skuOf(skuId);
  if (sku === undefined) throw new ParamError(`skuId ${skuId} is not a cloud phone model`);
  // The specification: a brand and model brand/models does not list for the SKU is rejected.
  const device = modelNamed(sku, readText(body, "brand"), readInteger(body, "modelId"));
  if (typeof device === "string") throw new ParamError(device);
  const quantity = readInteger(body, "quantity") ?? 0;
  if (quantity < 1 || quantity > MAX_CREATE) throw new ParamError(`quantity must be from 1 to ${MAX_CREATE}`);
  const envRemark = readString(body, "envRemark") ?? "";
  if (envRemark.length > MAX_REMARK) throw new ParamError(`envRemark must be at most ${MAX_REMARK} characters`);
  const proxy = phoneProxyNamed(state, body);
  if (isReply(proxy)) return proxy;
  const group = groupOf(state, body) ?? { groupId: "0", groupName: null };
  const tagInfos = tagsNamed(state, readStringList(body, "tags") ?? []);
  const monthly = skuId === MONTHLY_SKU.skuId;
  const { next, random } = phoneIdsOf(state);
  const createDate = formatUtc(Date.now());
  const ids = Array.from({ length: quantity }, () => {
    const phone: CloudPhone = {
      id: next(),
      envName: `CP-${state.data.cloudPhones.length + 1}`,
      envRemark,
      envStatus: PHONE_STATUS.new,
      abnormalStatus: monthly ? UNACTIVATED : 0,
      billingType: monthly ? BILLING_MONTHLY : 1,
      enableAdb: false,
      supportAdb: true,
      adbInfo: adbInfoOf(PHONE_STATUS.new, false, () => ({ adbIp: "", adbPassword: "", adbPort: "", command: null, expireTime: null })),
      ...group,
      tagInfos,
      androidId: Array.from({ length: 16 }, () => Math.floor(random() * 16).toString(16)).join(""),
      proxyStatus: 0,
      proxy: proxy ?? null,
      createDate,
    };
    state.data.cloudPhones.push(phone);
    state.phones.add(phone, sku, device);
    return phone.id;
  });
  return ok(ids);
}

/** By `ids` and/or `uniqueIds` (the phone's place in the list, from 1); every phone named must exist. */
function setProxy(state: EmulatorState, body: Body): Reply {
  requireFields(body, ["proxy"]);
  const ids = readIdList(body, "ids") ?? [];
  const serials = readIntegerList(body, "uniqueIds") ?? [];
  if (ids.length === 0 && serials.length === 0) throw new ParamError("ids or uniqueIds is required");
  const phones = [...ids.map((id) => state.phones.get(id)?.phone), ...serials.map((n) => state.data.cloudPhones[n - 1])];
  if (phones.some((phone) => phone === undefined)) return phoneNotFound();
  const proxy = resolveProxy(state, readObject(body, "proxy") ?? {});
  if (isReply(proxy)) return proxy;
  const phoneProxy = phoneProxyOf(proxy, state.data.proxies.indexOf(proxy) + 1, formatUtc(Date.now()));
  for (const phone of phones) {
    if (!phone) continue;
    phone.proxy = phoneProxy;
    phone.proxyStatus = 0; // the check state is reset (the spec)
  }
  return ok(null);
}

/** An empty `androidId` finds nothing (data null, the spec); so does an unknown one. */
function queryByAndroidId(state: EmulatorState, body: Body): Reply {
  requireFields(body, ["androidId"]);
  const androidId = readString(body, "androidId") ?? "";
  const phone = androidId === "" ? undefined : state.data.cloudPhones.find((p) => p.androidId === androidId);
  const entry = phone && state.phones.get(phone.id);
  return ok(entry ? state.phones.detail(entry) : null);
}

const phoneInUse = (): Reply => fail(CODES.phoneInUse, "Other members are using cloud phones and cannot be deactivated.");

const MAX_NAME = 64;
const MAX_HIDE = 100;

/** Only the fields sent change; every phone named must exist, or none changes. `proxyId` "0" unbinds. */
function editBatch(state: EmulatorState, body: Body): Reply {
  requireFields(body, ["id"]);
  const ids = readIdList(body, "id") ?? [];
  if (ids.length === 0) throw new ParamError("id must hold at least one ID");
  const envName = readText(body, "envName");
  if (envName !== undefined && envName.length > MAX_NAME) throw new ParamError(`envName must be at most ${MAX_NAME} characters`);
  const envRemark = readString(body, "envRemark");
  if (envRemark !== undefined && envRemark.length > MAX_REMARK) throw new ParamError(`envRemark must be at most ${MAX_REMARK} characters`);
  readBoolean(body, "enableRoot");
  const proxy = phoneProxyNamed(state, body);
  if (isReply(proxy)) return proxy;
  const phones = ids.map((id) => state.phones.get(id)?.phone);
  if (phones.some((phone) => phone === undefined)) return phoneNotFound();
  const group = groupOf(state, body);
  const tags = readStringList(body, "tags");
  for (const phone of phones) {
    if (!phone) continue;
    if (envName !== undefined) phone.envName = envName;
    if (envRemark !== undefined) phone.envRemark = envRemark;
    if (group) Object.assign(phone, group);
    if (tags) phone.tagInfos = tagsNamed(state, tags);
    if (proxy !== undefined) phone.proxy = proxy;
  }
  return ok(null);
}

/** Abnormal status 4: a released phone that had been activated stays listed as deactivated (the spec). */
const DEACTIVATED = 4;

/**
 * One phone after another, stopping at the first that does not exist or is resetting or restarting
 * (33327; the earlier ones stay deleted, as the spec warns). A phone never activated leaves the list; any other is powered off
 * and stays listed, deactivated.
 */
function deleteBatch(state: EmulatorState, body: Body): Reply {
  requireFields(body, ["ids"]);
  const ids = readIdList(body, "ids") ?? [];
  if (ids.length === 0) throw new ParamError("ids must hold at least one ID");
  for (const id of ids) {
    const entry = state.phones.get(id);
    if (!entry) return phoneNotFound();
    // MoreLogin's skill: right after newMachine, a delete can be refused while the reset runs.
    const refused = entry.phone.envStatus === PHONE_STATUS.resetting || entry.phone.envStatus === PHONE_STATUS.restarting;
    state.served.phone(id, "delete", !refused);
    if (refused) return phoneInUse();
    if (entry.phone.abnormalStatus === UNACTIVATED) {
      state.phones.remove(id);
      state.data.cloudPhones.splice(state.data.cloudPhones.indexOf(entry.phone), 1);
      continue;
    }
    state.phones.powerOff(id);
    entry.phone.abnormalStatus = DEACTIVATED;
  }
  return ok(null);
}

/** The emulator's devices of the SKU, with the `modelId` a create names each by; an unknown SKU gives an empty list (the spec). */
function brandModels(body: Body): Reply {
  requireFields(body, ["skuId"]);
  return ok(modelsOf(requireText(body, "skuId")));
}

/** Nothing is stored (the spec): only checked. Fails when none of the phones exists. */
function hideAccessibilityApps(state: EmulatorState, body: Body): Reply {
  const ids = readIdList(body, "ids") ?? [];
  const packages = readStringList(body, "packageName") ?? [];
  if (ids.length === 0 || ids.length > MAX_HIDE || packages.length === 0 || packages.length > MAX_HIDE) throw new ParamError(`ids and packageName must each hold 1 to ${MAX_HIDE} items`);
  return ids.some((id) => state.phones.get(id)) ? ok(true) : phoneNotFound();
}

/** The team has uploaded no apps of its own to the emulator: an empty library, paged. */
function teamApps(state: EmulatorState, body: Body): Reply {
  return ok(pageOf([], readPageRequest(body, state.options.maxPageSize)));
}

/** The Local API's routes, or (`open`) those the Open API spec documents too, under `/cloudphone`. */
export function phoneFleetRoutes(state: EmulatorState, api: ApiName = "local"): Route[] {
  const base = api === "local" ? "/api/cloudphone" : "/cloudphone";
  const post = (path: string, handle: (body: Body) => Reply): Route => ({ method: "POST", path: `${base}${path}`, auth: true, handle: ({ body }) => handle(body) });
  const both = [
    post("/create", (body) => create(state, body)),
    post("/edit/batch", (body) => editBatch(state, body)),
    post("/delete/batch", (body) => deleteBatch(state, body)),
    post("/brand/models", brandModels),
    post("/app/setHideAccessibilityApp", (body) => hideAccessibilityApps(state, body)),
  ];
  if (api === "open") return both;
  return [
    ...both,
    post("/reset", (body) => powerReply(state.phones.reset(requireId(body, "id")))),
    post("/setProxy", (body) => setProxy(state, body)),
    post("/queryByAndroidId", (body) => queryByAndroidId(state, body)),
    post("/team/app/page", (body) => teamApps(state, body)),
  ];
}
