import { CODES } from "./codes";
import { runShell } from "./phone-shell";
import { PHONE_STATUS, type PhoneEntry, type PowerResult } from "./phone-state";
import { solidPng } from "./png";
import { fail, isReply, ok, phoneNotFound, phoneNotStarted, type Reply } from "./replies";
import { ParamError, readBoolean, readId, readIdList, readInteger, readText, requireFields, requireId, requireText, type Body } from "./request-fields";
import type { Route } from "./routes";
import type { EmulatorState } from "./state";
import type { ApiName } from "./types";

/** Cloud-phone power, detail, ADB, shell and app endpoints, on the Local API and (where MoreLogin has them) the Open API. */

const MAX_ADB_IDS = 200;
/** A 90 x 160 screen (the 9:16 of a phone), encoded once. */
export const SCREEN_PNG = solidPng(90, 160, [32, 33, 36]).toString("base64");

/** The spec's `remark` texts for batchAdbInfo; "ADB is not enabled" is the emulator's. */
const ADB_REMARKS = {
  missing: "Environment does not exist",
  notPoweredOn: "Environment is not powered on, unable to query ADB info",
  disabled: "ADB is not enabled",
};

export function phoneOf(state: EmulatorState, body: Body): PhoneEntry | Reply {
  return state.phones.get(requireId(body, "id")) ?? phoneNotFound();
}

/** The phone named by `id` when it is powered on (every in-device command needs that), else the refusal. */
export function runningPhone(state: EmulatorState, body: Body): PhoneEntry | Reply {
  const entry = phoneOf(state, body);
  if (isReply(entry)) return entry;
  return entry.phone.envStatus === PHONE_STATUS.poweredOn ? entry : phoneNotStarted();
}

export function powerReply(result: PowerResult): Reply {
  switch (result) {
    case "ok":
      return ok(null);
    case "notFound":
      return phoneNotFound();
    case "busy":
      return fail(CODES.alreadyRunning, "The cloud phone is not powered off: it is starting, running or restarting");
    case "notRunning":
      return phoneNotStarted();
    case "restarting":
      return fail(CODES.phoneResetting, "Cloud phone restarting, unable to shut down.");
  }
}

function powerOn(state: EmulatorState, body: Body, api: ApiName): Reply {
  const id = requireId(body, "id");
  if (api === "local") readBoolean(body, "headless");
  readBoolean(body, "disableMoneySavingMode");
  return powerReply(served(state, id, "powerOn", state.phones.powerOn(id)));
}

/** Notes the power call in what the emulator served; returns its result. */
function served(state: EmulatorState, id: string, action: "powerOn" | "powerOff", result: PowerResult): PowerResult {
  state.served.phone(id, action, result === "ok");
  return result;
}

function updateAdb(state: EmulatorState, body: Body): Reply {
  requireFields(body, ["enableAdb", "ids"]);
  const ids = readIdList(body, "ids") ?? [];
  const enableAdb = readBoolean(body, "enableAdb") ?? false;
  if (ids.length === 0) throw new ParamError("ids is required");
  const entries = ids.map((id) => state.phones.get(id));
  // The spec: phones that can be changed are; if any cannot, the call still reports an error.
  for (const entry of entries) if (entry) state.phones.setAdb(entry, enableAdb);
  return entries.every((entry) => entry !== undefined) ? ok(null) : phoneNotFound();
}

function adbRow(state: EmulatorState, id: string): Record<string, unknown> {
  const entry = state.phones.get(id);
  const none = { adbIp: null, adbPassword: null, adbPort: null, command: null, expireTime: null };
  if (!entry) return { id, supportAdb: false, enableAdb: false, envStatus: null, ...none, remark: ADB_REMARKS.missing };
  const { phone } = entry;
  const head = { id, supportAdb: phone.supportAdb, enableAdb: phone.enableAdb, envStatus: phone.envStatus };
  if (phone.envStatus !== PHONE_STATUS.poweredOn) return { ...head, ...none, remark: ADB_REMARKS.notPoweredOn };
  if (!phone.enableAdb) return { ...head, ...none, remark: ADB_REMARKS.disabled };
  return { ...head, ...entry.connection, remark: null };
}

/** Results in the order asked for; never fails as a whole (the spec). */
function batchAdbInfo(state: EmulatorState, body: Body): Reply {
  requireFields(body, ["envIds"]);
  const ids = readIdList(body, "envIds") ?? [];
  if (ids.length === 0 || ids.length > MAX_ADB_IDS) throw new ParamError(`envIds must hold 1 to ${MAX_ADB_IDS} IDs`);
  return ok(
    ids.map((id) => adbRow(state, id)),
    "success",
  );
}

