import { WEBDRIVER_PATH } from "./browser-sessions";
import { BrowserStartError } from "./chromium";
import { CODES } from "./codes";
import { fail, ok, profileNotFound, type Reply } from "./replies";
import { allTags, appPage, cloudPhonePage, groupPage, proxyPage } from "./list-handlers";
import { pageOf, readPageRequest } from "./paging";
import { profileById, profileByIdOrSerial } from "./profile-lookup";
import { accountRoutes } from "./account-routes";
import { automationRoutes } from "./automation-routes";
import { cloudBrowserRoutes } from "./cloud-browser-routes";
import { cloudStorageRoutes } from "./cloud-storage-routes";
import { loginRoutes } from "./login-routes";
import { phoneFileRoutes } from "./phone-file-routes";
import { phoneFleetRoutes } from "./phone-fleet-routes";
import { phoneMultipartRoutes } from "./phone-multipart-upload";
import { profileCatalogueRoutes } from "./profile-catalogue-routes";
import { windowRoutes } from "./window-routes";
import { phoneScreenRoutes } from "./phone-screen-routes";
import { profileCreateAdvancedRoutes } from "./profile-create-advanced";
import { profileProcessRoutes } from "./profile-process-routes";
import { cloudPhoneRoutes } from "./cloud-phone-routes";
import { groupTagRoutes } from "./group-tag-routes";
import { profileRoutes } from "./profile-routes";
import { proxyRoutes } from "./proxy-routes";
import { containsIgnoringCase, readBoolean, readId, readText, type Body } from "./request-fields";
import { routeTable, type Route, type RouteTable } from "./routes";
import type { EmulatorState } from "./state";
import type { Profile } from "./types";

function envPage(state: EmulatorState, body: Body): Reply {
  const page = readPageRequest(body, state.options.maxPageSize);
  const envName = readText(body, "envName");
  const groupId = readId(body, "groupId");
  const envId = readId(body, "envId");
  let profiles: readonly Profile[] = state.data.profiles;
  if (envId !== undefined) {
    const found = state.profilesById.get(envId);
    profiles = found ? [found.profile] : [];
  }
  if (envName !== undefined || groupId !== undefined) {
    profiles = profiles.filter((p) => (envName === undefined || containsIgnoringCase(p.envName, envName)) && (groupId === undefined || p.groupId === groupId));
  }
  return ok(pageOf(profiles, page));
}

async function envStart(state: EmulatorState, body: Body): Promise<Reply> {
  const profile = profileByIdOrSerial(state, body);
  readBoolean(body, "isHeadless");
  readBoolean(body, "cdpEvasion");
  if (!profile) return profileNotFound();
  let debugPort: string;
  try {
    const starting = state.sessions.start(profile.id);
    state.notePeaks();
    debugPort = await starting;
  } catch (error) {
    state.served.profile(profile.id, "start", false);
    if (error instanceof BrowserStartError) return fail(CODES.unknownError, `The browser failed to start: ${error.message}`, 500);
    throw error;
  }
  state.served.profile(profile.id, "start", true);
  await state.timers.sleep(state.options.startDelayMs);
  return ok({ envId: profile.id, debugPort, type: "chrome", version: 142, webdriver: WEBDRIVER_PATH });
}

async function envClose(state: EmulatorState, body: Body): Promise<Reply> {
  const profile = profileByIdOrSerial(state, body);
  if (!profile) return profileNotFound();
  // The browser spec's one precondition for close is "the client having the profile open", and
  // MoreLogin's demos read code -1 from /api/env/close as its failure; no source shows a success.
  if (!state.sessions.isOpen(profile.id)) {
    state.served.profile(profile.id, "close", false);
    return fail(CODES.closeFailed, "Profile is not running");
  }
  state.served.profile(profile.id, "close", true);
  await state.sessions.stop(profile.id);
  return ok({ envId: profile.id, debugPort: "" });
}

function envStatus(state: EmulatorState, body: Body): Reply {
  const profile = profileById(state, body);
  if (!profile) return profileNotFound();
  const debugPort = state.sessions.portOf(profile.id);
  const status = debugPort === "" ? "stopped" : "running";
  return ok({ envId: profile.id, status, localStatus: status, debugPort, webdriver: debugPort === "" ? "" : WEBDRIVER_PATH });
}

async function envCloseAll(state: EmulatorState): Promise<Reply> {
  for (const { envId } of state.sessions.running()) state.served.profile(envId, "close", true);
  await state.sessions.stopAll();
  return ok(null, "Closed successfully");
}

function envAllDebugInfo(state: EmulatorState): Reply {
  const list = state.sessions.running().map(({ envId, debugPort, pid }) => {
    const found = state.profilesById.get(envId);
    return { envId, uniqueId: found?.uniqueId ?? 0, envName: found?.profile.envName ?? "", debugPort, webdriver: WEBDRIVER_PATH, pid };
  });
  return ok(list);
}

export function localRoutes(state: EmulatorState): RouteTable {
  const post = (path: string, handle: (body: Body) => Reply | Promise<Reply>): Route => ({
    method: "POST",
    path,
    auth: true,
    handle: ({ body }) => handle(body),
  });
  return routeTable([
    { method: "POST", path: "/status", auth: false, probe: true, handle: () => ({ status: 200, payload: { status: "ok" } }) },
    post("/api/env/page", (body) => envPage(state, body)),
    post("/api/env/start", (body) => envStart(state, body)),
    post("/api/env/close", (body) => envClose(state, body)),
    post("/api/env/status", (body) => envStatus(state, body)),
    post("/api/env/closeAll", () => envCloseAll(state)),
    post("/api/env/getAllDebugInfo", () => envAllDebugInfo(state)),
    ...profileRoutes(state),
    ...cloudPhoneRoutes(state, "local"),
    ...automationRoutes(state, "local"),
    post("/api/cloudphone/page", (body) => cloudPhonePage(state, body)),
    post("/api/cloudphone/app/page", (body) => appPage(state, body)),
    post("/api/proxyInfo/page", (body) => proxyPage(state, body)),
    post("/api/envgroup/page", (body) => groupPage(state, body)),
    { method: "GET", path: "/api/envtag/all", auth: true, handle: () => allTags(state) },
    ...[
      cloudBrowserRoutes,
      cloudStorageRoutes,
      loginRoutes,
      accountRoutes,
      phoneScreenRoutes,
      phoneFleetRoutes,
      phoneFileRoutes,
      profileProcessRoutes,
      profileCreateAdvancedRoutes,
      profileCatalogueRoutes,
      windowRoutes,
      phoneMultipartRoutes,
    ].flatMap((routes) => routes(state)),
    ...proxyRoutes(state, "/api"),
    ...groupTagRoutes(state, "/api"),
  ]);
}
