import { runningPhone } from "./cloud-phone-routes";
import { CODES } from "./codes";
import { ownBaseUrl, perEmulator } from "./per-emulator";
import { PHONE_STATUS, type PhoneEntry } from "./phone-state";
import { idSequence, mulberry32 } from "./prng";
import { fail, isReply, ok, type Reply } from "./replies";
import { ParamError, readChoice, readId, requireFields, requireId, requireText, type Body } from "./request-fields";
import { PATH_ID, type Route, type RouteRequest } from "./routes";
import type { EmulatorState } from "./state";
import type { ApiName } from "./types";

/**
 * Files to and from a cloud phone (the cloud-phone spec's "Files"): a temporary upload URL (a PUT
 * stand-in on the emulator's own port), the upload registered and landing on the phone after
 * appInstallMs, downloads of files the phone holds, and the keybox.
 */

const UPLOAD_PATH = "/emulator/cloudphone/upload";
const UPLOADING = 0;
const UPLOADED = 1;
const UPLOAD_FAILED = 2;
const DOWNLOAD = { running: 10, succeeded: 20, failed: 30 } as const;
const LIVE_STREAM_UPLOAD = 2;
/** A file PUT to a phone's upload URL: at most 32 MB (assumed: no source gives a limit; the emulator keeps files in memory). */
const MAX_FILE_BYTES = 32 * 1024 * 1024;

interface Transfer {
  readonly phoneId: string;
  status: number;
}

const filesOf = perEmulator((state) => {
  const random = mulberry32(state.options.seed ^ 0xf11e);
  return {
    nextId: idSequence(random, 10_069_000n, 10),
    /** Upload URLs handed out, by token: the file name and, once PUT, its bytes. */
    signed: new Map<string, { fileName: string; bytes?: Buffer }>(),
    uploads: new Map<string, Transfer>(),
    downloads: new Map<string, Transfer & { bytes: Buffer }>(),
    /** What each phone holds, by path. */
    stored: new Map<string, Map<string, Buffer>>(),
  };
});

/** Puts a file on the phone at once (an upload whose bytes came with the request). */
export function storeOnPhone(state: EmulatorState, phoneId: string, path: string, bytes: Buffer): void {
  const stored = filesOf(state).stored;
  stored.set(phoneId, (stored.get(phoneId) ?? new Map<string, Buffer>()).set(path, bytes));
}

function signedUrl(state: EmulatorState, { body, headers }: RouteRequest): Reply {
  requireFields(body, ["id", "fileName"]);
  const fileName = requireText(body, "fileName");
  const entry = runningPhone(state, body);
  if (isReply(entry)) return entry;
  const files = filesOf(state);
  const token = files.nextId();
  files.signed.set(token, { fileName });
  return ok({ presignedUrl: `${ownBaseUrl(headers.host)}${UPLOAD_PATH}/${token}` });
}

function putBytes(state: EmulatorState, token: string | undefined, bytes: Buffer): Reply {
  const signed = token === undefined ? undefined : filesOf(state).signed.get(token);
  if (!signed) return fail(CODES.notFound, "Not found", 404);
  signed.bytes = bytes;
  return ok(null);
}

/** After appInstallMs the file is on the phone, unless the phone stopped first (then it failed). */
function land(state: EmulatorState, entry: PhoneEntry, transfer: Transfer, arrive: () => void): void {
  const epoch = entry.epoch;
  state.timers.after(state.options.appInstallMs, () => {
    const stillOn = entry.epoch === epoch && entry.phone.envStatus === PHONE_STATUS.poweredOn;
    if (stillOn) arrive();
    transfer.status = stillOn ? UPLOADED : UPLOAD_FAILED;
  });
}

function lastSegment(url: string): string {
  try {
    return decodeURIComponent(new URL(url).pathname.split("/").pop() || "file");
  } catch {
    throw new ParamError("url must be a URL");
  }
}

/**
 * Registers a file the phone then fetches. An emulator upload URL must have had its bytes PUT; any
 * other URL is taken as it is, never fetched (the file arrives empty).
 */
function uploadFile(state: EmulatorState, { body, headers }: RouteRequest): Reply {
  requireFields(body, ["id", "url", "uploadDest"]);
  const url = requireText(body, "url");
  const uploadDest = requireText(body, "uploadDest");
  const uploadType = readChoice(body, "uploadType", [1, 2]);
  const entry = runningPhone(state, body);
  if (isReply(entry)) return entry;
  const files = filesOf(state);
  const own = `${ownBaseUrl(headers.host)}${UPLOAD_PATH}/`;
  const signed = url.startsWith(own) ? files.signed.get(url.slice(own.length)) : undefined;
  if (url.startsWith(own) && signed?.bytes === undefined) throw new ParamError("nothing has been uploaded to this URL");
  const fileName = signed?.fileName ?? lastSegment(url);
  if (uploadType === LIVE_STREAM_UPLOAD && !fileName.toLowerCase().endsWith(".mp4")) throw new ParamError("a live-streaming upload must be an MP4 file");
  const fileId = files.nextId();
  const transfer: Transfer = { phoneId: entry.phone.id, status: UPLOADING };
  files.uploads.set(fileId, transfer);
  const path = `${uploadDest.replace(/\/+$/, "")}/${fileName}`;
  land(state, entry, transfer, () => {
    const stored = files.stored.get(entry.phone.id) ?? new Map<string, Buffer>();
    stored.set(path, signed?.bytes ?? Buffer.alloc(0));
    files.stored.set(entry.phone.id, stored);
  });
  return ok({ id: entry.phone.id, fileId, status: UPLOADING });
}

