import { readlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";

/**
 * The folder Chromium makes in the temporary folder for a profile's singleton socket, which the profile's
 * `SingletonSocket` link points into. Chromium stopped by a signal leaves it behind; read it before the
 * profile's folder is removed. Undefined when there is none, or when the link points anywhere else.
 */
export function singletonFolderOf(userDataDir: string): string | undefined {
  try {
    const socket = readlinkSync(join(userDataDir, "SingletonSocket"));
    const folder = dirname(socket);
    return basename(socket) === "SingletonSocket" && dirname(folder) === tmpdir() ? folder : undefined;
  } catch {
    return undefined;
  }
}
