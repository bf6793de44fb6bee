import type { BrowserType } from "playwright-core";

let chromiumType: BrowserType | undefined;

/**
 * playwright-core's Chromium driver, loaded on first use: loading it takes about half a second and
 * 50 MB, which a Node-RED without browser nodes should not pay at start.
 */
export function chromium(): BrowserType {
  chromiumType ??= (require("playwright-core") as typeof import("playwright-core")).chromium;
  return chromiumType;
}
