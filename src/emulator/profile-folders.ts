import { readlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";

/**
 * The folders a Chromium profile owns, to remove once its processes are gone: its user data folder and,
 * when its `SingletonSocket` link points into one directly in the temporary folder, the folder Chromium
 * made there for that socket (left behind when Chromium is stopped by a signal). Read before removing
 * either: the link is inside the user data folder.
 */
export function profileFolders(userDataDir: string): string[] {
  try {
    const socket = readlinkSync(join(userDataDir, "SingletonSocket"));
    const folder = dirname(socket);
    return basename(socket) === "SingletonSocket" && dirname(folder) === tmpdir() ? [userDataDir, folder] : [userDataDir];
  } catch {
    return [userDataDir];
  }
}
