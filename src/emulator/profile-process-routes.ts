import { ok, profileNotFound, type Reply } from "./replies";
import { requireId, type Body } from "./request-fields";
import type { Route } from "./routes";
import type { EmulatorState } from "./state";

/** The running profiles' process IDs, and the security lock (Local API). */

function processIds(state: EmulatorState): Reply {
  return ok(
    state.sessions.running().map(({ envId, pid }) => {
      const found = state.profilesById.get(envId);
      return { envId, uniqueId: found?.uniqueId ?? 0, envName: found?.profile.envName ?? "", pid };
    }),
  );
}

/** A profile is locked only after `happen.profileLocks`: the spec says neither how a lock is set nor what it refuses. */
function lockQuery(state: EmulatorState, body: Body): Reply {
  const envId = requireId(body, "envId");
  return state.profilesById.has(envId) ? ok({ envId, locked: state.lockedProfiles.has(envId) }) : profileNotFound();
}

export function profileProcessRoutes(state: EmulatorState): Route[] {
  return [
    { method: "POST", path: "/api/env/getAllProcessIds", auth: true, handle: () => processIds(state) },
    { method: "POST", path: "/api/env/lock/query", auth: true, handle: ({ body }) => lockQuery(state, body) },
  ];
}
