import { CODES } from "./codes";
import { fail, ok, okInteger, type Reply } from "./replies";
import { ParamError, readBoolean, readChoice, readId, readInteger, readText, requireFields, requireId, requireText, type Body } from "./request-fields";
import type { Route } from "./routes";
import { numbered } from "./seed-parts";
import type { EmulatorState } from "./state";
import { ownProxy } from "./team-resources";
import type { ProxyInfo } from "./types";

/** Adding, overwriting and deleting the team's proxies (shared spec, /proxyInfo/add, /update, /delete). */

/** The providers the shared spec lists for add and update: 0 HTTP ... 17 922S5. */
const PROVIDERS = Array.from({ length: 18 }, (_, index) => index);
/** Luminati and Lumauto need `proxyType`; 922S5 needs `country` (the spec's special rules). */
const NEEDS_TYPE = [7, 8];
const NEEDS_COUNTRY = 17;
/** 1 to 14 for add; update's spec example sends 0 ("usually 0 for plain"). */
const ENCRYPTION_TYPES = Array.from({ length: 15 }, (_, index) => index);
const EXPIRED = 3;
const PLATFORM = 1;

/**
 * A proxy as the body describes it: every field not sent falls back to its default (update is a
 * full overwrite, the spec says).
 */
function proxyFrom(body: Body, id: string, index: number, action: "add" | "update"): ProxyInfo {
  requireFields(body, ["proxyIp", "proxyPort", "proxyProvider"]);
  const proxyIp = requireText(body, "proxyIp");
  const proxyPort = readInteger(body, "proxyPort");
  if (proxyPort === undefined || proxyPort < 1 || proxyPort > 65535) throw new ParamError("proxyPort must be from 1 to 65535");
  const provider = readChoice(body, "proxyProvider", PROVIDERS) ?? 0;
  const proxyType = readChoice(body, "proxyType", [0, 1, 2, 3]);
  if (NEEDS_TYPE.includes(provider) && proxyType === undefined) throw new ParamError("proxyType is required for this proxyProvider");
  const country = readText(body, "country");
  if (provider === NEEDS_COUNTRY && country === undefined) throw new ParamError("country is required for this proxyProvider");
  readChoice(body, "encryptionType", ENCRYPTION_TYPES.slice(action === "add" ? 1 : 0));
  readChoice(body, "ipChangeAction", [0, 1]);
  readBoolean(body, "ipMonitor");
  readText(body, "password");
  return ownProxy(id, body, {
    proxyName: readText(body, "proxyName")?.replaceAll("{{random}}", id.slice(-6)) ?? numbered("Proxy", index),
    proxyType: proxyType ?? (provider <= 3 ? provider : 0),
    proxyProvider: provider,
    proxyIp,
    proxyPort,
  });
}

/** No uniqueness check (the spec): the same body twice gives two proxies. `data` is the new ID as a JSON integer. */
function add(state: EmulatorState, body: Body): Reply {
  const proxy = proxyFrom(body, state.ids.proxy(), state.data.proxies.length, "add");
  state.data.proxies.push(proxy);
  return okInteger(proxy.id);
}

/** Overwrites the record in place, so profiles bound to it keep their binding and show the new details. */
function update(state: EmulatorState, body: Body): Reply {
  const id = requireId(body, "id");
  const existing = state.data.proxies.find((proxy) => proxy.id === id);
  const index = existing ? state.data.proxies.indexOf(existing) : 0;
  const replacement = proxyFrom(body, id, index, "update");
  if (!existing) return fail(CODES.proxyNotFound, "Proxy does not exist");
  Object.assign(existing, replacement);
  return ok(null);
}

/**
 * The body is a bare JSON array of IDs. Unknown IDs are ignored when one is known; the first unexpired platform proxy
 * stops the batch (those before it stay deleted). Profiles keep pointing at a deleted proxy (the spec).
 */
function remove(state: EmulatorState, list: readonly unknown[] | undefined): Reply {
  if (list === undefined) throw new ParamError("the body must be a JSON array of proxy IDs");
  const ids = list.map((item, index) => {
    const id = readId({ id: item }, "id");
    if (id === undefined) throw new ParamError(`[${index}] must be a numeric ID`);
    return id;
  });
  if (ids.length === 0) throw new ParamError("the body must list at least one proxy ID");
  if (!ids.some((id) => state.data.proxies.some((proxy) => proxy.id === id))) return fail(CODES.proxyNotFound, "Proxy does not exist");
  for (const id of ids) {
    const index = state.data.proxies.findIndex((proxy) => proxy.id === id);
    const proxy = state.data.proxies[index];
    if (proxy === undefined) continue;
    if (proxy.proxyCategoryType === PLATFORM && proxy.proxyStatus !== EXPIRED) return fail(CODES.proxyNotDeletable, "An unexpired platform proxy cannot be deleted");
    state.data.proxies.splice(index, 1);
  }
  return ok(null);
}

/** `base` is "/api" on the Local API, "" on the Open API. */
export function proxyRoutes(state: EmulatorState, base: string): Route[] {
  return [
    { method: "POST", path: `${base}/proxyInfo/add`, auth: true, handle: ({ body }) => add(state, body) },
    { method: "POST", path: `${base}/proxyInfo/update`, auth: true, handle: ({ body }) => update(state, body) },
    { method: "POST", path: `${base}/proxyInfo/delete`, auth: true, arrayBody: true, handle: ({ list }) => remove(state, list) },
  ];
}