function exeCommand(state: EmulatorState, body: Body): Reply {
  requireFields(body, ["id", "command"]);
  const command = requireText(body, "command");
  const entry = runningPhone(state, body);
  return isReply(entry) ? entry : ok(runShell(entry, command));
}

function installApp(state: EmulatorState, body: Body): Reply {
  requireFields(body, ["id"]);
  const versionId = readId(body, "appVersionId");
  const packageName = readText(body, "packageName");
  const versionCode = readInteger(body, "versionCode");
  if (versionId === undefined && (packageName === undefined || versionCode === undefined)) throw new ParamError("appVersionId, or packageName and versionCode, is required");
  const entry = runningPhone(state, body);
  if (isReply(entry)) return entry;
  for (const app of state.data.apps) {
    const version = app.appVersionList.find((v) => (versionId !== undefined ? v.id === versionId : app.packageName === packageName && v.versionCode === String(versionCode)));
    if (version) {
      state.phones.install(entry, app, version);
      return ok(true);
    }
  }
  return fail(CODES.appInstallFailed, "App install failed: the app version is not in the catalogue");
}

function installedApps(state: EmulatorState, body: Body): Reply {
  const entry = runningPhone(state, body);
  return isReply(entry) ? entry : ok([...entry.installed.values()]);
}

/**
 * Starts (or restarts) an installed app; an app that is not installed is left alone, as the spec says
 * for restart. `/app/start` answers data null and `/app/restart` data true, so the caller gives the data.
 */
function startApp(state: EmulatorState, body: Body, data: null | true): Reply {
  requireFields(body, ["id", "packageName"]);
  const packageName = requireText(body, "packageName");
  const entry = runningPhone(state, body);
  if (isReply(entry)) return entry;
  if (entry.installed.has(packageName)) entry.runningApps.add(packageName);
  return ok(data);
}

function stopApp(state: EmulatorState, body: Body): Reply {
  const packageName = readText(body, "packageName");
  const entry = runningPhone(state, body);
  if (isReply(entry)) return entry;
  if (packageName !== undefined) entry.runningApps.delete(packageName);
  return ok(true);
}

function uninstallApp(state: EmulatorState, body: Body): Reply {
  requireFields(body, ["id", "packageName"]);
  const packageName = requireText(body, "packageName");
  const entry = runningPhone(state, body);
  if (isReply(entry)) return entry;
  entry.installed.delete(packageName);
  entry.runningApps.delete(packageName);
  return ok(true);
}

/** Asynchronous: accepted at once, the phone then resets (5), its apps gone, before it is on again (4). */
function newMachine(state: EmulatorState, body: Body): Reply {
  readText(body, "brand");
  readInteger(body, "modelId");
  const entry = runningPhone(state, body);
  if (isReply(entry)) return entry;
  state.phones.reset(entry.phone.id);
  return ok(null);
}

function screenCapBase64(state: EmulatorState, body: Body): Reply {
  const entry = runningPhone(state, body);
  return isReply(entry) ? entry : ok({ captureBase64: `data:image/png;base64,${SCREEN_PNG}`, errorMessage: "success", success: true });
}

export function cloudPhoneRoutes(state: EmulatorState, api: ApiName): Route[] {
  const base = api === "local" ? "/api/cloudphone" : "/cloudphone";
  const post = (path: string, handle: (body: Body) => Reply): Route => ({ method: "POST", path: `${base}${path}`, auth: true, handle: ({ body }) => handle(body) });
  const routes = [
    post("/powerOn", (body) => powerOn(state, body, api)),
    post("/powerOff", (body) => {
      const id = requireId(body, "id");
      return powerReply(served(state, id, "powerOff", state.phones.powerOff(id)));
    }),
    post("/info", (body) => {
      const entry = phoneOf(state, body);
      return isReply(entry) ? entry : ok(state.phones.detail(entry));
    }),
    post("/updateAdb", (body) => updateAdb(state, body)),
    post("/exeCommand", (body) => exeCommand(state, body)),
    post("/app/install", (body) => installApp(state, body)),
    post("/app/installedList", (body) => installedApps(state, body)),
    post("/app/start", (body) => startApp(state, body, null)),
    post("/app/stop", (body) => stopApp(state, body)),
    post("/app/restart", (body) => startApp(state, body, true)),
    post("/app/uninstall", (body) => uninstallApp(state, body)),
    post("/newMachine", (body) => newMachine(state, body)),
  ];
  if (api === "open") return routes;
  // MoreLogin documents these on the Local API only.
  return [
    ...routes,
    post("/restart", (body) => powerReply(state.phones.restart(requireId(body, "id")))),
    post("/batchAdbInfo", (body) => batchAdbInfo(state, body)),
    post("/screenCapBase64", (body) => screenCapBase64(state, body)),
  ];
}
