import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";

/** The node binary and Node-RED that tools/test-all.ts names for the node22 and node24 groups; unset in the main run (this node, the project's Node-RED 4). */
export const nodeBinary = process.env.MORELOGIN_COMPAT_NODE || undefined;
export const redJs = process.env.MORELOGIN_COMPAT_RED || undefined;

function nodeRedVersion(): string {
  const manifest = redJs ? join(dirname(redJs), "package.json") : require.resolve("node-red/package.json");
  return (JSON.parse(readFileSync(manifest, "utf8")) as { version: string }).version;
}

function nodeVersion(): string {
  return nodeBinary ? execFileSync(nodeBinary, ["--version"], { encoding: "utf8" }).trim() : process.version;
}

/** What the packaged Node-RED runs on, for test names: "Node-RED 5.0.7 on Node v24.9.0". */
export const runtimeLabel = `Node-RED ${nodeRedVersion()} on Node ${nodeVersion()}`;
