import { Client } from "undici";
import type { BaseUrl } from "./urls";

/**
 * Asks a started browser's debug port for its DevTools WebSocket URL (`/json/version`), which
 * `puppeteer.connect` and Playwright's `connectOverCDP` take. Resolves undefined when the browser does
 * not answer in time: the profile has still started.
 */
export async function fetchWebSocketDebuggerUrl(cdpUrl: string, timeoutMs = 2_000): Promise<string | undefined> {
  const client = new Client(cdpUrl, { connect: { timeout: timeoutMs } });
  try {
    const response = await client.request({
      method: "GET",
      path: "/json/version",
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await response.body.text();
    if (response.statusCode !== 200) return undefined;
    const url = (JSON.parse(text) as { webSocketDebuggerUrl?: unknown }).webSocketDebuggerUrl;
    return typeof url === "string" && url.startsWith("ws") ? url : undefined;
  } catch {
    return undefined;
  } finally {
    await client.destroy().catch(() => undefined);
  }
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
