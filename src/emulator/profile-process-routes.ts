import { ok, profileNotFound, type Reply } from "./replies";
import { requireId, type Body } from "./request-fields";
import type { Route } from "./routes";
import type { EmulatorState } from "./state";

/** The running profiles' process IDs, and the security lock (Local API; only reachable through the CLI's `api` passthrough). */

function processIds(state: EmulatorState): Reply {
  return ok(
    state.sessions.running().map(({ envId, pid }) => {
      const found = state.profilesById.get(envId);
      return { envId, uniqueId: found?.uniqueId ?? 0, envName: found?.profile.envName ?? "", pid };
    }),
  );
}

/** The emulator's team has no security lock on: no profile is ever locked. */
function lockQuery(state: EmulatorState, body: Body): Reply {
  const envId = requireId(body, "envId");
  return state.profilesById.has(envId) ? ok({ envId, locked: false }) : profileNotFound();
}

export function profileProcessRoutes(state: EmulatorState): Route[] {
  return [
    { method: "POST", path: "/api/env/getAllProcessIds", auth: true, handle: () => processIds(state) },
    { method: "POST", path: "/api/env/lock/query", auth: true, handle: ({ body }) => lockQuery(state, body) },
  ];
}
