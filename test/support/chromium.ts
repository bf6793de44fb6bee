/** Debian's chromium for the tests, and looking at the real Chromium behind a started profile from the outside, as a user would. */
import { existsSync, readdirSync, readFileSync, readlinkSync } from "node:fs";
import type { Emulator } from "../../src/emulator";

/**
 * Debian's Chromium headless shell (`apt-get install -y chromium-headless-shell`), the build that
 * playwright itself runs headless: the same engine and version as Debian's chromium, at about a third of
 * its CPU a start (0.7 against 1.8 CPU-seconds, its helper processes counted; docs/DEVELOPMENT.md). The
 * binary itself, not /usr/bin/chromium-headless-shell: that script does not exec it, so ending the script
 * would leave the browser running.
 */
const HEADLESS_SHELL = "/usr/lib/chromium/chromium-headless-shell";
/** Debian's chromium (`apt-get install -y chromium`): what a user gives the emulator, so what its own browser tests run. */
export const DEBIAN_CHROMIUM = "/usr/bin/chromium";

/** The Chromium of the tests: MORELOGIN_CHROMIUM, else the headless shell, else Debian's chromium. */
export const CHROMIUM = process.env.MORELOGIN_CHROMIUM || [HEADLESS_SHELL, DEBIAN_CHROMIUM].find((path) => existsSync(path)) || HEADLESS_SHELL;

export const chromiumInstalled = (binary = CHROMIUM): boolean => existsSync(binary);

/** The environment variable that skips the browser suite on purpose, outside CI (docs/DEVELOPMENT.md). */
export const SKIP_BROWSER_TESTS = "MORELOGIN_SKIP_BROWSER_TESTS";

/**
 * Why the browser suite is skipped, or undefined when it runs. Only the person can skip it, with
 * MORELOGIN_SKIP_BROWSER_TESTS=1, and not in CI (CI=true); a missing chromium is an error that names
 * the command that installs it, so `npm test` never goes green without its browser tests.
 */
export function browserSkipReason(env: NodeJS.ProcessEnv = process.env, binary = CHROMIUM): string | undefined {
  const inCi = env.CI === "true";
  if (!inCi && env[SKIP_BROWSER_TESTS] === "1") return `${SKIP_BROWSER_TESTS}=1`;
  if (chromiumInstalled(binary)) return undefined;
  const way = inCi ? "; in CI (CI=true) they cannot be skipped" : `, or skip them on purpose with ${SKIP_BROWSER_TESTS}=1`;
  throw new Error(`the browser tests need Chromium at ${binary}: install it with \`apt-get install -y chromium chromium-headless-shell\` (Debian)${way}`);
}

export interface Tab {
  id: string;
  url: string;
  title: string;
}

/** The browser's open tabs, from its DevTools HTTP endpoint (`/json/list`). */
export async function tabsOf(debugPort: string): Promise<Tab[]> {
  const targets = (await (await fetch(`http://127.0.0.1:${debugPort}/json/list`)).json()) as Array<Tab & { type: string }>;
  return targets.filter((target) => target.type === "page").map(({ id, url, title }) => ({ id, url, title }));
}

/**
 * Puts a running profile's browser back as its start left it, for the next test that shares it: one
 * tab, loaded afresh with about:blank (which ends whatever a test left running in it), and no cookies.
 * The tab is kept rather than replaced: a new tab is a new renderer, most of what a reset would cost.
 */
export async function resetBrowser(debugPort: string): Promise<void> {
  // Loaded here: the suites that only read this file's paths need not load Playwright.
  const { chromium } = await import("playwright-core");
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${debugPort}`);
  try {
    const context = browser.contexts()[0];
    if (!context) throw new Error(`the browser at ${debugPort} has no default context`);
    const pages = context.pages();
    const kept = pages.find((page) => page.url() === "about:blank") ?? pages[0] ?? (await context.newPage());
    await Promise.all(pages.filter((page) => page !== kept).map((page) => page.close()));
    await kept.goto("about:blank");
    await context.clearCookies();
  } finally {
    // Over CDP, close() only disconnects: the browser and its tab stay.
    await browser.close();
  }
}

/** The inode of the socket listening on 127.0.0.1:<port> (from /proc/net/tcp). */
function listeningInode(port: number): string | undefined {
  const hexPort = port.toString(16).toUpperCase().padStart(4, "0");
  for (const line of readFileSync("/proc/net/tcp", "utf8").split("\n").slice(1)) {
    const columns = line.trim().split(/\s+/);
    // local_address is column 1 (ADDR:PORT), st is column 3 (0A = LISTEN), inode is column 9.
    if (columns[1]?.endsWith(`:${hexPort}`) && columns[3] === "0A") return columns[9];
  }
  return undefined;
}

/** The process that listens on the profile's debug port: its browser. */
export async function browserPid(emulator: Emulator, envId: string): Promise<number> {
  const port = Number(emulator.running().find((profile) => profile.envId === envId)?.debugPort);
  const inode = listeningInode(port);
  if (!inode) throw new Error(`nothing listens on the debug port ${port} of profile ${envId}`);
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${entry}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        if (readlinkSync(`/proc/${entry}/fd/${fd}`) === `socket:[${inode}]`) return Number(entry);
      } catch {
        // The process or descriptor went away while we looked.
      }
    }
  }
  throw new Error(`no process holds the debug port ${port}`);
}
