import type { IncomingHttpHeaders } from "node:http";
import type { Reply } from "./replies";
import type { Body } from "./request-fields";

/** The last path segment of a route written as `.../{id}`. */
export const PATH_ID = "{id}";

export interface RouteRequest {
  body: Body;
  headers: IncomingHttpHeaders;
  /** The `{id}` segment of the request path, for routes whose path ends in `/{id}`. */
  pathId?: string;
  /** The body as sent, for the PUT routes and the multipart routes, which take raw bytes. */
  bytes?: Buffer;
  /** The body of a route that takes a bare JSON array (`arrayBody`); `body` is then {}. */
  list?: readonly unknown[];
}

export interface Route {
  method: "GET" | "POST" | "PUT";
  /** The exact path, or one ending in `/{id}` that matches any single non-empty last segment. */
  path: string;
  /** False for the routes that answer without credentials (health probe, token grant). */
  auth: boolean;
  /** True when the route answers a bare JSON value instead of an envelope and never faults. */
  probe?: boolean;
  /** True when the body is a bare JSON array (proxyInfo/delete), handed over as `list`. */
  arrayBody?: boolean;
  /** True when the body is multipart/form-data, handed over as `bytes` (with `headers`), not parsed as JSON. */
  multipart?: boolean;
  /** The largest body taken, when not the usual 1 MB (a file's bytes). */
  maxBodyBytes?: number;
  handle(request: RouteRequest): Reply | Promise<Reply>;
}

export type RouteTable = ReadonlyMap<string, Route>;

export const routeKey = (method: string, path: string): string => `${method} ${path}`;

export function routeTable(routes: readonly Route[]): RouteTable {
  return new Map(routes.map((route) => [routeKey(route.method, route.path), route]));
}

/** The route for a request: an exact path first, else a `/{id}` route with the last segment as its ID. */
export function findRoute(routes: RouteTable, method: string, path: string): { route: Route; pathId?: string } | undefined {
  const exact = routes.get(routeKey(method, path));
  if (exact) return { route: exact };
  const slash = path.lastIndexOf("/");
  const pathId = path.slice(slash + 1);
  if (slash <= 0 || pathId === "") return undefined;
  const route = routes.get(routeKey(method, `${path.slice(0, slash)}/${PATH_ID}`));
  return route ? { route, pathId } : undefined;
}
