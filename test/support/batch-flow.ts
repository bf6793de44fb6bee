/** Flows around a morelogin-batch node in a real Node-RED process, and what they report to a recorder. */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Emulator } from "../../src/emulator";
import { CAPPED_CONFIG_ID, ROOT, loadExamples, startNodeRed, type FlowNode, type RunningNodeRed } from "../../tools/sandbox";
import type { Recorder } from "./recorder";
import { nodeBinary, redJs } from "./runtime";
import type { BatchProgress } from "../../src/batch/progress";

/**
 * A user folder with the package (built in dist/) linked in, as `npm install <folder>` gives a developer,
 * and with `dashboard`, this repository's Dashboard 2 linked in too, as the palette would install it.
 */
export function batchUserDir(prefix: string, options: { dashboard?: boolean } = {}): string {
  const work = mkdtempSync(join(tmpdir(), prefix));
  const userDir = join(work, "user");
  mkdirSync(join(userDir, "node_modules", "@flowfuse"), { recursive: true });
  writeFileSync(join(userDir, "package.json"), JSON.stringify({ name: "batch-test", private: true }));
  symlinkSync(ROOT, join(userDir, "node_modules", "node-red-contrib-morelogin"), "dir");
  if (options.dashboard) symlinkSync(join(ROOT, "node_modules", "@flowfuse", "node-red-dashboard"), join(userDir, "node_modules", "@flowfuse", "node-red-dashboard"), "dir");
  return work;
}

export const BATCH_DASHBOARD = "16 Batch dashboard";

/** Example 16 as the tests deploy it: its tab, its nodes, and the config nodes it names (the capped MoreLogin one pointing at the emulator). */
export function batchDashboardFlow(emulator: Emulator): FlowNode[] {
  const examples = loadExamples({ localUrl: emulator.localUrl, openUrl: emulator.openUrl });
  const nodes = examples.byExample.get(BATCH_DASHBOARD);
  assert.ok(nodes, `the example "${BATCH_DASHBOARD}" exists`);
  const tab = examples.flows.find((node) => node.type === "tab" && node.label === BATCH_DASHBOARD);
  assert.ok(tab);
  const configs = examples.flows.filter((node) => node.z === undefined && node.type !== "tab" && (node.id === CAPPED_CONFIG_ID || !node.type.startsWith("morelogin-")));
  return [tab, ...nodes, ...configs.map((node) => (node.id === CAPPED_CONFIG_ID ? { ...node, localUrl: emulator.localUrl, openUrl: emulator.openUrl } : node))];
}

/**
 * Node-RED with its `localfilesystem` context store as the default (what the batch keeps), and a
 * `memoryOnly` store for the test flow's own bookkeeping (the held items, gone with the process).
 */
export function startWithFileContext(work: string, port?: number): Promise<RunningNodeRed> {
  const contextStorage = { default: { module: "localfilesystem" }, memoryOnly: { module: "memory" } };
  return startNodeRed({ userDir: join(work, "user"), port, node: nodeBinary, redJs, settings: { contextStorage } });
}

/** A message to the flow's `/<prefix>/in` endpoint: its JSON body becomes the message sent to the batch node. */
export async function sendIn(nodeRed: RunningNodeRed, prefix: string, body: Record<string, unknown>): Promise<void> {
  const response = await fetch(`${nodeRed.url}/${prefix}/in`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  if (!response.ok) throw new Error(`/${prefix}/in: HTTP ${response.status}`);
}

/** Sends the items the flow's `hold` node holds back to the batch node (all of them, or those named). */
export async function release(nodeRed: RunningNodeRed, prefix: string, topics?: string[]): Promise<void> {
  const response = await fetch(`${nodeRed.url}/${prefix}/release`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ topics: topics ?? null }) });
  if (!response.ok) throw new Error(`/${prefix}/release: HTTP ${response.status}`);
}

export interface Reported {
  /** Items as they went out: `topic#attempt`. */
  out: string[];
  /** Output 2's messages, each with the flow's log of items out (in order) when it was sent. */
  progress: Array<{ topic: string; payload: BatchPayload; log: string[] }>;
  /** The batch node's errors, as Catch nodes see them. */
  errors: string[];
  status: Array<{ fill?: string; shape?: string; text?: string }>;
}

/** Output 2's `msg.payload` as the recorder got it: the node's own progress type, read back from JSON. */
export type BatchPayload = BatchProgress;

/** What the flows with this prefix reported to the recorder, in the order it arrived. */
export function reported(recorder: Recorder, prefix: string): Reported {
  const of = (path: string): unknown[] => recorder.requests.filter((request) => request.url === `/${prefix}/${path}`).map((request) => JSON.parse(request.body) as unknown);
  return {
    out: of("out") as string[],
    progress: of("progress") as Reported["progress"],
    status: of("status") as Reported["status"],
    errors: of("error") as string[],
  };
}

export function doneOf(report: Reported): BatchPayload[] {
  return report.progress.filter((message) => message.topic === "done").map((message) => message.payload);
}

