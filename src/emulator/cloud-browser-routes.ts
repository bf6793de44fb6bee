import { ACCESS_PATH } from "./cloud-access-page";
import { CODES } from "./codes";
import { pageOf } from "./paging";
import { fail, ok, profileNotFound, type Reply } from "./replies";
import { containsIgnoringCase, ParamError, readBoolean, readId, readIntegerList, readPositiveInt, readText, requireFields, requireId, type Body } from "./request-fields";
import type { Route } from "./routes";
import type { EmulatorState } from "./state";
import type { Profile } from "./types";

/** Cloud runtimes of browser profiles (`/api/cloudbrowser/...`, the browser spec's "Cloud Runtime"); their states live in CloudRuntimes. */

const MAX_PAGE_SIZE = 100;
const MAX_UNIQUE_IDS = 100;
const GATEWAY_HOST = "127.0.0.1";

function profileOf(state: EmulatorState, body: Body): Profile | undefined {
  return state.profilesById.get(requireId(body, "envId"))?.profile;
}

/** Accepted at once; refused while the profile has a run (starting, running, or stopping and archiving: one run per profile). */
function start(state: EmulatorState, body: Body): Reply {
  const profile = profileOf(state, body);
  if (!profile) return profileNotFound();
  if (profile.proxy === null) throw new ParamError("a cloud runtime needs a proxy");
  if (state.cloudRuntimes.start(profile.id) === "active") return fail(CODES.alreadyRunning, "The cloud runtime is already starting, running or being archived");
  return ok(null);
}

/** Stopping a runtime that is not active, or is already stopping, succeeds doing nothing (the spec). */
async function stop(state: EmulatorState, body: Body): Promise<Reply> {
  const profile = profileOf(state, body);
  readBoolean(body, "force");
  if (!profile) return profileNotFound();
  await state.cloudRuntimes.stop(profile.id);
  return ok(null);
}

function matches(state: EmulatorState, body: Body): (profile: Profile) => boolean {
  const keyword = readText(body, "keyword");
  const envName = readText(body, "envName");
  const envId = readId(body, "envId") ?? readId(body, "id");
  const groupId = readId(body, "groupId");
  const uniqueIds = readIntegerList(body, "uniqueIds");
  if (uniqueIds && uniqueIds.length > MAX_UNIQUE_IDS) throw new ParamError(`uniqueIds must hold at most ${MAX_UNIQUE_IDS} items`);
  const serials = uniqueIds && new Set(uniqueIds);
  return (profile) =>
    (keyword === undefined || [profile.envName, profile.groupName, profile.envRemark, ...profile.tagInfos.map((tag) => tag.tagName)].some((text) => containsIgnoringCase(text, keyword))) &&
    (envName === undefined || containsIgnoringCase(profile.envName, envName)) &&
    (envId === undefined || profile.id === envId) &&
    (groupId === undefined || profile.groupId === groupId) &&
    (serials === undefined || serials.has(state.profilesById.get(profile.id)?.uniqueId ?? 0));
}

function page(state: EmulatorState, body: Body): Reply {
  requireFields(body, ["pageNo", "pageSize"]);
  const pageNo = readPositiveInt(body, "pageNo", 1);
  const pageSize = readPositiveInt(body, "pageSize", 10);
  if (pageSize > MAX_PAGE_SIZE) throw new ParamError(`pageSize must be at most ${MAX_PAGE_SIZE}`);
  const items = state.data.profiles.filter(matches(state, body)).map((profile) => ({
    id: profile.id,
    envName: profile.envName,
    proxyId: profile.proxy ? profile.proxy.id : null,
    ...state.cloudRuntimes.row(profile.id),
  }));
  return ok(pageOf(items, { pageNo, pageSize }));
}

/**
 * Only a runtime exactly RUNNING (not archiving) connects. `cdpUrl` is its gateway with the runtime's token, the
 * same for every connect; `accessUrl` the gateway's access page with a token minted for this connect.
 */
function connect(state: EmulatorState, body: Body): Reply {
  const profile = profileOf(state, body);
  if (!profile) return profileNotFound();
  const connection = state.cloudRuntimes.connect(profile.id);
  if (!connection) throw new ParamError("the cloud runtime is not running");
  const gateway = `http://${GATEWAY_HOST}:${connection.port}`;
  const access = new URLSearchParams({ token: connection.accessToken, envName: profile.envName, lang: "en-US" });
  return ok({ cdpUrl: `${gateway}?token=${connection.token}`, accessUrl: `${gateway}${ACCESS_PATH}?${access}` });
}

export function cloudBrowserRoutes(state: EmulatorState): Route[] {
  const post = (path: string, handle: Route["handle"]): Route => ({ method: "POST", path: `/api/cloudbrowser${path}`, auth: true, handle });
  return [
    post("/start", ({ body }) => start(state, body)),
    post("/stop", ({ body }) => stop(state, body)),
    post("/page", ({ body }) => page(state, body)),
    post("/connect", ({ body }) => connect(state, body)),
  ];
}
