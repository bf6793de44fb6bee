import { BILLING_MONTHLY, MONTHLY_SKU, UNACTIVATED } from "./account-routes";
import { adbInfoOf, phoneProxyOf } from "./cloud-phone-data";
import { powerReply } from "./cloud-phone-routes";
import { formatUtc } from "./dates";
import { perEmulator } from "./per-emulator";
import { deviceOfSku, PHONE_STATUS } from "./phone-state";
import { idSequence, mulberry32 } from "./prng";
import { fail, isReply, ok, phoneNotFound, type Reply } from "./replies";
import { CODES } from "./codes";
import { pageOf, readPageRequest } from "./paging";
import { ParamError, readId, readIdList, readIntegerList, readObject, readString, readStringList, requireFields, requireId, requireText, type Body } from "./request-fields";
import type { Route } from "./routes";
import type { EmulatorState } from "./state";
import { groupOf, resolveProxy } from "./team-resources";
import type { CloudPhone, Tag } from "./types";

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
 * Accepted at once: each phone is listed new (0), then off (2) once provisioned. A monthly SKU's
 * phones are created unactivated until `/cloudphone/monthly/activate` (the spec); others bill per minute.
 */
function create(state: EmulatorState, body: Body): Reply {
  requireFields(body, ["skuId", "quantity"]);
  const skuId = requireText(body, "skuId");
  if (deviceOfSku(skuId) === undefined) throw new ParamError(`skuId ${skuId} is not a cloud phone model`);
  const quantity = Number(body.quantity);
  if (!Number.isInteger(quantity) || quantity < 1 || quantity > MAX_CREATE) throw new ParamError(`quantity must be from 1 to ${MAX_CREATE}`);
  const envRemark = readString(body, "envRemark") ?? "";
  if (envRemark.length > MAX_REMARK) throw new ParamError(`envRemark must be at most ${MAX_REMARK} characters`);
  const proxyId = readId(body, "proxyId");
  const proxyIndex = proxyId === undefined || proxyId === "0" ? -1 : state.data.proxies.findIndex((p) => p.id === proxyId);
  if (proxyIndex === -1 && proxyId !== undefined && proxyId !== "0") return fail(CODES.proxyNotFound, "Proxy does not exist");
  const group = groupOf(state, body) ?? { groupId: "0", groupName: null };
  const tagInfos = tagsNamed(state, readStringList(body, "tags") ?? []);
  const monthly = skuId === MONTHLY_SKU.skuId;
  const { next, random } = phoneIdsOf(state);
  const createDate = formatUtc(Date.now());
  const proxy = state.data.proxies[proxyIndex];
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
      proxy: proxy ? phoneProxyOf(proxy, proxyIndex + 1, createDate) : null,
      createDate,
    };
    state.data.cloudPhones.push(phone);
    state.phones.add(phone, skuId);
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

/** The team has uploaded no apps of its own to the emulator: an empty library, paged. */
function teamApps(state: EmulatorState, body: Body): Reply {
  return ok(pageOf([], readPageRequest(body, state.options.maxPageSize)));
}

export function phoneFleetRoutes(state: EmulatorState): Route[] {
  const post = (path: string, handle: (body: Body) => Reply): Route => ({ method: "POST", path: `/api/cloudphone${path}`, auth: true, handle: ({ body }) => handle(body) });
  return [
    post("/create", (body) => create(state, body)),
    post("/reset", (body) => powerReply(state.phones.reset(requireId(body, "id")))),
    post("/setProxy", (body) => setProxy(state, body)),
    post("/queryByAndroidId", (body) => queryByAndroidId(state, body)),
    post("/team/app/page", (body) => teamApps(state, body)),
  ];
}
