import { readFile, writeFile } from "node:fs/promises";
import { basename, posix } from "node:path";
import { MoreLoginInputError, MoreLoginNetworkError, MoreLoginResponseError, messageOf, type CallOptions, type MoreLoginClient } from "../../../client";
import type { ActionContext, ActionRun } from "../shell/action-node";
import type { Translate } from "../shell/i18n";
import { callOptions, checkApi, pollHint, reply } from "./reply";
import { whenRunning } from "./reset-wait";
import { allowedPath, uploadPath } from "../../../browser/upload-file";
import { onePhoneBody } from "./target";
import { uploadPlacesOf } from "../config/upload-places";
import { pick } from "../shell/properties";
import { seconds, waitUntil } from "../shell/wait";

/**
 * Files to and from a cloud phone, the same way on both APIs: an upload URL (`upload/file/signedUrl`,
 * the Open API's `uploadUrl`), the bytes PUT there, the phone told to fetch it (`upload/file`,
 * `uploadFile`) and its result polled (`upload/file/result`, `uploadFileResult`); a download asked
 * for (`download`), its result polled (`download/result`) until it gives the file's URL.
 */

/** An upload or download of a large file: ten minutes unless the node's timeout says otherwise. */
const TRANSFER_WAIT_MS = 600_000;
const UPLOAD = { uploading: 0, done: 1, failed: 2 } as const;
const DOWNLOAD = { running: 10, done: 20, failed: 30, cancelled: 40 } as const;
const DEFAULT_DEST = "/Download";

/** The file to upload: the node's local file, or a Buffer in msg.payload named by fileName or msg.filename. */
async function fileToUpload(context: ActionContext): Promise<{ bytes: Buffer; fileName: string }> {
  const localFile = context.fields.localFile;
  if (typeof localFile === "string" && localFile !== "") {
    // Any flow message can name a path: read as the browser's upload reads one (settings.js decides where from).
    const path = await allowedPath(localFile, uploadPlacesOf(context.RED));
    const bytes = await readFile(path).catch((error: unknown) => {
      throw new MoreLoginInputError(context.t("morelogin-cloud-phone.error.readFile", { reason: messageOf(error) }));
    });
    return { bytes, fileName: typeof context.fields.fileName === "string" && context.fields.fileName !== "" ? context.fields.fileName : basename(localFile) };
  }
  if (!Buffer.isBuffer(context.msg.payload)) throw new MoreLoginInputError(context.t("morelogin-cloud-phone.error.noFile"));
  const named = context.fields.fileName ?? context.msg.filename;
  const fileName = typeof named === "string" ? basename(named) : "";
  if (fileName === "") throw new MoreLoginInputError(context.t("morelogin-cloud-phone.error.noFileName"));
  return { bytes: context.msg.payload, fileName };
}

/** The phone's ID: msg.payload names it unless it is the file itself. */
function phoneBody(context: ActionContext, own: Record<string, unknown>): Record<string, unknown> {
  const payload = Buffer.isBuffer(context.msg.payload) ? undefined : context.msg.payload;
  return onePhoneBody(own, context.fields.phoneId, payload, context.t);
}

/**
 * Why a fetch to a presigned URL failed, by the error's code or name only ("ECONNREFUSED",
 * "TimeoutError"): its message may hold the URL, which lets anyone read or write the file.
 */
function failureOf(error: unknown): string {
  const cause: unknown = error instanceof Error ? error.cause : undefined;
  const code = cause && typeof cause === "object" ? (cause as { code?: unknown }).code : undefined;
  if (typeof code === "string" && code !== "") return code;
  return error instanceof Error ? error.name : typeof error;
}

/** PUTs the bytes to the upload URL MoreLogin gave (cloud storage, not the API: no token goes there). */
async function putBytes(url: string, bytes: Buffer, options: CallOptions, t: Translate): Promise<void> {
  const signals = [AbortSignal.timeout(options.timeoutMs ?? TRANSFER_WAIT_MS), ...(options.signal ? [options.signal] : [])];
  const response = await fetch(url, { method: "PUT", body: new Uint8Array(bytes), signal: AbortSignal.any(signals) }).catch((error: unknown) => {
    throw new MoreLoginNetworkError(t("morelogin-cloud-phone.error.uploadFailed", { reason: failureOf(error) }), { api: options.api });
  });
  if (!response.ok) throw new MoreLoginResponseError(t("morelogin-cloud-phone.error.uploadRefused", { status: response.status }), { api: options.api, status: response.status });
}

async function fetchBytes(url: string, options: CallOptions, t: Translate): Promise<Buffer> {
  const signals = [AbortSignal.timeout(options.timeoutMs ?? TRANSFER_WAIT_MS), ...(options.signal ? [options.signal] : [])];
  const response = await fetch(url, { signal: AbortSignal.any(signals) }).catch((error: unknown) => {
    throw new MoreLoginNetworkError(t("morelogin-cloud-phone.error.downloadFailed", { reason: failureOf(error) }), { api: options.api });
  });
  if (!response.ok) throw new MoreLoginResponseError(t("morelogin-cloud-phone.error.downloadRefused", { status: response.status }), { api: options.api, status: response.status });
  return Buffer.from(await response.arrayBuffer());
}

