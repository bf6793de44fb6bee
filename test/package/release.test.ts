import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT, packFreshCopy } from "../../tools/sandbox";

interface Manifest {
  main: string;
  types: string;
  bin: Record<string, string>;
  "node-red": { nodes: Record<string, string> };
}

/** Every file package.json names: what Node-RED, `require` and the `morelogin-emulator` command load. */
function namedFiles(manifest: Manifest): string[] {
  const nodes = Object.values(manifest["node-red"].nodes);
  return [manifest.main, manifest.types, ...Object.values(manifest.bin), ...nodes, ...nodes.map((file) => file.replace(/\.js$/, ".html"))].map((file) => file.replace(/^\.\//, ""));
}

describe("package: a release packed from a fresh clone", function () {
  this.timeout(120_000);
  let work: string;

  before(() => {
    work = mkdtempSync(join(tmpdir(), "morelogin-release-"));
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  it("builds before packing, so the tarball holds every file package.json names", async () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as Manifest;
    const { files } = await packFreshCopy(work);
    const named = namedFiles(manifest);
    assert.ok(named.length > 30, "package.json names the nodes, main, types and the emulator command");
    assert.deepEqual(
      named.filter((file) => !files.includes(file)),
      [],
      "files package.json names that `npm pack` in a fresh clone leaves out",
    );
  });
});
