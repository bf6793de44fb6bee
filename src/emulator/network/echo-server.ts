import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { exitOfCaller } from "./exit-registry";

/** The path of the IP-echo route on its own listener. */
export const ECHO_PATH = "/ip";

/**
 * ipinfo.io's shape (`ip`, `country`, `timezone`) for the exit of the emulated proxy the request came
 * through; a request that came direct gets its own address and `bogon: true`, as ipinfo answers for a
 * loopback or private address.
 */
function echoOf(req: IncomingMessage): Record<string, unknown> {
  const exit = exitOfCaller(req.socket.remotePort);
  if (exit !== undefined) return { ip: exit.ip, country: exit.country, timezone: exit.timezone };
  return { ip: (req.socket.remoteAddress ?? "").replace(/^::ffff:/, ""), bogon: true };
}

function answer(req: IncomingMessage, res: ServerResponse): void {
  const path = new URL(req.url ?? "/", "http://echo").pathname;
  if (req.method !== "GET" || path !== ECHO_PATH) {
    res.writeHead(404, { "Content-Type": "application/json; charset=utf-8" });
    return void res.end(JSON.stringify({ error: "not found" }));
  }
  const text = JSON.stringify(echoOf(req));
  res.writeHead(200, { "Content-Type": "application/json; charset=utf-8", "Content-Length": Buffer.byteLength(text), "Cache-Control": "no-store" });
  res.end(text);
}

export function createEchoServer(): Server {
  return createServer(answer);
}
