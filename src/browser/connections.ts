import type { Browser } from "playwright-core";
import { redactSecrets } from "../client";
import { BrowserStepError } from "./errors";
import { chromium } from "./playwright";

/**
 * One CDP connection per browser (keyed by its DevTools WebSocket URL), shared by every message and
 * node that acts on it. A browser that closes or crashes is forgotten, so the next message connects
 * again. Disconnecting never closes the browser: the profile belongs to MoreLogin.
 */
export class BrowserConnections {
  private readonly browsers = new Map<string, Promise<Browser>>();

  /** The connected browser at this address, connecting first when there is none (one attempt for many callers). */
  async get(webSocketUrl: string, timeoutMs: number): Promise<Browser> {
    const known = this.browsers.get(webSocketUrl);
    if (known) {
      const browser = await known.catch(() => undefined);
      if (browser?.isConnected()) return browser;
      if (this.browsers.get(webSocketUrl) === known) this.browsers.delete(webSocketUrl);
      return this.get(webSocketUrl, timeoutMs);
    }
    const connecting = this.connect(webSocketUrl, timeoutMs);
    this.browsers.set(webSocketUrl, connecting);
    connecting.then(
      (browser) => browser.on("disconnected", () => this.forget(webSocketUrl, connecting)),
      () => this.forget(webSocketUrl, connecting),
    );
    return connecting;
  }

  /** How many browsers are connected or connecting. */
  get size(): number {
    return this.browsers.size;
  }

  /** Drops every connection (the browsers keep running). */
  async disconnectAll(): Promise<void> {
    const all = [...this.browsers.values()];
    this.browsers.clear();
    await Promise.all(all.map((pending) => pending.then((browser) => disconnect(browser)).catch(() => undefined)));
  }

  private forget(webSocketUrl: string, entry: Promise<Browser>): void {
    if (this.browsers.get(webSocketUrl) === entry) this.browsers.delete(webSocketUrl);
  }

  private async connect(webSocketUrl: string, timeoutMs: number): Promise<Browser> {
    try {
      return await chromium().connectOverCDP(webSocketUrl, { timeout: timeoutMs });
    } catch (error) {
      const reason = error instanceof Error && error.name === "TimeoutError" ? `no answer in ${Math.round(timeoutMs / 1000)} s` : "nothing answers there";
      throw new BrowserStepError("network", `no browser at ${redactSecrets(webSocketUrl)} (${reason}): is the profile running?`, { cause: error });
    }
  }
}

/**
 * Ends the CDP connection only. For a browser Playwright connected to over CDP, close() disconnects
 * and leaves the browser and its tabs running.
 */
async function disconnect(browser: Browser): Promise<void> {
  await browser.close().catch(() => undefined);
}
