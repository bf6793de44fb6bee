import { describeValue, readDevtoolsVersion, redactSecrets, versionPath } from "../client";
import { BrowserStepError, inputError } from "./errors";

/** Where a browser was named: msg.payload, msg.morelogin.profile or the node's `endpoint`. */
export interface EndpointCandidate {
  webSocketDebuggerUrl?: unknown;
  cdpUrl?: unknown;
}

const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]"]);

const text = (value: unknown): string | undefined => (typeof value === "string" && value.trim() !== "" ? value.trim() : undefined);

/** The first address given, the DevTools WebSocket URL before the HTTP one. */
export function firstAddress(candidates: ReadonlyArray<EndpointCandidate | undefined>): string | undefined {
  for (const candidate of candidates) {
    const address = text(candidate?.webSocketDebuggerUrl) ?? text(candidate?.cdpUrl);
    if (address) return address;
  }
  return undefined;
}

/**
 * The browser's DevTools WebSocket URL, the one key a connection is kept under. Takes a WebSocket
 * URL as is; asks an HTTP address (`cdpUrl`, a cloud browser's with its path and token, or a bare debug
 * port on this machine) for it.
 */
export async function webSocketUrlOf(address: unknown, timeoutMs: number): Promise<string> {
  const given = typeof address === "number" ? String(address) : text(address);
  if (given === undefined) throw inputError(`the browser address must be a ws:// or http:// URL or a debug port, got ${describeValue(address)}`);
  const httpUrl = /^\d{1,5}$/.test(given) && Number(given) > 0 && Number(given) < 65536 ? `http://127.0.0.1:${given}` : given;
  let url: URL;
  try {
    url = new URL(httpUrl);
  } catch {
    throw inputError(`the browser address must be a ws:// or http:// URL or a debug port, got ${describeValue(given)}`);
  }
  if (url.protocol === "ws:" || url.protocol === "wss:") return url.toString();
  if (url.protocol !== "http:" && url.protocol !== "https:") throw inputError(`the browser address must be a ws:// or http:// URL or a debug port, got ${describeValue(given)}`);
  // A cloud browser's cdpUrl carries its token in the query: asked with it, never shown with it.
  const { webSocketDebuggerUrl: found, refusedWith } = await readDevtoolsVersion(url.toString(), Math.min(timeoutMs, 5_000));
  const asked = redactSecrets(`${url.origin}${versionPath(url)}`);
  if (refusedWith === 401 || refusedWith === 403)
    throw new BrowserStepError(
      "auth",
      `the browser at ${asked} refused its token (HTTP ${refusedWith}): a cloud browser's cdpUrl holds the token of one run, so take the cdpUrl of its current run: a start node gives it, and connects to a cloud browser that runs already`,
    );
  if (!found) throw new BrowserStepError("network", `no browser answers at ${asked}: is the profile running?`);
  return onHostAsked(found, url.hostname);
}

/** The browser names itself 127.0.0.1: reached through another host (a tunnel), the WebSocket is there too. */
function onHostAsked(webSocketUrl: string, hostname: string): string {
  const moved = new URL(webSocketUrl);
  if (moved.hostname === hostname || LOOPBACK.has(hostname)) return webSocketUrl;
  moved.hostname = hostname;
  return moved.toString();
}
