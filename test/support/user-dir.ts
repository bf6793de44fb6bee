import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../../tools/sandbox";

/**
 * A Node-RED user folder, `<work>/user`, with this checkout (built in dist/) linked in as
 * node-red-contrib-morelogin: what `npm install <folder>` gives a developer, without installing.
 * Returns the folder, for `startNodeRed({ userDir })`.
 */
export function linkedUserDir(work: string, name: string): string {
  const userDir = join(work, "user");
  mkdirSync(join(userDir, "node_modules"), { recursive: true });
  writeFileSync(join(userDir, "package.json"), JSON.stringify({ name, private: true, dependencies: { "node-red-contrib-morelogin": `file:${ROOT}` } }));
  symlinkSync(ROOT, join(userDir, "node_modules", "node-red-contrib-morelogin"), "dir");
  return userDir;
}
