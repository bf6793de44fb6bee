import { createQuick, update } from "./profile-routes";
import { type Envelope, ok, type Reply } from "./replies";
import { ParamError, readText, requireFields, type Body } from "./request-fields";
import type { Route } from "./routes";
import type { EmulatorState } from "./state";

/**
 * `/api/env/create/advanced`: one profile with its settings, as create/quick makes it and update
 * then sets every field the body carries. Replies the new ID; on a refused field nothing is created.
 */

const MAX_NAME = 100;

function createAdvanced(state: EmulatorState, body: Body): Reply {
  requireFields(body, ["browserTypeId", "operatorSystemId"]);
  const envName = readText(body, "envName");
  if (envName !== undefined && envName.length > MAX_NAME) throw new ParamError(`envName must be at most ${MAX_NAME} characters`);
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
  return ok(envId);
}

export function profileCreateAdvancedRoutes(state: EmulatorState): Route[] {
  return [{ method: "POST", path: "/api/env/create/advanced", auth: true, handle: ({ body }) => createAdvanced(state, body) }];
}
