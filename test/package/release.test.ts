import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, realpathSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT, packFreshCopy } from "../../tools/sandbox";
import { sourceFiles } from "../../tools/source-files";

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

/** The files git would put in a fresh clone, when these sources are a git checkout of their own; undefined otherwise. */
function gitFiles(): string[] | undefined {
  const git = (...args: string[]): string => execFileSync("git", args, { cwd: ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"], maxBuffer: 16 * 1024 * 1024 });
  try {
    if (realpathSync(git("rev-parse", "--show-toplevel").trim()) !== realpathSync(ROOT)) return undefined;
    const listed = git("ls-files", "--cached", "--others", "--exclude-standard", "-z").split("\0");
    // Only what is a file here: git lists a deleted tracked file, and a linked folder as one entry.
    return listed.filter((path) => path !== "" && statSync(join(ROOT, path), { throwIfNoEntry: false })?.isFile()).sort();
  } catch {
    return undefined; // no git, or not a checkout (an unpacked source archive)
  }
}

describe("package: a release packed from a fresh clone", function () {
  this.timeout(120_000);
  let work: string;

  before(() => {
    work = mkdtempSync(join(tmpdir(), "morelogin-release-"));
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  it("lists the sources from the file system, as git lists them when they are a checkout", () => {
    const listed = sourceFiles(ROOT);
    assert.ok(listed.includes("package.json") && listed.includes("src/client/index.ts"), "the sources are listed");
    assert.ok(!listed.some((path) => /^(node_modules|dist|\.git)\//.test(path)), "nothing from node_modules, dist or .git");
    const fromGit = gitFiles(); // outside a checkout there is no git listing to compare with
    if (fromGit !== undefined) assert.deepEqual(listed, fromGit, "the file system listing and git's");
  });

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
