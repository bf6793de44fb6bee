import { MoreLoginInputError, describeValue, fetchAll, isPlainObjectValue, type CallOptions, type MoreLoginClient, type ValueOption } from "../../../client";
import type { ActionContext } from "../shell/action-node";
import type { OperationResult } from "../shell/operation-node";
import { single } from "../shell/output";

/** The operating systems base/list and base/resolution/list take (`os`), by the names the catalogue gives them. */
export const CATALOGUE_OS = { windows: 1, macos: 2, android: 3, ios: 4 } as const;
type OsName = keyof typeof CATALOGUE_OS;

/** What a profile's settings can name on one OS. */
interface OsCatalogue {
  os: number;
  timeZones: ValueOption[];
  languages: ValueOption[];
  resolutions: ValueOption[];
}

/** The OSes msg.payload.os names (a number 1 to 4 or an array of them); all four when it names none. */
function chosenOs(payload: Record<string, unknown>, t: ActionContext["t"]): OsName[] {
  const names = Object.keys(CATALOGUE_OS) as OsName[];
  if (payload.os === undefined) return names;
  const wanted = Array.isArray(payload.os) ? payload.os : [payload.os];
  return wanted.map((value) => {
    const name = names.find((candidate) => String(CATALOGUE_OS[candidate]) === String(value));
    if (name === undefined) throw new MoreLoginInputError(t("morelogin-profile.error.os", { value: describeValue(value) }));
    return name;
  });
}

async function osCatalogue(client: MoreLoginClient, os: number, ua: string | undefined, options: CallOptions): Promise<OsCatalogue> {
  const base = await client.call("timeZonesAndLanguages", { os }, options);
  const resolutions = await client.call("resolutions", ua === undefined ? { os } : { os, ua }, options);
  return { os, timeZones: base.data.time_zone_list ?? [], languages: base.data.language_list ?? [], resolutions: resolutions.data };
}

/**
 * catalogue (目录): every list a profile's settings (or a CSV row) may name, one message:
 * `{kernels, os: {windows, macos, android, ios}, platforms, mobileDevices, groups, tags, proxies}`,
 * each OS's entry `{os, timeZones, languages, resolutions}`. msg.payload `{os, ua}` narrows the OSes
 * and asks resolutions for that user agent. Proxies come without their passwords.
 */
export async function catalogue(context: ActionContext): Promise<OperationResult> {
  const { client, options, msg, t } = context;
  const payload = isPlainObjectValue(msg.payload) ? msg.payload : {};
  const ua = typeof payload.ua === "string" && payload.ua !== "" ? payload.ua : undefined;
  const chosen = chosenOs(payload, t);
  const byOs: Partial<Record<OsName, OsCatalogue>> = {};
  const kernels = await client.call("kernelVersions", undefined, options);
  for (const name of chosen) byOs[name] = await osCatalogue(client, CATALOGUE_OS[name], ua, options);
  const platforms = await client.call("platforms", undefined, options);
  const mobileDevices = await client.call("mobileDevices", {}, options);
  const groups = await fetchAll(client, "listGroups", {}, options);
  const tags = await client.call("listTags", undefined, options);
  const proxies = await fetchAll(client, "listProxies", {}, options);
  const lists = {
    kernels: kernels.data,
    os: byOs,
    platforms: platforms.data,
    mobileDevices: mobileDevices.data,
    groups: groups.items,
    tags: tags.data,
    // A proxy row carries its password: a catalogue names proxies, it does not hand their secrets on.
    proxies: proxies.items.map(({ password: _password, ...proxy }) => proxy),
  };
  return { messages: single(msg, lists, { api: "local", path: kernels.path, requestId: kernels.requestId }), summary: t("morelogin-profile.status.catalogue") };
}
