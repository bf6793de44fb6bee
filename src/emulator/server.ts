import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { checkLocalToken, checkServerLogin, invalidToken } from "./auth";
import { parseJson, readBody, type ParsedBody, type RawBody } from "./body";
import { CODES } from "./codes";
import { badRequest, fail, notFound, paramError, rateLimitExceeded, tooLarge, unknownError, type Reply } from "./replies";
import type { FaultPlan } from "./faults";
import { ParamError, type Body } from "./request-fields";
import { findRoute, type Route, type RouteTable } from "./routes";
import { SERVED_PATH } from "./served";
import type { EmulatorState } from "./state";
import { countRequest } from "./stats";
import type { ApiName } from "./types";

const JSON_TYPE = "application/json; charset=utf-8";
const BAD_GATEWAY_PAGE = "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n";

/** The path without query string; absolute-form request targets are reduced to their path. */
function pathOf(url: string | undefined): string {
  const target = url ?? "/";
  if (!target.startsWith("/")) {
    try {
      return new URL(target).pathname;
    } catch {
      return target;
    }
  }
  const end = target.search(/[?#]/);
  return end === -1 ? target : target.slice(0, end);
}

function send(res: ServerResponse, reply: Reply): void {
  if (res.destroyed || res.writableEnded) return;
  const text = reply.text ?? JSON.stringify(reply.payload);
  res.writeHead(reply.status, { "Content-Type": JSON_TYPE, "Content-Length": Buffer.byteLength(text), ...reply.headers });
  res.end(text);
}

function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** The request as this server received it, for the echo fault: what a careless server repeats in an error. */
function echoOf(req: IncomingMessage, raw: RawBody): string {
  const body = raw.kind === "ok" ? raw.text : `(${raw.kind === "tooLarge" ? "too large" : "aborted"})`;
  return `echo of ${req.method ?? "GET"} ${req.url ?? "/"}: headers ${JSON.stringify(req.headers)}, body ${body}`;
}

/** Answers with the fault instead of the route; returns false when no fault replaces the answer. */
function injectFault(plan: FaultPlan, req: IncomingMessage, res: ServerResponse, raw: RawBody): boolean {
  switch (plan.kind) {
    case undefined:
      return false;
    case "http503":
      send(res, fail(CODES.serviceUnavailable, "Service unavailable", 503));
      return true;
    case "http502html":
      res.writeHead(502, { "Content-Type": "text/html; charset=utf-8" });
      res.end(BAD_GATEWAY_PAGE);
      return true;
    case "reset":
      req.socket.destroy();
      return true;
    case "malformed":
      res.writeHead(200, { "Content-Type": JSON_TYPE });
      res.end('{"code":0,"data":{');
      return true;
    case "tooMany":
      send(res, rateLimitExceeded(plan.retryAfterSeconds));
      return true;
    case "rateLimited":
      send(res, rateLimitExceeded());
      return true;
    case "hang":
      return true; // the socket stays open until the client gives up or the emulator closes
    case "tokenFailure":
      send(res, fail(CODES.serverError, "Token service unavailable", 500));
      return true;
    case "echo":
      send(res, fail(CODES.serverError, echoOf(req, raw), 500));
      return true;
  }
}

/** The body a route sees: a JSON object, {} for an empty body, or a reply that rejects the request. */
type BodyResult = { body: Body; list?: readonly unknown[] } | { rejected: Reply };

function routeBody(route: Route, raw: RawBody, parsed: ParsedBody | undefined): BodyResult {
  if (route.method === "GET") return { body: {} };
  if (raw.kind !== "ok") return { rejected: tooLarge() };
  if (route.method === "PUT" || route.multipart) return { body: {} };
  if (parsed === undefined || parsed.kind === "invalid") return { rejected: badRequest() };
  if (parsed.kind === "empty") return { body: {} };
  const value = parsed.value;
  if (route.arrayBody && Array.isArray(value)) return { body: {}, list: value };
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { rejected: paramError("Request parameter error: the body must be a JSON object") };
  }
  return { body: value as Body };
}

function authenticate(api: ApiName, route: Route, req: IncomingMessage, state: EmulatorState): Reply | undefined {
  if (!route.auth) return undefined;
  const header = headerText(req.headers.authorization);
  if (api === "local") return checkServerLogin(state) ?? checkLocalToken(header, state.localToken);
  return state.tokens.isValid(header) ? undefined : invalidToken();
}

async function handle(api: ApiName, routes: RouteTable, state: EmulatorState, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const method = req.method ?? "GET";
  const path = pathOf(req.url);
  countRequest(state.stats, `${api} ${method} ${path}`);
  if (api === "open" && path === "/oauth2/token") state.stats.tokenRequests++;

  const found = findRoute(routes, method, path);
  const route = found?.route;
  const raw = await readBody(req, route?.maxBodyBytes);
  if (raw.kind === "aborted") return;
  // A file's bytes are not JSON: not parsed (nor logged as a body).
  const binary = route?.method === "PUT" || route?.multipart === true;
  const parsed = raw.kind === "ok" && !binary ? parseJson(raw.text) : undefined;
  state.log.add({ api, method, path, headers: { ...req.headers }, body: parsed?.kind === "json" ? parsed.value : undefined });
  if (!route?.probe) {
    const waitSeconds = state.limiters[api].take();
    if (waitSeconds !== undefined) {
      state.stats.rateLimited++;
      return send(res, rateLimitExceeded(state.rateLimitRetryAfter ? waitSeconds : undefined));
    }
  }

  const plan = state.faults.plan({ api, path, method });
  if (plan.delayMs > 0) {
    state.stats.faultsInjected.latency++;
    await state.timers.sleep(plan.delayMs);
  }
  if (plan.kind !== undefined) state.stats.faultsInjected[plan.kind]++;
  if (injectFault(plan, req, res, raw)) return;

  if (!route) return send(res, notFound());
  const denied = authenticate(api, route, req, state);
  if (denied) return send(res, denied);
  const checked = routeBody(route, raw, parsed);
  if ("rejected" in checked) return send(res, checked.rejected);

  try {
    const bytes = (route.method === "PUT" || route.multipart) && raw.kind === "ok" ? raw.bytes : undefined;
    send(res, await route.handle({ body: checked.body, list: checked.list, headers: req.headers, pathId: found?.pathId, bytes }));
  } catch (error) {
    if (error instanceof ParamError) send(res, paramError(error.message));
    else send(res, unknownError());
  }
}

/** Serves a static page; pages are not the API, so they skip its token, rate limit, faults and statistics. */
function sendPage(req: IncomingMessage, res: ServerResponse, html: string): void {
  res.writeHead(200, { "Content-Type": "text/html; charset=utf-8", "Content-Length": Buffer.byteLength(html), "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff" });
  res.end(req.method === "HEAD" ? undefined : html);
}

/** What the emulator served (`/emulator/served`): its own answer, not the API's, so outside its token, rate limit, faults and statistics. */
function sendServed(req: IncomingMessage, res: ServerResponse, state: EmulatorState): void {
  const text = `${JSON.stringify(state.served.snapshot(), null, 2)}\n`;
  res.writeHead(200, { "Content-Type": JSON_TYPE, "Content-Length": Buffer.byteLength(text), "Cache-Control": "no-store" });
  res.end(req.method === "HEAD" ? undefined : text);
}

/** The emulator's own routes beside an API (outside its token, rate limit, faults and statistics): true when one answered. */
export type OwnRoute = (req: IncomingMessage, res: ServerResponse) => boolean;

/** An API server; `pages` are HTML pages by path, answered to GET and HEAD. */
export function createApiServer(api: ApiName, routes: RouteTable, state: EmulatorState, pages: ReadonlyMap<string, string> = new Map(), own: OwnRoute = () => false): Server {
  return createServer((req, res) => {
    if (own(req, res)) return;
    if ((req.method === "GET" || req.method === "HEAD") && pathOf(req.url) === SERVED_PATH) return sendServed(req, res, state);
    const page = req.method === "GET" || req.method === "HEAD" ? pages.get(pathOf(req.url)) : undefined;
    if (page !== undefined) return sendPage(req, res, page);
    handle(api, routes, state, req, res).catch(() => {
      if (!res.headersSent) send(res, unknownError());
      else res.destroy();
    });
  });
}
