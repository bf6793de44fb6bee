import type { NodeAPI } from "node-red";
import type { UploadPlaces } from "../../../browser";

/**
 * Where the browser node's upload reads a path from, as settings.js says: a relative path starts in
 * `fileWorkingDirectory` (as core `file in` does), and only `morelogin.uploadFolders` (a folder, or a
 * list of them; anything else in it allows none) may be read from when it is set.
 */
export function uploadPlacesOf(RED: NodeAPI): UploadPlaces {
  const settings = RED.settings as unknown as { fileWorkingDirectory?: unknown; morelogin?: { uploadFolders?: unknown } };
  const workingDirectory = settings.fileWorkingDirectory;
  const folders = settings.morelogin?.uploadFolders;
  const places: UploadPlaces = {};
  if (typeof workingDirectory === "string" && workingDirectory !== "") places.workingDirectory = workingDirectory;
  if (folders !== undefined && folders !== null) {
    const list: unknown[] = Array.isArray(folders) ? folders : [folders];
    places.allowedFolders = list.filter((folder): folder is string => typeof folder === "string" && folder.trim() !== "").map((folder) => folder.trim());
  }
  return places;
}
