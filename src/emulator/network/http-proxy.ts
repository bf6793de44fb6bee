import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import type { Socket } from "node:net";
import { credentialsMatch, type ProxyServing } from "./serving";
import { openUpstream, splice } from "./upstream";

const AUTH_REQUIRED = 'HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="morelogin-emulator"\r\nContent-Length: 0\r\nConnection: close\r\n\r\n';
const BAD_GATEWAY = "HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";
const BAD_REQUEST = "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";
/** Hop-by-hop headers a proxy does not pass on (RFC 9110 §7.6.1), and its own credentials. */
const HOP_HEADERS = new Set(["proxy-authorization", "proxy-connection", "connection", "keep-alive", "te", "trailer", "transfer-encoding", "upgrade"]);

/** Basic credentials of Proxy-Authorization (RFC 7617), or undefined. */
function basicCredentials(header: string | undefined): [string, string] | undefined {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? "");
  if (!match?.[1]) return undefined;
  const text = Buffer.from(match[1], "base64").toString("utf8");
  const colon = text.indexOf(":");
  return colon === -1 ? undefined : [text.slice(0, colon), text.slice(colon + 1)];
}

function authorised(serving: ProxyServing, req: IncomingMessage): boolean {
  const expected = serving.credentials();
  if (expected === undefined) return true;
  const given = basicCredentials(req.headers["proxy-authorization"]);
  return given !== undefined && credentialsMatch(expected, given[0], given[1]);
}

/** `host:port` of a CONNECT request (IPv6 in brackets). */
function targetOf(authority: string | undefined): { host: string; port: number } | undefined {
  const match = /^\[?([^\]]+?)\]?:(\d{1,5})$/.exec(authority ?? "");
  const port = Number(match?.[2]);
  return match?.[1] && port > 0 && port < 65536 ? { host: match[1], port } : undefined;
}

/**
 * A CONNECT tunnel. Node hands over the client's socket still flowing but with no 'data' listener, so
 * bytes a client sends before the tunnel opens (while a slow proxy waits, or upstream connects) are
 * kept here for upstream rather than lost.
 */
async function tunnel(serving: ProxyServing, req: IncomingMessage, client: Duplex, head: Buffer): Promise<void> {
  const early: Buffer[] = [head];
  const keep = (chunk: Buffer): void => void early.push(chunk);
  client.on("data", keep);
  await serving.delayAnswer(client);
  if (client.destroyed) return;
  if (!authorised(serving, req)) return void client.end(AUTH_REQUIRED);
  const target = targetOf(req.url);
  if (target === undefined) return void client.end(BAD_REQUEST);
  let upstream: Socket;
  try {
    upstream = await openUpstream(target.host, target.port, serving.exit());
  } catch {
    return void client.end(BAD_GATEWAY);
  }
  if (client.destroyed) return void upstream.destroy();
  client.off("data", keep);
  client.pause();
  client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
  const bytes = Buffer.concat(early);
  if (bytes.length > 0) upstream.write(bytes);
  splice(client as Socket, upstream);
}

function forwardedHeaders(req: IncomingMessage): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(req.headers)) if (value !== undefined && !HOP_HEADERS.has(name)) headers[name] = value;
  return headers;
}

/** A plain request in absolute form (`GET http://host/path`), sent on over a connection of its own. */
async function forward(serving: ProxyServing, req: IncomingMessage, res: ServerResponse): Promise<void> {
  await serving.delayAnswer(req.socket);
  if (req.socket.destroyed) return;
  if (!authorised(serving, req)) {
    res.writeHead(407, { "Proxy-Authenticate": 'Basic realm="morelogin-emulator"', "Content-Length": 0 });
    return void res.end();
  }
  let url: URL;
  try {
    url = new URL(req.url ?? "");
  } catch {
    return void res.writeHead(400, { "Content-Length": 0 }).end();
  }
  if (url.protocol !== "http:") return void res.writeHead(400, { "Content-Length": 0 }).end();
  let upstream: Socket;
  try {
    upstream = await openUpstream(url.hostname.replace(/^\[|\]$/g, ""), Number(url.port || 80), serving.exit());
  } catch {
    return void res.writeHead(502, { "Content-Length": 0 }).end();
  }
  const onward = request({ createConnection: () => upstream, method: req.method, path: `${url.pathname}${url.search}`, headers: forwardedHeaders(req) }, (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.pipe(res);
  });
  onward.once("error", () => (res.headersSent ? res.destroy() : res.writeHead(502, { "Content-Length": 0 }).end()));
  req.pipe(onward);
}

/**
 * An HTTP proxy (RFC 9110 §9.3.6 CONNECT, and requests in absolute form) with Basic credentials when its
 * row has them. It never listens itself: its proxy's listener hands it each connection.
 */
export function createHttpProxy(serving: ProxyServing): Server {
  const server = createServer((req, res) => {
    forward(serving, req, res).catch(() => res.destroy());
  });
  server.on("connect", (req: IncomingMessage, client: Duplex, head: Buffer) => {
    tunnel(serving, req, client, head).catch(() => client.destroy());
  });
  return server;
}
