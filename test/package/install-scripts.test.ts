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
/**
 * The npm that runs this test (npm test, npx mocha): npm_execpath. Not the `npm` on PATH, which under
 * npm is node_modules/.bin's, Node-RED's own npm 10, which has no allowScripts.
 */
const NPM_CLI = process.env.npm_execpath;

describe("npm install: no install-scripts warning", () => {
  it("every install script of the dependency tree is reviewed, and core-js's is denied", async function () {
    const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { allowScripts?: Record<string, boolean> };
    assert.equal(manifest.allowScripts?.["core-js"], false);
    if (!NPM_CLI) {
      console.log("    not run through npm (no npm_execpath): the install scripts were not listed");
      this.skip();
    }
    const { stdout: version } = await run(process.execPath, [NPM_CLI, "--version"], { cwd: ROOT });
    if (Number(version.split(".")[0]) < 11) {
      console.log(`    npm ${version.trim()} has no allowScripts, and prints no install-scripts warning`);
      this.skip();
    }
    const { stdout, stderr } = await run(process.execPath, [NPM_CLI, "install-scripts", "ls"], { cwd: ROOT, maxBuffer: 4 * 1024 * 1024 });
    assert.match(`${stdout}${stderr}`, /No packages with unreviewed install scripts/);
  });
});
