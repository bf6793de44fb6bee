import { randomBytes, timingSafeEqual } from "node:crypto";
import { createServer, request, STATUS_CODES, type IncomingMessage, type ServerResponse } from "node:http";
import { connect } from "node:net";
import type { Duplex } from "node:stream";
import type { Browser } from "./browser-sessions";
import { ACCESS_PATH, accessPage, type OpenPage } from "./cloud-access-page";
import { rewriteDevtoolsJson, type Hosts } from "./cloud-devtools-json";
import { CODES } from "./codes";
import { listen } from "./http-listener";
import { envelope } from "./replies";

const HOST = "127.0.0.1";
const JSON_TYPE = "application/json; charset=utf-8";

/**
 * A cloud runtime's browser as the emulator hands it out: behind a gateway on a loopback port of its own
 * (`port`) that wants the runtime's token, as MoreLogin's `cdpUrl` (`https://runtime1.morelogin.com:16167?token=…`)
 * does. close() closes the gateway and the browser.
 */
export interface CloudBrowser extends Browser {
  /** The runtime's token: the same for every connect while the runtime runs. */
  readonly token: string;
  /** A new token for the access page: each connect mints one, and earlier ones stay valid (the spec). */
  mintAccessToken(): string;
}

/** 32 hex characters, as the token of MoreLogin's example cdpUrl. */
export const newToken = (): string => randomBytes(16).toString("hex");

function sameToken(given: string, expected: string): boolean {
  return given.length === expected.length && timingSafeEqual(Buffer.from(given), Buffer.from(expected));
}

/** Why a request is refused, or undefined when its token is one `accepted` holds. */
function refusal(given: string | null, accepted: Iterable<string>): string | undefined {
  if (given === null || given === "") return "Unauthorized: the token is missing";
  for (const token of accepted) if (sameToken(given, token)) return undefined;
  return "Unauthorized: the token is wrong";
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "Content-Type": JSON_TYPE, "Content-Length": Buffer.byteLength(text), "Cache-Control": "no-store" });
  res.end(text);
}

function refuseUpgrade(socket: Duplex, status: number, msg: string): void {
  const text = JSON.stringify(envelope(status, msg, null));
  socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: ${JSON_TYPE}\r\nContent-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`);
}

/** The browser's answer to a GET of `path`, parsed. */
function fetchJson(port: number, path: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const req = request({ host: HOST, port, path, headers: { host: `${HOST}:${port}` } }, (reply) => {
      const chunks: Buffer[] = [];
      reply.on("data", (chunk: Buffer) => chunks.push(chunk));
      reply.on("end", () => {
        try {
          resolve(JSON.parse(Buffer.concat(chunks).toString("utf8")));
        } catch (error) {
          reject(error);
        }
      });
      reply.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

/** Passes a request on to the browser's debug port; JSON answers come back with their WebSocket addresses rewritten. */
function forward(req: IncomingMessage, res: ServerResponse, path: string, hosts: Hosts, port: number): void {
  const headers: Record<string, string> = { host: hosts.browser };
  const type = req.headers["content-type"];
  if (type !== undefined) headers["content-type"] = type;
  const upstream = request({ host: HOST, port, method: req.method, path, headers }, (reply) => {
    const status = reply.statusCode ?? 502;
    const replyType = reply.headers["content-type"] ?? "";
    if (!replyType.includes("json")) {
      res.writeHead(status, replyType === "" ? {} : { "Content-Type": replyType });
      reply.pipe(res);
      return;
    }
    const chunks: Buffer[] = [];
    reply.on("data", (chunk: Buffer) => chunks.push(chunk));
    reply.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        res.writeHead(status, { "Content-Type": replyType });
        res.end(text);
        return;
      }
      sendJson(res, status, rewriteDevtoolsJson(body, hosts));
    });
  });
  upstream.on("error", () => {
    if (!res.headersSent) sendJson(res, 502, envelope(CODES.unknownError, "The cloud browser does not answer", null));
    else res.destroy();
  });
  req.pipe(upstream);
}

/** Hands a WebSocket upgrade to the browser's debug port as it came (without the token), then pipes both ways. */
function pipeUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer, path: string, hosts: Hosts, port: number): void {
  const upstream = connect(port, HOST);
  const lines = [`${req.method ?? "GET"} ${path} HTTP/1.1`, `Host: ${hosts.browser}`];
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i] ?? "";
    if (name.toLowerCase() !== "host") lines.push(`${name}: ${req.rawHeaders[i + 1] ?? ""}`);
  }
  upstream.write(`${lines.join("\r\n")}\r\n\r\n`);
  if (head.length > 0) upstream.write(head);
  const end = (): void => {
    socket.destroy();
    upstream.destroy();
  };
  for (const side of [socket, upstream]) {
    side.on("error", end);
    side.on("close", end);
  }
  socket.pipe(upstream).pipe(socket);
}

/** Opens the gateway in front of `browser` (its debug port); the gateway is the runtime's `cdpUrl`. */
export async function openGateway(browser: Browser): Promise<CloudBrowser> {
  const token = newToken();
  const accessTokens = new Set<string>();
  let hosts: Hosts | undefined;
  const target = (url: URL): string => {
    url.searchParams.delete("token");
    return `${url.pathname}${url.search}`;
  };

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", `http://${HOST}`);
    const access = url.pathname === ACCESS_PATH;
    const refused = refusal(url.searchParams.get("token"), access ? accessTokens : [token]);
    if (refused !== undefined || hosts === undefined) return sendJson(res, 401, envelope(CODES.invalidToken, refused ?? "Unauthorized", null));
    if (!access) return forward(req, res, target(url), hosts, browser.port);
    fetchJson(browser.port, "/json/list").then(
      (list) => {
        const html = accessPage(url.searchParams.get("envName") ?? "", Array.isArray(list) ? list.filter(isPage) : []);
        res.writeHead(200, { "Content-Type": "text/html; charset=utf-8", "Content-Length": Buffer.byteLength(html), "Cache-Control": "no-store" });
        res.end(html);
      },
      () => sendJson(res, 502, envelope(CODES.unknownError, "The cloud browser does not answer", null)),
    );
  });
  server.on("upgrade", (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(req.url ?? "/", `http://${HOST}`);
    const refused = refusal(url.searchParams.get("token"), [token]);
    if (refused !== undefined || hosts === undefined) return refuseUpgrade(socket, 401, refused ?? "Unauthorized");
    if (!url.pathname.startsWith("/devtools/")) return refuseUpgrade(socket, 404, "Not found");
    pipeUpgrade(req, socket, head, target(url), hosts, browser.port);
  });

  const listener = await listen(server, HOST, 0);
  hosts = { browser: `${HOST}:${browser.port}`, gateway: `${HOST}:${listener.port}`, token };
  let closing: Promise<void> | undefined;
  return {
    port: listener.port,
    pid: browser.pid,
    token,
    mintAccessToken: () => {
      const minted = newToken();
      accessTokens.add(minted);
      return minted;
    },
    close: () => {
      closing ??= Promise.all([listener.close(), browser.close()]).then(() => undefined);
      return closing;
    },
  };
}

function isPage(target: unknown): target is OpenPage {
  if (typeof target !== "object" || target === null) return false;
  const { type, title, url } = target as Record<string, unknown>;
  return type === "page" && typeof title === "string" && typeof url === "string";
}
