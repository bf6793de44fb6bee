import type { Browser, Page } from "playwright-core";
import { BrowserConnections } from "./connections";
import { webSocketUrlOf } from "./endpoint";
import { browserStepError, BrowserStepError, isPlaywrightTimeout, untilAborted, withDeadline } from "./errors";
import { readyInputs, STEPS, type BrowserAction } from "./steps";
import type { StepInputs, StepResult } from "./step-types";
import { findTab, firstTab, newTab, tabCount, targetIdOf, type PageHandle } from "./tabs";

export interface StepRequest {
  action: BrowserAction;
  /** A ws:// or http:// address of the browser, or its debug port. */
  address: unknown;
  /** The tab an earlier step acted on (msg.morelogin.page). */
  page?: PageHandle;
  inputs: StepInputs;
  timeoutMs: number;
  signal?: AbortSignal;
}

export interface StepOutcome extends StepResult {
  /** The tab for the next step; undefined after closePage. */
  page?: PageHandle;
}

/**
 * Runs one browser step: finds the browser (one connection per browser, shared), the tab (the one
 * the message names, else a new one for open and the first one for the rest), and runs the step in
 * it. Errors say what failed in words a flow author can act on; the connection stays usable, or is
 * dropped when the browser went away.
 */
export class BrowserSteps {
  private readonly connections = new BrowserConnections();

  async run(request: StepRequest): Promise<StepOutcome> {
    const { action, inputs, timeoutMs, signal } = request;
    const step = { action, timeoutMs, selector: typeof inputs.selector === "string" ? inputs.selector : undefined, url: action === "open" && typeof inputs.url === "string" ? inputs.url : undefined };
    let tab: Page | undefined;
    try {
      const ready = await untilAborted(readyInputs(action, inputs), signal);
      const webSocketUrl = await untilAborted(webSocketUrlOf(request.address, timeoutMs), signal);
      const browser = await untilAborted(this.connections.get(webSocketUrl, timeoutMs), signal);
      const named = request.page?.webSocketDebuggerUrl === webSocketUrl ? request.page.targetId : undefined;
      const { page, opened } = await untilAborted(this.tabFor(browser, action, named), signal);
      tab = page;
      const handle: PageHandle = { targetId: await untilAborted(targetIdOf(page), signal), webSocketDebuggerUrl: webSocketUrl };
      if (action === "closePage") {
        await untilAborted(this.closeTab(browser, page, timeoutMs), signal);
        return { detail: "" };
      }
      // Ends a human-like step's pauses once its deadline or the node's stop has come, so it stops acting in the page.
      const ended = new AbortController();
      const result = await untilAborted(withDeadline(STEPS[action](page, ready, { timeoutMs, signal: ended.signal }), timeoutMs, action), signal)
        .catch(async (error: unknown) => {
          // A tab opened for a page that then failed to load would be left behind with no message naming it.
          if (opened) await page.close().catch(() => undefined);
          throw error;
        })
        .finally(() => ended.abort());
      // identity works in a tab of its own and closes it: the message still names the tab it named.
      return { ...result, page: action === "identity" ? request.page : handle };
    } catch (error) {
      throw browserStepError(error, step, step.selector !== undefined && isPlaywrightTimeout(error) && (await matchesNow(tab, step.selector)));
    }
  }

  /** Connected browsers (for tests and the soak: none may be left once the flows are gone). */
  get connectionCount(): number {
    return this.connections.size;
  }

  disconnectAll(): Promise<void> {
    return this.connections.disconnectAll();
  }

  /** The tab to act on, and whether this step opened it. */
  private async tabFor(browser: Browser, action: BrowserAction, targetId: string | undefined): Promise<{ page: Page; opened: boolean }> {
    if (targetId !== undefined) {
      const page = await findTab(browser, targetId);
      if (page) return { page, opened: false };
      if (action !== "open") throw new BrowserStepError("page", "the tab msg.morelogin.page names was closed: open a page first, or remove msg.morelogin.page");
    }
    if (action === "closePage") throw new BrowserStepError("input", "closePage closes the tab an earlier browser node used (msg.morelogin.page), and this message names none");
    return action === "open" ? { page: await newTab(browser), opened: true } : { page: firstTab(browser), opened: false };
  }

  /** Closes the tab; the browser's last tab is emptied instead, because a browser without tabs may quit. */
  private async closeTab(browser: Browser, page: Page, timeoutMs: number): Promise<void> {
    if (tabCount(browser) > 1) await page.close();
    else await page.goto("about:blank", { timeout: timeoutMs });
  }
}

const MATCH_CHECK_MS = 5_000;

/** Whether the selector matches an element in the tab now; false when the tab cannot say within MATCH_CHECK_MS. */
async function matchesNow(page: Page | undefined, selector: string): Promise<boolean> {
  if (!page || page.isClosed()) return false;
  const count = await withDeadline(page.locator(selector).count(), MATCH_CHECK_MS, "count").catch(() => 0);
  return count > 0;
}
