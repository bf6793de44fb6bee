import { createServer } from "node:http";
import { randomUUID } from "node:crypto";
import { listen, type Listener } from "./http-listener";

const CHROME_VERSION = "142.0.7444.60";

/**
 * The CDP stand-in a started profile exposes on 127.0.0.1: enough of Chrome's HTTP endpoints
 * (`/json/version`, `/json/list`) for tools to discover a browser; no WebSocket behind it.
 */
export async function startDebugPort(): Promise<Listener> {
  const browserId = randomUUID();
  let port = 0;
  const server = createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    let body: unknown;
    if (req.method === "GET" && path === "/json/version") body = versionInfo(port, browserId);
    else if (req.method === "GET" && (path === "/json/list" || path === "/json")) body = [];
    const status = body === undefined ? 404 : 200;
    const text = body === undefined ? "Not found" : JSON.stringify(body, null, 3);
    res.writeHead(status, { "Content-Type": body === undefined ? "text/plain" : "application/json; charset=UTF-8" });
    res.end(text);
  });
  const listener = await listen(server, "127.0.0.1", 0);
  port = listener.port;
  return listener;
}

function versionInfo(port: number, browserId: string): Record<string, string> {
  return {
    Browser: `Chrome/${CHROME_VERSION}`,
    "Protocol-Version": "1.3",
    "User-Agent": `Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${CHROME_VERSION} Safari/537.36`,
    "V8-Version": "14.2.231.14",
    "WebKit-Version": "537.36 (@3ed0ab1c0ba4b5c8d2a3c1f5e9f07b1e6d2c4a11)",
    webSocketDebuggerUrl: `ws://127.0.0.1:${port}/devtools/browser/${browserId}`,
  };
}
