/**
 * `npm start`'s Node-RED user folder, kept from one start to the next: the flows, credentials and
 * context a user made stay; only the addresses of the emulator (or desktop client) the demo points
 * at are brought up to date, in case its ports changed.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { rebase, type FlowNode } from "./sandbox";

/** What the demo's config nodes point at: the API addresses and the credentials they take. */
export interface DemoTarget {
  localUrl: string;
  openUrl: string;
  credentials: Record<string, string>;
  /** True for the emulator, whose credentials npm start chooses: config nodes pointing at it always take them. */
  emulator: boolean;
}

const FLOWS = "flows.json";
const CREDENTIALS = "flows_cred.json";
/** Beside the user folder: the addresses the saved flows were last pointed at. */
const LAST_TARGET = "last-target.json";

function readJson(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, "utf8")) as unknown;
  } catch {
    return undefined;
  }
}

/** Whether the user folder holds flows saved by an earlier start (or by the user since). */
export function hasSavedFlows(userDir: string): boolean {
  const flows = readJson(join(userDir, FLOWS));
  return Array.isArray(flows) && flows.length > 0;
}

/** Deletes the user folder (flows, credentials, context, the installed package) and what this module kept beside it. */
export function startOver(demoDir: string, userDir: string): void {
  rmSync(userDir, { recursive: true, force: true });
  rmSync(join(demoDir, LAST_TARGET), { force: true });
}

export function rememberTarget(demoDir: string, target: DemoTarget): void {
  writeFileSync(join(demoDir, LAST_TARGET), `${JSON.stringify({ localUrl: target.localUrl, openUrl: target.openUrl }, null, 2)}\n`);
}

/**
 * Before Node-RED starts on the saved flows: every setting that starts with the last start's Local or
 * Open API address (the config nodes, a browser node's demo page) takes the address of this start;
 * the config nodes that point at it take its credentials when it moved or is the emulator. Settings
 * pointing elsewhere are the user's and stay. Returns how many nodes changed their addresses.
 */
export function retargetSavedFlows(demoDir: string, userDir: string, target: DemoTarget): number {
  const last = readJson(join(demoDir, LAST_TARGET)) as { localUrl?: unknown; openUrl?: unknown } | undefined;
  const flowsFile = join(userDir, FLOWS);
  const flows = readJson(flowsFile);
  if (!Array.isArray(flows)) return 0;
  const moved = last !== undefined && (last.localUrl !== target.localUrl || last.openUrl !== target.openUrl);
  if (!moved || last === undefined) {
    if (target.emulator) updateCredentials(userDir, flows as FlowNode[], target);
    return 0;
  }
  let changed = 0;
  const retargeted = (flows as FlowNode[]).map((node) => {
    const copy: FlowNode = { ...node };
    for (const [key, value] of Object.entries(copy)) copy[key] = rebase(rebase(value, last.localUrl, target.localUrl), last.openUrl, target.openUrl);
    if (JSON.stringify(copy) !== JSON.stringify(node)) changed++;
    return copy;
  });
  writeFileSync(flowsFile, JSON.stringify(retargeted, null, 4));
  updateCredentials(userDir, retargeted, target);
  return changed;
}

/** The credentials of the config nodes that point at `target` (stored unencrypted: the demo's settings have credentialSecret false). */
function updateCredentials(userDir: string, flows: FlowNode[], target: DemoTarget): void {
  const file = join(userDir, CREDENTIALS);
  const saved = existsSync(file) ? readJson(file) : {};
  if (typeof saved !== "object" || saved === null || "$" in saved) return;
  const credentials = saved as Record<string, Record<string, string>>;
  for (const node of flows) {
    if (node.type === "morelogin-config" && node.localUrl === target.localUrl) credentials[node.id] = { ...credentials[node.id], ...target.credentials };
  }
  writeFileSync(file, JSON.stringify(credentials, null, 4));
}
