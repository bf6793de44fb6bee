import { delimiter, join } from "node:path";
import { notExecutable } from "../src/emulator/executable";

const DEBIAN_CHROMIUM = "/usr/bin/chromium";

/**
 * The Chromium for the emulator's started profiles: MORELOGIN_BROWSER when set, else Debian's
 * /usr/bin/chromium, else a `chromium` on PATH; undefined when there is none.
 */
export function findBrowser(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.MORELOGIN_BROWSER) return env.MORELOGIN_BROWSER;
  const candidates = [
    DEBIAN_CHROMIUM,
    ...(env.PATH ?? "")
      .split(delimiter)
      .filter((dir) => dir !== "")
      .map((dir) => join(dir, "chromium")),
  ];
  return candidates.find((path) => notExecutable(path) === undefined);
}
