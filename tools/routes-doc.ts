/**
 * docs/NODES.md's "Every documented route" section, written from the client's endpoint table and the nodes'
 * operations (src/nodes/lib/declarations/operations.ts) against MoreLogin's own list of its Local API routes
 * (docs/reference/morelogin-routes.json). `npm run docs:routes` writes it; test/tools/routes-doc.test.ts
 * fails when the page is not what this writes now.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ENDPOINTS, type EndpointDefinition } from "../src/client/endpoints";
import { NODE_DECLARATIONS } from "../src/nodes/lib/declarations/node-declarations";
import { NODE_OPERATIONS } from "../src/nodes/lib/declarations/operations";

export type Route = readonly [method: string, path: string];

export const ROUTES_FILE = join(__dirname, "..", "docs", "reference", "morelogin-routes.json");
export const NODES_PAGE = join(__dirname, "..", "docs", "NODES.md");
export const SECTION_START = "<!-- routes: written by `npm run docs:routes` from the endpoint table; do not edit by hand -->";
export const SECTION_END = "<!-- routes: end -->";

/** MoreLogin's documented Local API routes, `[method, path]`, as its own skill repository lists them. */
export function documentedRoutes(file = ROUTES_FILE): Route[] {
  const parsed: unknown = JSON.parse(readFileSync(file, "utf8"));
  if (!Array.isArray(parsed)) throw new Error(`${file} is not an array of [method, path]`);
  return parsed.map((entry: unknown) => {
    if (!Array.isArray(entry) || typeof entry[0] !== "string" || typeof entry[1] !== "string") throw new Error(`${file}: ${JSON.stringify(entry)} is not [method, path]`);
    return [entry[0], entry[1]] as const;
  });
}

const definitions = Object.entries(ENDPOINTS) as [string, EndpointDefinition][];

/** The endpoint name of a route on one API, if the client's table has one. */
export function endpointNamed(api: "local" | "open", method: string, path: string): string | undefined {
  return definitions.find(([, definition]) => definition.method === method && (definition.api === api ? definition.path : definition.twinPath) === path)?.[0];
}

const nodeLabel = (type: string): string => (type === "morelogin-config" ? "config node" : ((NODE_DECLARATIONS as Record<string, { label: string }>)[type]?.label ?? type.replace(/^morelogin-/, "")));

/** The nodes and actions that send an endpoint, e.g. `profile: *create*, *detail*; watch: *profiles*`. */
export function madeBy(endpoint: string): string {
  const uses: string[] = [];
  for (const [type, operations] of Object.entries(NODE_OPERATIONS)) {
    const ways = Object.entries(operations).flatMap(([way, endpoints]) => ((endpoints as readonly string[]).includes(endpoint) ? [way] : []));
    if (ways.length === 0) continue;
    const named = ways.filter((way) => way !== "").map((way) => `*${way}*`);
    uses.push(named.length === 0 ? nodeLabel(type) : `${nodeLabel(type)}: ${[...(ways.includes("") ? ["every message"] : []), ...named].join(", ")}`);
  }
  return uses.length === 0 ? "request node only" : uses.join("; ");
}

const row = (cells: readonly string[]): string => `| ${cells.join(" | ")} |`;

/** The section's text, from its start marker to its end marker. */
export function routesSection(routes: readonly Route[] = documentedRoutes()): string {
  const local = routes.map(([method, path]) => ({ method, path, endpoint: endpointNamed("local", method, path) }));
  const named = local.filter((route) => route.endpoint !== undefined).length;
  const open = definitions
    .flatMap(([name, definition]) => {
      const path = definition.api === "open" ? definition.path : definition.twinPath;
      return path === undefined ? [] : [{ method: definition.method, path, endpoint: name }];
    })
    .sort((a, b) => a.path.localeCompare(b.path));
  return [
    SECTION_START,
    "",
    `${named} of ${routes.length} Local API routes named (and every Open API route the client knows).`,
    "",
    "MoreLogin's Local API routes as its own list has them ([source](reference/README.md)), each with the client's",
    "endpoint name and the nodes that send it. *request node only*: no node sends it yet; the request node",
    "(**MoreLogin request**) reaches every route by its path.",
    "",
    row(["method", "Local API route", "endpoint", "sent by"]),
    row(["---", "---", "---", "---"]),
    ...local.map((route) =>
      row([route.method, `\`${route.path}\``, route.endpoint === undefined ? "—" : `\`${route.endpoint}\``, route.endpoint === undefined ? "request node only" : madeBy(route.endpoint)]),
    ),
    "",
    `The Open API routes the client knows (${open.length}), where the nodes' **API** can be *Open API*:`,
    "",
    row(["method", "Open API route", "endpoint", "sent by"]),
    row(["---", "---", "---", "---"]),
    ...open.map((route) => row([route.method, `\`${route.path}\``, `\`${route.endpoint}\``, madeBy(route.endpoint)])),
    "",
    SECTION_END,
  ].join("\n");
}

/** The page with its section replaced by `section`; the page must have both markers, in order. */
export function withSection(page: string, section: string): string {
  const start = page.indexOf(SECTION_START);
  const end = page.indexOf(SECTION_END);
  if (start === -1 || end < start) throw new Error(`docs/NODES.md has no section between "${SECTION_START}" and "${SECTION_END}"`);
  return page.slice(0, start) + section + page.slice(end + SECTION_END.length);
}
