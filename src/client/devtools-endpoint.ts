import { Client } from "undici";

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

export function cdpUrlFor(debugPort: unknown): string | undefined {
  const port = Number(debugPort);
  return Number.isInteger(port) && port > 0 && port < 65536 ? `http://127.0.0.1:${port}` : undefined;
}
