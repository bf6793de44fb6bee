import type { Browser, CDPSession, Page } from "playwright-core";
import { BrowserStepError } from "./errors";

/** `msg.morelogin.page`: the tab a browser node acted on, for the next browser node. */
export interface PageHandle {
  /** The tab's DevTools target ID: stable for the tab's life, whichever connection reaches it. */
  targetId: string;
  /** The browser the tab is in. */
  webSocketDebuggerUrl: string;
}

const targetIds = new WeakMap<Page, string>();

/** The tab's DevTools target ID (asked once per tab and connection). */
export async function targetIdOf(page: Page): Promise<string> {
  const known = targetIds.get(page);
  if (known) return known;
  let session: CDPSession | undefined;
  try {
    session = await page.context().newCDPSession(page);
    const { targetInfo } = (await session.send("Target.getTargetInfo")) as { targetInfo: { targetId: string } };
    targetIds.set(page, targetInfo.targetId);
    return targetInfo.targetId;
  } finally {
    await session?.detach().catch(() => undefined);
  }
}

function tabsOf(browser: Browser): Page[] {
  return browser.contexts().flatMap((context) => context.pages());
}

/** The tab with this target ID, or undefined when it was closed. */
export async function findTab(browser: Browser, targetId: string): Promise<Page | undefined> {
  for (const page of tabsOf(browser)) {
    if (page.isClosed()) continue;
    if ((await targetIdOf(page).catch(() => undefined)) === targetId) return page;
  }
  return undefined;
}

/** The profile's first open tab: what a browser node acts on when no earlier one chose a tab. */
export function firstTab(browser: Browser): Page {
  const page = tabsOf(browser).find((candidate) => !candidate.isClosed());
  if (!page) throw new BrowserStepError("page", "the browser has no open tab: start with an open action, which opens one");
  return page;
}

/** A new tab in the profile's own browser context (its cookies and storage, not a fresh incognito one). */
export async function newTab(browser: Browser): Promise<Page> {
  const context = browser.contexts()[0];
  if (!context) throw new BrowserStepError("page", "the browser has no default context to open a tab in");
  return context.newPage();
}

/** How many tabs the browser has open. */
export function tabCount(browser: Browser): number {
  return tabsOf(browser).filter((page) => !page.isClosed()).length;
}
