import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);
const ROOT = join(__dirname, "..", "..");

/**
 * `npm install` in a clone warns of nothing: every dependency with an install script is reviewed in
 * package.json's allowScripts. core-js (Dashboard 2's dependency, a development one here) is denied,
 * not approved: its postinstall only prints a funding notice.
 */
describe("npm install: no install-scripts warning", () => {
  it("every install script of the dependency tree is reviewed, and core-js's is denied", async () => {
    const { stdout, stderr } = await run("npm", ["install-scripts", "ls"], { cwd: ROOT, maxBuffer: 4 * 1024 * 1024 });
    assert.match(`${stdout}${stderr}`, /No packages with unreviewed install scripts/);
    const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { allowScripts?: Record<string, boolean> };
    assert.equal(manifest.allowScripts?.["core-js"], false);
  });
});
