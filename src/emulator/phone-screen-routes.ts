import { storageOf } from "./cloud-storage";
import { phoneOf, runningPhone, SCREEN_PNG } from "./cloud-phone-routes";
import { perEmulator } from "./per-emulator";
import { PHONE_STATUS } from "./phone-state";
import { isReply, ok, type Reply } from "./replies";
import { ParamError, readBoolean, readInteger, readStringList, requireFields, requireId, type Body } from "./request-fields";
import type { Route } from "./routes";
import type { EmulatorState } from "./state";

/** What acts on a running phone's screen and system: touch, screen capture, ROOT and live streaming (Local API). */

const MAX_DURATION_MS = 60_000;
const HOUR_MS = 3_600_000;

/** Live streams by phone ID: the cloud storage file each plays. */
const streamsOf = perEmulator(() => new Map<string, { fileId: string; live: boolean; cancel?: () => void }>());

function point(body: Body, name: string): [number, number] {
  const value = body[name];
  if (!Array.isArray(value) || value.length !== 2 || !value.every((n) => typeof n === "number" && Number.isSafeInteger(n))) throw new ParamError(`${name} must be [x, y], two integers`);
  return [value[0], value[1]];
}

/** Off-screen points pass (the spec); only long press reads `duration`, capped at 60000 ms with no lower bound. */
function touch(state: EmulatorState, body: Body, points: readonly string[]): Reply {
  requireFields(body, ["id", ...points]);
  for (const name of points) point(body, name);
  const duration = readInteger(body, "duration");
  if (duration !== undefined && duration > MAX_DURATION_MS) throw new ParamError(`duration must be at most ${MAX_DURATION_MS}`);
  const entry = runningPhone(state, body);
  return isReply(entry) ? entry : ok({ status: "finish" }, "success");
}

/** The URL is a data: URL of the emulator's screen, so no download host is involved; expiry one hour on (the spec). */
function screenCap(state: EmulatorState, body: Body): Reply {
  const entry = runningPhone(state, body);
  return isReply(entry) ? entry : ok({ url: `data:image/png;base64,${SCREEN_PNG}`, status: "finish", expireAt: String(Date.now() + HOUR_MS), success: true });
}

function enableRoot(state: EmulatorState, body: Body): Reply {
  requireFields(body, ["id", "enableRoot"]);
  readBoolean(body, "enableRoot");
  const entry = runningPhone(state, body);
  return isReply(entry) ? entry : ok(null);
}

function openRoot(state: EmulatorState, body: Body): Reply {
  requireFields(body, ["id", "packageNames"]);
  if ((readStringList(body, "packageNames") ?? []).length === 0) throw new ParamError("packageNames must hold at least one package");
  const entry = runningPhone(state, body);
  return isReply(entry) ? entry : ok(true);
}

/** The phone by `phoneId`, as the live routes name it. */
const livePhone = (state: EmulatorState, body: Body, running: boolean) => (running ? runningPhone : phoneOf)(state, { id: requireId(body, "phoneId") });

/** Accepted at once; streaming (liveStatus 1) after phoneBootMs. The file must be a confirmed MP4 in cloud storage. */
function liveStart(state: EmulatorState, body: Body): Reply {
  requireFields(body, ["phoneId", "fileId"]);
  const fileId = requireId(body, "fileId");
  const entry = livePhone(state, body, true);
  if (isReply(entry)) return entry;
  const file = storageOf(state).file(fileId);
  if (!file?.confirmed || file.fileExt.toLowerCase() !== "mp4") throw new ParamError("fileId must name an uploaded MP4 file that is still in cloud storage");
  const streams = streamsOf(state);
  streams.get(entry.phone.id)?.cancel?.();
  const stream: { fileId: string; live: boolean; cancel?: () => void } = { fileId, live: false };
  stream.cancel = state.timers.after(state.options.phoneBootMs, () => {
    stream.live = true;
  });
  streams.set(entry.phone.id, stream);
  return ok(true);
}

/** Needs no running phone; a phone that went off streams nothing. */
function liveStatus(state: EmulatorState, body: Body): Reply {
  requireFields(body, ["phoneId"]);
  const entry = livePhone(state, body, false);
  if (isReply(entry)) return entry;
  const stream = streamsOf(state).get(entry.phone.id);
  const live = stream?.live === true && entry.phone.envStatus === PHONE_STATUS.poweredOn;
  return ok({ liveStatus: live ? 1 : 0, writeFileId: live ? stream.fileId : null, liveFilePath: null });
}

/** Stops whether or not a stream runs (the spec). */
function liveEnd(state: EmulatorState, body: Body): Reply {
  requireFields(body, ["phoneId"]);
  const entry = livePhone(state, body, true);
  if (isReply(entry)) return entry;
  const streams = streamsOf(state);
  streams.get(entry.phone.id)?.cancel?.();
  streams.delete(entry.phone.id);
  return ok(true);
}

export function phoneScreenRoutes(state: EmulatorState): Route[] {
  const post = (path: string, handle: (body: Body) => Reply): Route => ({ method: "POST", path: `/api/cloudphone${path}`, auth: true, handle: ({ body }) => handle(body) });
  return [
    post("/touch/click", (body) => touch(state, body, ["pos"])),
    post("/touch/doubleClick", (body) => touch(state, body, ["pos"])),
    post("/touch/longClick", (body) => touch(state, body, ["pos"])),
    post("/touch/swipe", (body) => touch(state, body, ["pos1", "pos2"])),
    post("/touch/drag", (body) => touch(state, body, ["pos1", "pos2"])),
    post("/screenCap", (body) => screenCap(state, body)),
    post("/enableRoot", (body) => enableRoot(state, body)),
    post("/app/openRoot", (body) => openRoot(state, body)),
    post("/live/start", (body) => liveStart(state, body)),
    post("/live/status", (body) => liveStatus(state, body)),
    post("/live/end", (body) => liveEnd(state, body)),
  ];
}
