import { checkAdvancedCreate } from "./profile-create-checks";
import { createQuick, update } from "./profile-routes";
import { type Envelope, ok, type Reply } from "./replies";
import { ParamError, readObject, readText, type Body } from "./request-fields";
import type { Route } from "./routes";
import type { EmulatorState } from "./state";

/**
 * `/api/env/create/advanced`: one profile with its settings, as create/quick makes it and update
 * then sets every field the body carries. Replies the new ID; on a refused field nothing is created.
 * Every field sent is kept and shown by detail, those the emulator has no use for among them.
 */

/** The fields detail shows in their own places (the profile, its settings, tagInfos, the proxy); any other is kept as sent. */
const PLACED = new Set(["browserTypeId", "operatorSystemId", "isEncrypt", "uaVersion", "browserCore", "accountInfo", "afterStartupConfig", "startupParams", "cookies", "advancedSetting"]);
const NOT_KEPT = new Set(["envName", "envRemark", "groupId", "groupName", "proxyId", "proxy", "quantity"]);

function keep(state: EmulatorState, envId: string, body: Body): void {
  const settings = state.profileSettings.get(envId);
  if (!settings) return;
  const account = readObject(body, "accountInfo");
  const afterStartup = readObject(body, "afterStartupConfig");
  state.profileSettings.set(envId, {
    ...settings,
    accountInfo: { ...settings.accountInfo, ...account },
    afterStartupConfig: { ...settings.afterStartupConfig, ...afterStartup },
    extras: Object.fromEntries(Object.entries(body).filter(([name]) => !PLACED.has(name) && !NOT_KEPT.has(name))),
  });
}

function createAdvanced(state: EmulatorState, body: Body): Reply {
  checkAdvancedCreate(body);
  const envName = readText(body, "envName");
  // The spec: "A second call with the same explicit envName fails on the uniqueness check", without a code (99001 is assumed).
  if (envName !== undefined && state.data.profiles.some((profile) => profile.envName === envName)) throw new ParamError(`a profile named ${envName} already exists`);
  const created = createQuick(state, { ...body, quantity: 1 });
  const [envId] = ((created.payload as Envelope).data as string[] | null) ?? [];
  if (envId === undefined) return created;
  let updated: Reply;
  try {
    updated = update(state, { ...body, envId });
  } catch (error) {
    state.removeProfiles(new Set([envId]));
    throw error;
  }
  if ((updated.payload as Envelope).code !== 0) {
    state.removeProfiles(new Set([envId]));
    return updated;
  }
  keep(state, envId, body);
  return ok(envId);
}

export function profileCreateAdvancedRoutes(state: EmulatorState): Route[] {
  return [{ method: "POST", path: "/api/env/create/advanced", auth: true, handle: ({ body }) => createAdvanced(state, body) }];
}