function waitUploaded(client: MoreLoginClient, options: CallOptions, id: string, fileId: string, t: Translate) {
  return waitUntil(options, TRANSFER_WAIT_MS, (callOptions) => client.call("cloudPhoneUploadResult", { id, fileId }, callOptions), {
    reached: ({ data }) => data?.status === UPLOAD.done,
    failed: ({ data }) => (data?.status === UPLOAD.failed ? t("morelogin-cloud-phone.error.uploadFailedOnPhone", { fileId, id }) : undefined),
    describe: (last) => t("morelogin-cloud-phone.error.uploadTimeout", { fileId, id, time: seconds(options.timeoutMs ?? TRANSFER_WAIT_MS), status: JSON.stringify(last?.data?.status ?? null) }),
    context: { api: options.api ?? "local" },
  });
}

function waitDownloaded(client: MoreLoginClient, options: CallOptions, id: string, downId: string, t: Translate) {
  return waitUntil(options, TRANSFER_WAIT_MS, (callOptions) => client.call("cloudPhoneDownloadResult", { id, downId }, callOptions), {
    reached: ({ data }) => data.status === DOWNLOAD.done && typeof data.downUrl === "string",
    failed: ({ data }) =>
      data.status === DOWNLOAD.failed || data.status === DOWNLOAD.cancelled
        ? t(data.status === DOWNLOAD.failed ? "morelogin-cloud-phone.error.downloadFailedOnPhone" : "morelogin-cloud-phone.error.downloadCancelled", { downId, id })
        : undefined,
    describe: (last) => t("morelogin-cloud-phone.error.downloadTimeout", { downId, id, time: seconds(options.timeoutMs ?? TRANSFER_WAIT_MS), status: JSON.stringify(last?.data.status ?? null) }),
    context: { api: options.api ?? "local" },
  });
}

/** Puts a file on the phone in `uploadDest`; with `wait`, until it is there (the upload's result). */
export const uploadFile: ActionRun = async (context) => {
  checkApi(context, "uploadToCloudPhone");
  const { bytes, fileName } = await fileToUpload(context);
  const body = phoneBody(context, {});
  const id = String(body.id);
  const options = callOptions(context);
  const uploadDest = typeof context.fields.uploadDest === "string" && context.fields.uploadDest !== "" ? context.fields.uploadDest : DEFAULT_DEST;
  const wait = context.def.wait === true;
  // With wait, a phone still on its way up (33301) is waited for, as MoreLogin's skill says.
  const askUrl = () => context.client.call("cloudPhoneUploadUrl", { id, fileName }, options);
  const { data: signed } = wait ? await whenRunning(context.client, options, id, askUrl, context.t) : await askUrl();
  await putBytes(signed.presignedUrl, bytes, options, context.t);
  const result = await context.client.call("uploadToCloudPhone", { id, url: signed.presignedUrl, uploadDest }, options);
  const fileId = String(result.data.fileId);
  const path = posix.join(uploadDest, fileName);
  if (!wait) {
    context.msg.poll = pollHint("cloudPhoneUploadResult", context.api, [{ id, fileId }]);
    return reply(context, result, { ...result.data, path }, [id], "morelogin-cloud-phone.status.uploadFile");
  }
  delete context.msg.poll;
  const done = await waitUploaded(context.client, options, id, fileId, context.t);
  return reply(context, done, { ...done.data, path }, [id], "morelogin-cloud-phone.status.uploaded");
};

/** Takes a file off the phone; with `wait`, its bytes as a Buffer, or written to `saveTo`. */
export const downloadFile: ActionRun = async (context) => {
  checkApi(context, "downloadFromCloudPhone");
  const body = onePhoneBody(pick(context.fields, ["filePath"]), context.fields.phoneId, context.msg.payload, context.t);
  const id = String(body.id);
  const options = callOptions(context);
  const wait = context.def.wait === true;
  const ask = () => context.client.call("downloadFromCloudPhone", body, options);
  const result = wait ? await whenRunning(context.client, options, id, ask, context.t) : await ask();
  const downId = String(result.data.downId);
  if (!wait) {
    context.msg.poll = pollHint("cloudPhoneDownloadResult", context.api, [{ id, downId }]);
    return reply(context, result, result.data, [id], "morelogin-cloud-phone.status.downloadFile");
  }
  delete context.msg.poll;
  const done = await waitDownloaded(context.client, options, id, downId, context.t);
  const bytes = await fetchBytes(String(done.data.downUrl), options, context.t);
  const filePath = String(body.filePath);
  context.msg.filename = posix.basename(filePath);
  const saveTo = context.fields.saveTo;
  if (typeof saveTo === "string" && saveTo !== "") {
    await writeFile(uploadPath(saveTo, uploadPlacesOf(context.RED)), bytes);
    return reply(context, done, { id, filePath, savedTo: saveTo, size: bytes.length }, [id], "morelogin-cloud-phone.status.downloaded");
  }
  return reply(context, done, bytes, [id], "morelogin-cloud-phone.status.downloaded");
};