/** An unknown upload succeeds with data null (the spec). */
function uploadResult(state: EmulatorState, body: Body): Reply {
  requireFields(body, ["id", "fileId"]);
  const id = requireId(body, "id");
  const fileId = requireId(body, "fileId");
  const transfer = filesOf(state).uploads.get(fileId);
  return ok(transfer?.phoneId === id ? { id, fileId, status: transfer.status } : null);
}

/** Only a file the phone holds (one uploaded to it); the path is checked here, not on the poll (the spec). */
function download(state: EmulatorState, body: Body): Reply {
  requireFields(body, ["id", "filePath"]);
  const filePath = requireText(body, "filePath");
  const entry = runningPhone(state, body);
  if (isReply(entry)) return entry;
  const files = filesOf(state);
  const bytes = files.stored.get(entry.phone.id)?.get(filePath);
  if (bytes === undefined) return fail(CODES.phoneFileNotFound, "The file does not exist on the cloud phone");
  const downId = files.nextId();
  const transfer: Transfer & { bytes: Buffer } = { phoneId: entry.phone.id, status: DOWNLOAD.running, bytes };
  files.downloads.set(downId, transfer);
  const epoch = entry.epoch;
  state.timers.after(state.options.appInstallMs, () => {
    transfer.status = entry.epoch === epoch ? DOWNLOAD.succeeded : DOWNLOAD.failed;
  });
  return ok({ id: entry.phone.id, downId });
}

/** `downUrl`, once succeeded, is a data: URL of the file: no download host is involved. */
function downloadResult(state: EmulatorState, body: Body): Reply {
  requireFields(body, ["id", "downId"]);
  const downId = requireId(body, "downId");
  const entry = runningPhone(state, body);
  if (isReply(entry)) return entry;
  const transfer = filesOf(state).downloads.get(downId);
  if (transfer?.phoneId !== entry.phone.id) throw new ParamError(`download ${downId} does not exist`);
  const downUrl = transfer.status === DOWNLOAD.succeeded ? `data:application/octet-stream;base64,${transfer.bytes.toString("base64")}` : undefined;
  return ok({ status: transfer.status, downId, ...(downUrl ? { downUrl } : {}) });
}

function setKeyBox(state: EmulatorState, body: Body): Reply {
  const filePath = requireText(body, "filePath");
  readId(body, "id");
  if (!filePath.toLowerCase().endsWith(".xml")) throw new ParamError("filePath must name an .xml file");
  const entry = runningPhone(state, body);
  return isReply(entry) ? entry : ok(true);
}

/** The Local API's paths and the Open API's names for the same transfers (the two specs). */
const PATHS = {
  local: { signedUrl: "/api/cloudphone/upload/file/signedUrl", upload: "/api/cloudphone/upload/file", uploadResult: "/api/cloudphone/upload/file/result", base: "/api/cloudphone" },
  open: { signedUrl: "/cloudphone/uploadUrl", upload: "/cloudphone/uploadFile", uploadResult: "/cloudphone/uploadFileResult", base: "/cloudphone" },
} as const;

export function phoneFileRoutes(state: EmulatorState, api: ApiName = "local"): Route[] {
  const paths = PATHS[api];
  const post = (path: string, handle: (request: RouteRequest) => Reply): Route => ({ method: "POST", path, auth: true, handle });
  return [
    post(paths.signedUrl, (request) => signedUrl(state, request)),
    post(paths.upload, (request) => uploadFile(state, request)),
    post(paths.uploadResult, ({ body }) => uploadResult(state, body)),
    post(`${paths.base}/download`, ({ body }) => download(state, body)),
    post(`${paths.base}/download/result`, ({ body }) => downloadResult(state, body)),
    post(`${paths.base}/setKeyBox`, ({ body }) => setKeyBox(state, body)),
    // The upload URL names the port it was asked on, so each API's server takes the PUT.
    { method: "PUT", path: `${UPLOAD_PATH}/${PATH_ID}`, auth: false, maxBodyBytes: MAX_FILE_BYTES, handle: ({ pathId, bytes }) => putBytes(state, pathId, bytes ?? Buffer.alloc(0)) },
  ];
}
