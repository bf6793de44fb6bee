import { CODES } from "./codes";
import { fail, type Reply } from "./replies";
import { numbered } from "./seed-parts";
import { ParamError, readId, readInteger, readText, type Body } from "./request-fields";
import type { EmulatorState } from "./state";
import type { Group, ProxyInfo } from "./types";

/** Groups and proxies that profile requests name, find or create (the browser spec's rules). */

const MAX_GROUP_NAME = 50;
/** PiaProxy, 922S5 and 360Proxy: the spec lets their host and port be empty. */
const HOSTLESS_PROVIDERS = [16, 17, 18];

export type GroupRef = { groupId: string; groupName: string | null };

function groupNamed(state: EmulatorState, groupName: string): Group {
  if (groupName.length > MAX_GROUP_NAME) throw new ParamError(`groupName must be at most ${MAX_GROUP_NAME} characters`);
  const existing = state.data.groups.find((group) => group.groupName === groupName);
  if (existing) return existing;
  const created = { id: state.ids.group(), groupName };
  state.data.groups.push(created);
  return created;
}

/** `groupName` alone: the group of that name, created when there is none. */
export function groupByName(state: EmulatorState, groupName: string): GroupRef {
  const group = groupNamed(state, groupName);
  return { groupId: group.id, groupName: group.groupName };
}

/**
 * The group a create or update names: a valid `groupId` wins, else `groupName` (created when new);
 * `groupId` "0" alone means ungrouped. Undefined when the body names no group. An unknown
 * `groupId` without a name is a parameter error (the spec: "A groupId must already exist").
 */
export function groupOf(state: EmulatorState, body: Body): GroupRef | undefined {
  const groupId = readId(body, "groupId");
  const groupName = readText(body, "groupName");
  if (groupId !== undefined && groupId !== "0") {
    const group = state.data.groups.find((g) => g.id === groupId);
    if (group) return { groupId: group.id, groupName: group.groupName };
    if (groupName === undefined) throw new ParamError(`group ${groupId} does not exist`);
  }
  if (groupName !== undefined) return groupByName(state, groupName);
  return groupId === "0" ? { groupId: "0", groupName: null } : undefined;
}

/** What a request says of a proxy that the team's record cannot default. */
export interface ProxyEssentials {
  proxyName: string;
  proxyType: number;
  proxyProvider: number;
  proxyIp: string;
  proxyPort: number | null;
}

/** An own proxy's record (category 2, check pending, status 1 as the spec says of own proxies) from the details a request sends. */
export function ownProxy(id: string, details: Body, essentials: ProxyEssentials): ProxyInfo {
  return {
    id,
    ...essentials,
    proxyCategoryType: 2,
    proxyCheckStatus: 0,
    proxyStatus: 1,
    state: readText(details, "state") ?? null,
    city: readText(details, "city") ?? null,
    exportIp: "",
    countryCode: (readText(details, "country") ?? "").toUpperCase(),
    expiryTime: null,
    username: readText(details, "username") ?? "",
    password: null, // withheld in lists, as for the seeded proxies
    refreshUrl: readText(details, "refreshUrl") ?? null,
  };
}

function newProxy(state: EmulatorState, proxy: Body, proxyProvider: number, proxyIp: string, proxyPort: number | null): ProxyInfo {
  const created = ownProxy(state.ids.proxy(), proxy, {
    proxyName: readText(proxy, "proxyName") ?? numbered("Proxy", state.data.proxies.length),
    proxyType: readInteger(proxy, "proxyType") ?? (proxyProvider <= 3 ? proxyProvider : 0),
    proxyProvider,
    proxyIp,
    proxyPort,
  });
  state.data.proxies.push(created);
  return created;
}

/**
 * The proxy a `proxy` object names: by `proxyId` (which must exist), else by its connection details:
 * an existing proxy with the same host, port, provider (and type, when sent) is reused, otherwise a
 * new own proxy is added to the team, as the spec describes for setProxy/batch and create/quick.
 */
export function resolveProxy(state: EmulatorState, proxy: Body): ProxyInfo | Reply {
  const proxyId = readId(proxy, "proxyId");
  if (proxyId !== undefined && proxyId !== "0") {
    return state.data.proxies.find((p) => p.id === proxyId) ?? fail(CODES.proxyNotFound, "Proxy does not exist");
  }
  const provider = readInteger(proxy, "proxyProvider");
  if (provider === undefined) return fail(CODES.proxyTypeEmpty, "Proxy type is empty");
  const hostless = HOSTLESS_PROVIDERS.includes(provider);
  const proxyIp = readText(proxy, "proxyIp") ?? "";
  const proxyPort = readInteger(proxy, "proxyPort") ?? null;
  if (proxyIp === "" && !hostless) return fail(CODES.proxyHostEmpty, "Proxy host is empty");
  if (proxyPort === null && !hostless) return fail(CODES.proxyPortEmpty, "Proxy port is empty");
  if (proxyPort !== null && (proxyPort < 1 || proxyPort > 65535)) throw new ParamError("proxyPort must be from 1 to 65535");
  const proxyType = readInteger(proxy, "proxyType");
  const same = state.data.proxies.find((p) => p.proxyIp === proxyIp && p.proxyPort === proxyPort && p.proxyProvider === provider && (proxyType === undefined || p.proxyType === proxyType));
  return same ?? newProxy(state, proxy, provider, proxyIp, proxyPort);
}
