import { Client } from "undici";
import type { BaseUrl } from "./urls";

/** What a DevTools endpoint's `/json/version` answered: the WebSocket URL, or the HTTP status it refused with. */
export interface DevtoolsVersion {
  webSocketDebuggerUrl?: string;
  /** Set when it answered with another status than 200 (a cloud browser's gateway: 401 for a wrong token). */
  refusedWith?: number;
}

/**
 * Asks a started browser's DevTools HTTP endpoint for its WebSocket URL (`/json/version`), which
 * `puppeteer.connect` and Playwright's `connectOverCDP` take. `cdpUrl` may have a path and a query, and
 * both are kept: a cloud browser's `https://host:port?token=…` is asked `https://host:port/json/version?token=…`
 * (Playwright itself would put the path after the query). Nothing when the browser does not answer in time.
 */
export async function readDevtoolsVersion(cdpUrl: string, timeoutMs = 2_000): Promise<DevtoolsVersion> {
  let url: URL;
  try {
    url = new URL(cdpUrl);
  } catch {
    return {};
  }
  const client = new Client(url.origin, { connect: { timeout: timeoutMs } });
  try {
    const response = await client.request({
      method: "GET",
      path: versionPath(url),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await response.body.text();
    if (response.statusCode !== 200) return { refusedWith: response.statusCode };
    const found = (JSON.parse(text) as { webSocketDebuggerUrl?: unknown }).webSocketDebuggerUrl;
    return typeof found === "string" && found.startsWith("ws") ? { webSocketDebuggerUrl: found } : {};
  } catch {
    return {};
  } finally {
    await client.destroy().catch(() => undefined);
  }
}

/** readDevtoolsVersion's WebSocket URL, or undefined: the profile has still started when its browser does not say it. */
export async function fetchWebSocketDebuggerUrl(cdpUrl: string, timeoutMs = 2_000): Promise<string | undefined> {
  return (await readDevtoolsVersion(cdpUrl, timeoutMs)).webSocketDebuggerUrl;
}

/** `/json/version` under the URL's path (a path that names it already is taken as is), with the URL's query (its token) after it. */
export function versionPath(url: URL): string {
  return `${url.pathname.replace(/\/+$/, "").replace(/\/json\/version$/, "")}/json/version${url.search}`;
}

/**
 * The browser's DevTools HTTP endpoint. Debug ports listen on the machine that runs MoreLogin: that is
 * 127.0.0.1 unless the Local API URL names another host (a tunnel, or MoreLogin's server edition,
 * whose debug ports are forwarded).
 */
export function cdpUrlFor(debugPort: unknown, local?: BaseUrl): string | undefined {
  const port = Number(debugPort);
  return Number.isInteger(port) && port > 0 && port < 65536 ? `http://${debuggerHost(local)}:${port}` : undefined;
}

/** A DevTools URL the browser gave (it names itself 127.0.0.1) moved to the host it is reached on. */
export function onDebuggerHost(url: string, local?: BaseUrl): string {
  if (!local || local.loopback) return url;
  try {
    const moved = new URL(url);
    moved.hostname = local.hostname;
    return moved.toString();
  } catch {
    return url;
  }
}

function debuggerHost(local?: BaseUrl): string {
  return !local || local.loopback ? "127.0.0.1" : local.hostname;
}
