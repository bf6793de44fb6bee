import { homedir } from "node:os";
import { join } from "node:path";
import type { NodeAPI } from "node-red";

/**
 * Where the package keeps its journals: `RED.settings.morelogin.stateDir` when settings.js names one,
 * else `<userDir>/morelogin` (Node-RED's user directory, `~/.node-red` when it was not set).
 */
export function stateDirOf(RED: NodeAPI): string {
  const settings = RED.settings as unknown as { userDir?: unknown; morelogin?: { stateDir?: unknown } };
  const named = settings.morelogin?.stateDir;
  if (typeof named === "string" && named.trim() !== "") return named;
  const userDir = typeof settings.userDir === "string" && settings.userDir !== "" ? settings.userDir : join(homedir(), ".node-red");
  return join(userDir, "morelogin");
}

/** A node ID as a file name: Node-RED's IDs are hex, but a flow file may hold any text. */
export function fileNameOf(id: string): string {
  return id.replace(/[^A-Za-z0-9._-]/g, "_");
}