const post = (id: string, z: string, url: string): FlowNode => ({ id, type: "http request", z, method: "POST", ret: "txt", paytoqs: "ignore", url, wires: [[]] });
const fn = (id: string, z: string, func: string, wires: string[][], extra: Record<string, unknown> = {}): FlowNode => ({
  id,
  type: "function",
  z,
  func,
  outputs: wires.length,
  noerr: 0,
  initialize: "",
  finalize: "",
  libs: [],
  wires,
  ...extra,
});

export interface BatchFlowOptions {
  prefix: string;
  /** The batch node's properties. */
  batch: Record<string, unknown>;
  /** The ids of the nodes the item messages go through, first to last; the last one is wired back. Default: the hold node alone. */
  work?: (ids: { z: string; back: string }) => FlowNode[];
  /** The first node of `work` (default: the hold node). */
  first?: string;
}

/** `work` for batchFlow: each item goes through a start node (`<prefix>-start`, give it as `first`) and a close node, on config node "server". */
export const startCloseWork =
  (p: string) =>
  ({ z, back }: { z: string; back: string }): FlowNode[] => [
    { id: `${p}-start`, type: "morelogin-start-profile", z, server: "server", wires: [[`${p}-close`]] },
    { id: `${p}-close`, type: "morelogin-close-profile", z, server: "server", wires: [[back]] },
  ];

/**
 * One tab: `POST /<prefix>/in` → batch; output 1 → (each item reported to `/out`) → the work → back into
 * the batch, and a Catch of the tab back in too; output 2 → `/progress`; the batch's status → `/status`.
 * Without `work`, items wait in a `hold` node until `POST /<prefix>/release` sends them back.
 */
export function batchFlow(recorderUrl: string, options: BatchFlowOptions): FlowNode[] {
  const p = options.prefix;
  const z = `${p}-tab`;
  const batch = `${p}-batch`;
  const back = batch;
  const work = options.work?.({ z, back }) ?? [];
  const first = options.first ?? `${p}-hold`;
  return [
    { id: z, type: "tab", label: p },
    { id: `${p}-in`, type: "http in", z, url: `/${p}/in`, method: "post", upload: false, wires: [[`${p}-ok`, `${p}-unwrap`]] },
    { id: `${p}-ok`, type: "http response", z, statusCode: "200", headers: {}, wires: [] },
    fn(`${p}-unwrap`, z, "const body = msg.payload; return Object.assign({}, body);", [[batch]]),
    { id: batch, type: "morelogin-batch", z, name: "", ...options.batch, wires: [[`${p}-note`], [`${p}-progress`]] },
    // Each item as it goes out: to the recorder, and in order in the flow's log (sent with every progress message).
    fn(
      `${p}-note`,
      z,
      "const b = msg.morelogin.batch; const entry = msg.topic + '#' + b.attempt; const log = flow.get('log', 'memoryOnly') || []; log.push(entry); flow.set('log', log, 'memoryOnly'); return [msg, { payload: JSON.stringify(entry) }];",
      [[first], [`${p}-post-out`]],
    ),
    post(`${p}-post-out`, z, `${recorderUrl}/${p}/out`),
    fn(`${p}-progress`, z, "return { payload: JSON.stringify({ topic: msg.topic, payload: msg.payload, log: (flow.get('log', 'memoryOnly') || []).slice() }) };", [[`${p}-post-progress`]]),
    post(`${p}-post-progress`, z, `${recorderUrl}/${p}/progress`),
    { id: `${p}-status`, type: "status", z, scope: [batch], wires: [[`${p}-status-json`]] },
    fn(`${p}-status-json`, z, "return { payload: JSON.stringify(msg.status) };", [[`${p}-post-status`]]),
    post(`${p}-post-status`, z, `${recorderUrl}/${p}/status`),
    { id: `${p}-catch`, type: "catch", z, scope: null, uncaught: false, wires: [[back]] },
    // The batch node's own errors, reported.
    { id: `${p}-catch-batch`, type: "catch", z, scope: [batch], uncaught: false, wires: [[`${p}-error-json`]] },
    fn(`${p}-error-json`, z, "return { payload: JSON.stringify(msg.error.message) };", [[`${p}-post-error`]]),
    post(`${p}-post-error`, z, `${recorderUrl}/${p}/error`),
    // Items held until released: in the function's context, emptied when it starts (a restart ends them).
    fn(`${p}-hold`, z, "const held = flow.get('held', 'memoryOnly') || []; held.push(msg); flow.set('held', held, 'memoryOnly'); return null;", [[back]], {}),
    { id: `${p}-release`, type: "http in", z, url: `/${p}/release`, method: "post", upload: false, wires: [[`${p}-release-ok`, `${p}-free`]] },
    { id: `${p}-release-ok`, type: "http response", z, statusCode: "200", headers: {}, wires: [] },
    fn(
      `${p}-free`,
      z,
      "const topics = msg.payload.topics; const held = flow.get('held', 'memoryOnly') || []; const out = held.filter(m => !topics || topics.includes(m.topic)); flow.set('held', held.filter(m => !out.includes(m)), 'memoryOnly'); node.send([out]); return null;",
      [[back]],
    ),
    ...work,
  ];
}
