import { randomBytes } from "node:crypto";
import { CODES } from "./codes";
import { formatUtc } from "./dates";
import { ownBaseUrl, perEmulator } from "./per-emulator";
import { pageOf } from "./paging";
import { fail, ok, profileNotFound, type Reply } from "./replies";
import { containsIgnoringCase, ParamError, readBoolean, readId, readIntegerList, readPositiveInt, readText, requireFields, requireId, type Body } from "./request-fields";
import type { Route, RouteRequest } from "./routes";
import type { EmulatorState } from "./state";
import type { Profile } from "./types";

/** Cloud runtimes of browser profiles (`/api/cloudbrowser/...`, the browser spec's "Cloud Runtime"). */

type RuntimeStatus = "STARTING" | "RUNNING" | "CLOSED";

interface Runtime {
  status: RuntimeStatus;
  archiveStatus: "COMPLETED" | null;
  startDate: string | null;
  cancelStart?: () => void;
}

const MAX_PAGE_SIZE = 100;
const MAX_UNIQUE_IDS = 100;

const runtimesOf = perEmulator(() => new Map<string, Runtime>());

function profileOf(state: EmulatorState, body: Body): Profile | undefined {
  return state.profilesById.get(requireId(body, "envId"))?.profile;
}

/** Accepted at once: STARTING, then RUNNING after phoneBootMs (the emulator's provisioning time). */
function start(state: EmulatorState, body: Body): Reply {
  const profile = profileOf(state, body);
  if (!profile) return profileNotFound();
  if (profile.proxy === null) throw new ParamError("a cloud runtime needs a proxy");
  const runtimes = runtimesOf(state);
  const current = runtimes.get(profile.id);
  if (current && current.status !== "CLOSED") return fail(CODES.alreadyRunning, "The cloud runtime is already starting or running");
  const runtime: Runtime = { status: "STARTING", archiveStatus: null, startDate: null };
  runtime.cancelStart = state.timers.after(state.options.phoneBootMs, () => {
    runtime.status = "RUNNING";
    runtime.startDate = formatUtc(Date.now());
  });
  runtimes.set(profile.id, runtime);
  return ok(null);
}

/** Stopping a runtime that is not active succeeds doing nothing (the spec); archiving completes at once. */
function stop(state: EmulatorState, body: Body): Reply {
  const profile = profileOf(state, body);
  readBoolean(body, "force");
  if (!profile) return profileNotFound();
  const runtime = runtimesOf(state).get(profile.id);
  if (runtime && runtime.status !== "CLOSED") {
    runtime.cancelStart?.();
    runtime.status = "CLOSED";
    runtime.archiveStatus = "COMPLETED";
    runtime.startDate = null;
  }
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
  const runtimes = runtimesOf(state);
  const items = state.data.profiles.filter(matches(state, body)).map((profile) => {
    const runtime = runtimes.get(profile.id);
    return {
      id: profile.id,
      envName: profile.envName,
      proxyId: profile.proxy ? profile.proxy.id : null,
      cloudBrowserStatus: runtime?.status ?? "CLOSED",
      cloudBrowserArchiveStatus: runtime?.archiveStatus ?? null,
      startDate: runtime?.startDate ?? null,
    };
  });
  return ok(pageOf(items, { pageNo, pageSize }));
}

/** Only a RUNNING runtime connects. The URLs are emulator stand-ins on its own port: nothing answers CDP there. */
function connect(state: EmulatorState, { body, headers }: RouteRequest): Reply {
  const profile = profileOf(state, body);
  if (!profile) return profileNotFound();
  if (runtimesOf(state).get(profile.id)?.status !== "RUNNING") throw new ParamError("the cloud runtime is not running");
  const token = randomBytes(16).toString("hex");
  return ok({ cdpUrl: `${ownBaseUrl(headers.host)}/emulator/cloudbrowser/${profile.id}?token=${token}`, accessUrl: null });
}

export function cloudBrowserRoutes(state: EmulatorState): Route[] {
  const post = (path: string, handle: (request: RouteRequest) => Reply): Route => ({ method: "POST", path: `/api/cloudbrowser${path}`, auth: true, handle });
  return [
    post("/start", ({ body }) => start(state, body)),
    post("/stop", ({ body }) => stop(state, body)),
    post("/page", ({ body }) => page(state, body)),
    post("/connect", (request) => connect(state, request)),
  ];
}
