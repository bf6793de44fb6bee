import { cdpUrlFor, fetchWebSocketDebuggerUrl, onDebuggerHost, type MoreLoginClient } from "../../../client";
import type { ProfileHandle } from "../shell/types";

export interface BrowserAddress {
  cdpUrl?: string;
  webSocketDebuggerUrl?: string;
}

/**
 * Where automation connects to a running profile's browser: `cdpUrl` from its debug port and, when the
 * port answers `/json/version` quickly, `webSocketDebuggerUrl`. Empty when there is no debug port.
 */
export async function browserAddress(client: MoreLoginClient, debugPort: unknown): Promise<BrowserAddress> {
  const cdpUrl = cdpUrlFor(debugPort, client.local);
  if (!cdpUrl) return {};
  const webSocketDebuggerUrl = await fetchWebSocketDebuggerUrl(cdpUrl);
  return webSocketDebuggerUrl ? { cdpUrl, webSocketDebuggerUrl: onDebuggerHost(webSocketDebuggerUrl, client.local) } : { cdpUrl };
}

/** `msg.morelogin.profile` for a running profile. */
export function profileHandle(envId: string, debugPort: unknown, address: BrowserAddress): ProfileHandle {
  return { envId, debugPort: String(debugPort ?? ""), ...address };
}
