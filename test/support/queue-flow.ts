/**
 * One batch flow on several real Node-RED processes sharing a queue in Redis (issue 41): the flows each
 * Node-RED gets, and what each reported to the recorder.
 */
import { hostname } from "node:os";
import type { Emulator } from "../../src/emulator";
import type { FlowNode, RunningNodeRed } from "../../tools/sandbox";
import { batchFlow, reported, type BatchPayload, type Reported } from "./batch-flow";
import type { Recorder } from "./recorder";

/** The queue's part of output 2's payload (spec of issue 41). */
export interface QueueWorker {
  name: string;
  running: number;
  done: number;
  failed: number;
}
export type QueuePayload = BatchPayload & { workers?: QueueWorker[] };

/** The `morelogin-queue` config node's properties and credentials. */
export interface QueueSettings {
  url: string;
  username?: string;
  password?: string;
  /** Seconds, as the config node keeps it. */
  workerTimeout?: string;
  worker?: string;
}

export interface QueueFlowOptions {
  /** The batch node's name, the same on every Node-RED: the queue's name in Redis. */
  batchName: string;
  /** This Node-RED's prefix (node ids, endpoints, what it reports): `<batchName>-<n>`. */
  prefix: string;
  queue: QueueSettings;
  parallel: number;
  resend?: boolean;
}

/** The MoreLogin config node every flow of these tests uses: the emulator, pacing off. */
export function serverConfig(emulator: Emulator): FlowNode {
  return { id: "server", type: "morelogin-config", name: "emulator", localUrl: emulator.localUrl, openUrl: emulator.openUrl, localRpm: "0", openRpm: "0" };
}

/**
 * A queue config node (id `<prefix>-queue`) and the batch flow of test/support/batch-flow.ts around a
 * batch node that names it. Each item goes through a gate (held until `POST /<prefix>/open`, then every
 * item passes), a start and a close of its profile on the emulator, and is reported to `/<prefix>/back`
 * as it goes back into the batch node.
 */
export function queueFlow(recorderUrl: string, options: QueueFlowOptions): FlowNode[] {
  const p = options.prefix;
  const { url, username, password, worker, workerTimeout } = options.queue;
  const queue: FlowNode = {
    id: `${p}-queue`,
    type: "morelogin-queue",
    name: options.batchName,
    url,
    worker: worker ?? "",
    workerTimeout: workerTimeout ?? "30",
    credentials: { username: username ?? "", password: password ?? "" },
  };
  const batch = { name: options.batchName, queue: queue.id, parallel: String(options.parallel), resend: options.resend ?? false };
  return [queue, ...batchFlow(recorderUrl, { prefix: p, batch, work: gatedWork(p, recorderUrl), first: `${p}-gate` })];
}

const fn = (id: string, z: string, func: string, wires: string[][]): FlowNode => ({ id, type: "function", z, func, outputs: wires.length, noerr: 0, initialize: "", finalize: "", libs: [], wires });

const gatedWork =
  (p: string, recorderUrl: string) =>
  ({ z, back }: { z: string; back: string }): FlowNode[] => [
    fn(`${p}-gate`, z, "if (flow.get('open', 'memoryOnly')) return msg; const held = flow.get('gated', 'memoryOnly') || []; held.push(msg); flow.set('gated', held, 'memoryOnly'); return null;", [
      [`${p}-start`],
    ]),
    { id: `${p}-open`, type: "http in", z, url: `/${p}/open`, method: "post", upload: false, wires: [[`${p}-open-ok`, `${p}-open-all`]] },
    { id: `${p}-open-ok`, type: "http response", z, statusCode: "200", headers: {}, wires: [] },
    fn(`${p}-open-all`, z, "flow.set('open', true, 'memoryOnly'); const held = flow.get('gated', 'memoryOnly') || []; flow.set('gated', [], 'memoryOnly'); node.send([held]); return null;", [
      [`${p}-start`],
    ]),
    { id: `${p}-start`, type: "morelogin-start-profile", z, server: "server", wires: [[`${p}-close`]] },
    { id: `${p}-close`, type: "morelogin-close-profile", z, server: "server", wires: [[`${p}-back`]] },
    fn(`${p}-back`, z, "return [msg, { payload: JSON.stringify(msg.topic) }];", [[back], [`${p}-post-back`]]),
    { id: `${p}-post-back`, type: "http request", z, method: "POST", ret: "txt", paytoqs: "ignore", url: `${recorderUrl}/${p}/back`, wires: [[]] },
  ];

/** Opens the gate of this Node-RED's flow: what it holds goes on, and every later item passes. */
export async function openGate(nodeRed: RunningNodeRed, prefix: string): Promise<void> {
  const response = await fetch(`${nodeRed.url}/${prefix}/open`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
  if (!response.ok) throw new Error(`/${prefix}/open: HTTP ${response.status}`);
}

export interface QueueReported extends Omit<Reported, "progress"> {
  /** Output 2's messages, with `workers`. */
  progress: Array<{ topic: string; payload: QueuePayload; log: string[] }>;
  /** The items that went back into the batch node, by topic, in order. */
  back: string[];
}

/** What the flow with this prefix reported to the recorder. */
export function reportedWithQueue(recorder: Recorder, prefix: string): QueueReported {
  const back = recorder.requests.filter((request) => request.url === `/${prefix}/back`).map((request) => JSON.parse(request.body) as string);
  return { ...reported(recorder, prefix), back };
}

/** A worker's default name: this machine's host name and Node-RED's port. */
export function defaultWorkerName(nodeRed: RunningNodeRed): string {
  return `${hostname()}:${new URL(nodeRed.url).port}`;
}
