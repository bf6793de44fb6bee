import type { IncomingHttpHeaders } from "node:http";
import type { Reply } from "./replies";
import type { Body } from "./request-fields";

export interface RouteRequest {
  body: Body;
  headers: IncomingHttpHeaders;
}

export interface Route {
  method: "GET" | "POST";
  path: string;
  /** False for the routes that answer without credentials (health probe, token grant). */
  auth: boolean;
  /** True when the route answers a bare JSON value instead of an envelope and never faults. */
  probe?: boolean;
  handle(request: RouteRequest): Reply | Promise<Reply>;
}

export type RouteTable = ReadonlyMap<string, Route>;

export const routeKey = (method: string, path: string): string => `${method} ${path}`;

export function routeTable(routes: readonly Route[]): RouteTable {
  return new Map(routes.map((route) => [routeKey(route.method, route.path), route]));
}
