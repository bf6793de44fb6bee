import { rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { NodeAPI } from "node-red";
import type { UploadPlaces } from "../../browser";

/** What this package reads from `settings.js`: `morelogin: { stateDir, uploadFolders }`. */
export interface MoreLoginSettings {
  /** Where the journals live; default `<userDir>/morelogin`. */
  stateDir?: unknown;
  /** The folders `upload` may read files from; unset: any file the runtime can read. */
  uploadFolders?: unknown;
}

/** The runtime's settings as plain values (Node-RED answers `undefined` for what `settings.js` does not set). */
export function runtimeSettings(RED: NodeAPI): Record<string, unknown> {
  return (RED.settings ?? {}) as unknown as Record<string, unknown>;
}

/** `settings.js`'s `morelogin` section, or an empty one. */
export function moreloginSettings(RED: NodeAPI): MoreLoginSettings {
  const section = runtimeSettings(RED).morelogin;
  return section !== null && typeof section === "object" ? (section as MoreLoginSettings) : {};
}

/**
 * The folder the package keeps its journals in: `settings.js`'s `morelogin.stateDir`, else `morelogin`
 * in Node-RED's user directory. A runtime with no user directory (embedded with a storage module of its
 * own, or a test harness) gets a folder of this process in the system's temporary folder: nothing
 * outlives the process there.
 */
export function stateDirOf(RED: NodeAPI): string {
  const configured = moreloginSettings(RED).stateDir;
  if (typeof configured === "string" && configured.trim() !== "") return configured.trim();
  const userDir = runtimeSettings(RED).userDir;
  if (typeof userDir === "string" && userDir !== "") return join(userDir, "morelogin");
  return processStateDir();
}

let ownFolder: string | undefined;

/** A folder of this process alone (never one a former process of the same ID left), removed when it exits. */
function processStateDir(): string {
  if (ownFolder) return ownFolder;
  const folder = join(tmpdir(), `node-red-contrib-morelogin-${process.pid}-${Date.now()}`);
  ownFolder = folder;
  process.once("exit", () => rmSync(folder, { recursive: true, force: true }));
  return folder;
}

/**
 * Where the browser node's upload reads a path from: a relative one from `fileWorkingDirectory` (as core
 * `file in` does), and only within `morelogin.uploadFolders` when settings.js sets it (a folder, or a list
 * of them; anything else in it allows none).
 */
export function uploadPlacesOf(RED: NodeAPI): UploadPlaces {
  const workingDirectory = runtimeSettings(RED).fileWorkingDirectory;
  const folders = moreloginSettings(RED).uploadFolders;
  const places: UploadPlaces = {};
  if (typeof workingDirectory === "string" && workingDirectory !== "") places.workingDirectory = workingDirectory;
  if (folders !== undefined && folders !== null) {
    const list: unknown[] = Array.isArray(folders) ? folders : [folders];
    places.allowedFolders = list.filter((folder): folder is string => typeof folder === "string" && folder.trim() !== "").map((folder) => folder.trim());
  }
  return places;
}
