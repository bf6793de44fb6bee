import { readFile, realpath, stat } from "node:fs/promises";
import { basename, extname, isAbsolute, relative, resolve, sep } from "node:path";
import { types } from "node:util";
import { inputError } from "./errors";
import type { StepInputs } from "./step-types";

/** A file for a file input, as Playwright takes it: sent as bytes, so it works with a browser on another machine too. */
export interface FileToUpload {
  name: string;
  mimeType: string;
  buffer: Buffer;
}

/** Playwright refuses bigger files sent as bytes. */
export const MAX_UPLOAD_BYTES = 50 * 1024 * 1024;

const MIME_TYPES: Record<string, string> = {
  ".csv": "text/csv",
  ".gif": "image/gif",
  ".html": "text/html",
  ".jpeg": "image/jpeg",
  ".jpg": "image/jpeg",
  ".json": "application/json",
  ".pdf": "application/pdf",
  ".png": "image/png",
  ".svg": "image/svg+xml",
  ".txt": "text/plain",
  ".webp": "image/webp",
  ".xml": "application/xml",
  ".zip": "application/zip",
};

const mimeTypeOf = (name: string): string => MIME_TYPES[extname(name).toLowerCase()] ?? "application/octet-stream";

/** The name a browser shows for the file: the last part of a path, whichever slashes it uses. */
const fileNameOf = (path: string): string => basename(path.replaceAll("\\", "/"));

function tooBig(what: string, bytes: number): Error {
  return inputError(`${what} is ${Math.round(bytes / 1024 / 1024)} MB; at most ${MAX_UPLOAD_BYTES / 1024 / 1024} MB can be uploaded this way`);
}

/** Where upload reads files from, as the runtime's settings say. */
export interface UploadPlaces {
  /** A relative path starts here (settings.js `fileWorkingDirectory`, as core `file in` does); else in the process's folder. */
  workingDirectory?: string;
  /** When set, the only folders (with what is under them) a path may name (settings.js `morelogin.uploadFolders`). */
  allowedFolders?: readonly string[];
}

/** The path as the runtime reads it: a relative one from the working directory, when one is set. */
export function uploadPath(given: string, places: UploadPlaces = {}): string {
  return places.workingDirectory && !isAbsolute(given) ? resolve(places.workingDirectory, given) : resolve(given);
}

/** The path with its links followed (where it exists), so that a link cannot lead out of an allowed folder. */
const realPathOf = (path: string): Promise<string> => realpath(path).catch(() => path);

async function isAllowed(path: string, places: UploadPlaces): Promise<boolean> {
  const folders = places.allowedFolders;
  if (!folders) return true;
  const file = await realPathOf(path);
  for (const folder of folders) {
    const inside = relative(await realPathOf(uploadPath(folder, places)), file);
    if (inside !== "" && inside !== ".." && !inside.startsWith(`..${sep}`) && !isAbsolute(inside)) return true;
  }
  return false;
}

/**
 * A path a flow names for a file to read and send (the browser's upload, the cloud phone's), as the runtime
 * reads it: from the working directory when relative, and within the allowed folders when settings.js names
 * some, checked before anything is read (whether a file outside them exists is not told either).
 */
export async function allowedPath(given: string, places: UploadPlaces = {}): Promise<string> {
  const path = uploadPath(given, places);
  if (!(await isAllowed(path, places))) throw inputError(`file ${JSON.stringify(given)} is outside the folders upload may read (settings.js morelogin.uploadFolders)`);
  return path;
}

/**
 * The file upload sends: the node's `file` path when given (read here, on Node-RED's machine, within the
 * allowed folders when settings.js names some), else msg.payload as a Buffer named by msg.filename. A path
 * outside those folders, one that does not exist, or no file at all, is bad input.
 */
export async function fileToUpload(inputs: StepInputs): Promise<FileToUpload> {
  if (typeof inputs.file === "string" && inputs.file.trim() !== "") {
    const given = inputs.file.trim();
    const path = await allowedPath(given, inputs.places);
    const found = await stat(path).catch(() => undefined);
    if (!found) throw inputError(`file ${JSON.stringify(given)} does not exist (or cannot be read) on Node-RED's machine`);
    if (!found.isFile()) throw inputError(`file ${JSON.stringify(given)} is not a file (a folder?)`);
    if (found.size > MAX_UPLOAD_BYTES) throw tooBig(`file ${JSON.stringify(given)}`, found.size);
    const name = fileNameOf(given);
    return { name, mimeType: mimeTypeOf(name), buffer: await readFile(path) };
  }
  if (inputs.file !== undefined && inputs.file !== "") throw inputError("file must be a path (text)");
  const bytes = bytesOf(inputs.payload);
  if (!bytes) {
    throw inputError("upload needs a file: set the node's File to a path, or send msg.payload as a Buffer (a read file node gives one) with msg.filename");
  }
  if (typeof inputs.filename !== "string" || fileNameOf(inputs.filename.trim()) === "") {
    throw inputError("msg.filename is missing: name the file msg.payload holds (e.g. report.csv), as the page will see it");
  }
  if (bytes.length > MAX_UPLOAD_BYTES) throw tooBig("msg.payload", bytes.length);
  const name = fileNameOf(inputs.filename.trim());
  return { name, mimeType: mimeTypeOf(name), buffer: bytes };
}

/** A Buffer as it is; a Uint8Array from any realm (a function node's `new Uint8Array()`) as a Buffer over the same bytes. */
export function bytesOf(payload: unknown): Buffer | undefined {
  if (Buffer.isBuffer(payload)) return payload;
  if (types.isUint8Array(payload)) return Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength);
  return undefined;
}
