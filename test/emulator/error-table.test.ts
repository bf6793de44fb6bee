import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { CODES } from "../../src/emulator/codes";

/** The rows of docs/EMULATOR.md's "Error codes the emulator serves" table: code, HTTP status, when, source. */
function tableRows(): string[][] {
  const page = readFileSync(join(__dirname, "..", "..", "docs", "EMULATOR.md"), "utf8");
  const section = page.split("## Error codes the emulator serves")[1]?.split(/\n#{1,3} /)[0] ?? "";
  return section
    .split("\n")
    .filter((line) => /^\| `-?\d+` \|/.test(line))
    .map((line) => line.split(" | ").map((cell) => cell.replace(/^\| |`| \|$/g, "").trim()));
}

describe("emulator: the error table of docs/EMULATOR.md", () => {
  it("lists every code the emulator answers with, once, each with its source or why it is assumed", () => {
    const rows = tableRows();
    assert.deepEqual(
      rows.map(([code]) => Number(code)).sort((a, b) => a - b),
      Object.values(CODES).sort((a, b) => a - b),
    );
    for (const [code, http, when, source] of rows) {
      assert.match(http ?? "", /^\d{3}$/, `HTTP status of ${code}`);
      assert.ok((when ?? "").length > 0, `when ${code} is sent`);
      assert.match(source ?? "", /^(documented|assumed): /, `source of ${code}`);
    }
  });
});
