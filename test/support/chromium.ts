import { existsSync } from "node:fs";

/** Debian's chromium (`apt-get install -y chromium`); MORELOGIN_CHROMIUM points elsewhere, e.g. to try a missing one. */
export const CHROMIUM = process.env.MORELOGIN_CHROMIUM || "/usr/bin/chromium";

export const chromiumInstalled = (): boolean => existsSync(CHROMIUM);

/** The environment variable that skips the browser suite on purpose, outside CI (the README's Development section). */
export const SKIP_BROWSER_TESTS = "MORELOGIN_SKIP_BROWSER_TESTS";

/**
 * Why the browser suite is skipped, or undefined when it runs. Only the person can skip it, with
 * MORELOGIN_SKIP_BROWSER_TESTS=1, and not in CI (CI=true); a missing chromium is an error that names
 * the command that installs it, so `npm test` never goes green without its browser tests.
 */
export function browserSkipReason(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const inCi = env.CI === "true";
  if (!inCi && env[SKIP_BROWSER_TESTS] === "1") return `${SKIP_BROWSER_TESTS}=1`;
  if (chromiumInstalled()) return undefined;
  const way = inCi ? "; in CI (CI=true) they cannot be skipped" : `, or skip them on purpose with ${SKIP_BROWSER_TESTS}=1`;
  throw new Error(`the browser tests need chromium at ${CHROMIUM}: install it with \`apt-get install -y chromium\` (Debian)${way}`);
}
