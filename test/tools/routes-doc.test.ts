import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { ENDPOINTS, type EndpointDefinition } from "../../src/client/endpoints";
import { NODE_OPERATIONS } from "../../src/nodes/lib/declarations/operations";
import { documentedRoutes, NODES_PAGE, routesSection, SECTION_END, SECTION_START } from "../../tools/routes-doc";

const ROOT = join(__dirname, "..", "..");
const page = (): string => readFileSync(NODES_PAGE, "utf8");

/** The Local API table's rows as the page has them: method, route, endpoint (undefined for "—"). */
function localRows(): { method: string; path: string; endpoint?: string }[] {
  const section = page().split(SECTION_START)[1]?.split("The Open API routes")[0] ?? "";
  return section
    .split("\n")
    .filter((line) => /^\| (GET|POST) \| `\/api\//.test(line))
    .map((line) => {
      const [method = "", path = "", endpoint = ""] = line
        .slice(2, -2)
        .split(" | ")
        .map((cell) => cell.replace(/`/g, ""));
      return { method, path, endpoint: endpoint === "—" ? undefined : endpoint };
    });
}

/** The text of every .ts file under a folder of src/, the endpoint tables and the operations table left out. */
function codeNaming(folder: string): string {
  const files = readdirSync(join(ROOT, "src", folder), { recursive: true, encoding: "utf8" });
  return files
    .filter((file) => file.endsWith(".ts") && !file.endsWith("-endpoints.ts") && !file.endsWith("operations.ts"))
    .map((file) => readFileSync(join(ROOT, "src", folder, file), "utf8"))
    .join("\n");
}

describe("docs/NODES.md: every documented route", () => {
  it("keeps MoreLogin's list of 113 distinct Local API routes", () => {
    const routes = documentedRoutes();
    assert.equal(routes.length, 113);
    assert.equal(new Set(routes.map(([method, path]) => `${method} ${path}`)).size, 113);
  });

  it("has the section `npm run docs:routes` writes now", () => {
    const text = page();
    const section = text.slice(text.indexOf(SECTION_START), text.indexOf(SECTION_END) + SECTION_END.length);
    assert.equal(section, routesSection(), "docs/NODES.md's route section is stale: run npm run docs:routes");
  });

  it("names an endpoint only for a route the client's table has, and counts exactly those", () => {
    const rows = localRows();
    assert.deepEqual(
      rows.map(({ method, path }) => [method, path]),
      documentedRoutes().map(([method, path]) => [method, path]),
      "one row per route of the copy, in its order",
    );
    for (const { method, path, endpoint } of rows.filter((entry) => entry.endpoint !== undefined)) {
      const definition = (ENDPOINTS as Record<string, EndpointDefinition>)[endpoint ?? ""];
      assert.ok(definition, `${method} ${path}: the page names ${endpoint}, which the client's table does not have`);
      assert.equal(definition.method, method, `${endpoint}'s method`);
      assert.equal(definition.api === "local" ? definition.path : definition.twinPath, path, `${endpoint}'s Local API path`);
    }
    const named = rows.filter((entry) => entry.endpoint !== undefined).length;
    assert.match(page(), new RegExp(`\\n${named} of ${rows.length} Local API routes named `));
  });

  it("says a node sends an endpoint only when the nodes' code names it", () => {
    const code = `${codeNaming("nodes")}\n${codeNaming("client")}`;
    for (const [type, operations] of Object.entries(NODE_OPERATIONS)) {
      for (const [way, endpoints] of Object.entries(operations)) {
        for (const endpoint of endpoints) assert.ok(code.includes(`"${endpoint}"`), `${type} ${way || "(every message)"}: no code outside the tables names "${endpoint}"`);
      }
    }
  });
});
