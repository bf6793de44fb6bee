import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const SRC = join(__dirname, "..", "..", "src");

/** What a module imports: the specifiers of its import and require statements. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  return [...text.matchAll(/(?:from\s+|require\()\s*"([^"]+)"/g)].map((match) => match[1] as string);
}

describe("layers: the journal and the batch's engine never import Node-RED", () => {
  for (const folder of ["journal", "batch"]) {
    it(`src/${folder} imports neither node-red nor src/nodes`, () => {
      const files = readdirSync(join(SRC, folder), { recursive: true, encoding: "utf8" }).filter((name) => name.endsWith(".ts"));
      assert.ok(files.length > 0);
      for (const name of files) {
        const wrong = importsOf(join(SRC, folder, name)).filter((specifier) => specifier.startsWith("node-red") || specifier.startsWith("@node-red") || specifier.includes("/nodes"));
        assert.deepEqual(wrong, [], `src/${folder}/${name}`);
      }
    });
  }
});
