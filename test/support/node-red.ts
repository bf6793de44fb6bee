import helper from "node-red-node-test-helper";
import type { Node, NodeMessage } from "node-red";
import { dirname } from "node:path";
import type { Emulator } from "../../src/emulator";
import { NODE_TYPES } from "./node-types";

/** The Node-RED under test: this project's (4.x), or another one named by MORELOGIN_NODE_RED (tools/compat.sh). */
const nodeRedDir = process.env.MORELOGIN_NODE_RED || dirname(require.resolve("node-red/package.json"));
helper.init(require.resolve(nodeRedDir));
const coreNode = (file: string): NodeModule => require(require.resolve(`@node-red/nodes/core/${file}`, { paths: [nodeRedDir] })) as NodeModule;

export { helper };

type NodeModule = (RED: unknown) => void;
const load = (name: string): NodeModule => require(`../../dist/nodes/${name}.js`) as NodeModule;

/** The compiled node files, exactly as Node-RED loads them from dist/. */
export const NODE_MODULES = NODE_TYPES.map(load);

export const catchNode = coreNode("common/25-catch.js");
export const joinNode = coreNode("sequence/17-split.js");
export const httpRequestNode = coreNode("network/21-httprequest.js");

export const TAB = "tab1";
export const CONFIG_ID = "config1";

export interface FlowNode {
  id: string;
  type: string;
  [property: string]: unknown;
}

export function configNode(emulator: Emulator, extra: Record<string, unknown> = {}): FlowNode {
  return { id: CONFIG_ID, type: "morelogin-config", name: "emulator", localUrl: emulator.localUrl, openUrl: emulator.openUrl, ...extra };
}

export function credentialsFor(emulator: Emulator, overrides: Record<string, string> = {}): Record<string, Record<string, string>> {
  const credentials: Record<string, string> = { apiId: emulator.credentials.apiId, apiKey: emulator.credentials.apiKey };
  if (emulator.credentials.localToken) credentials.localToken = emulator.credentials.localToken;
  return { [CONFIG_ID]: { ...credentials, ...overrides } };
}

/**
 * A flow on one tab: the operation node under test wired to an "out" helper, a Catch node wired to a
 * "caught" helper, and the config node.
 */
export function flowWith(emulator: Emulator, node: Record<string, unknown>, config: Record<string, unknown> = {}): FlowNode[] {
  return [
    { id: TAB, type: "tab", label: "test" },
    configNode(emulator, config),
    { id: "n1", type: "", z: TAB, server: CONFIG_ID, wires: [["out"]], ...node },
    { id: "out", z: TAB, type: "helper" },
    { id: "catch1", z: TAB, type: "catch", scope: null, uncaught: false, wires: [["caught"]] },
    { id: "caught", z: TAB, type: "helper" },
  ];
}

export async function loadFlow(flow: FlowNode[], credentials: Record<string, Record<string, string>> = {}): Promise<void> {
  await helper.load([...NODE_MODULES, catchNode, joinNode, httpRequestNode] as never, flow as never, credentials as never);
}

/** Collects messages arriving at a helper node. */
export class Collector {
  readonly messages: NodeMessage[] = [];
  private waiters: Array<{ count: number; resolve: (messages: NodeMessage[]) => void }> = [];

  constructor(nodeId: string) {
    const node = helper.getNode(nodeId);
    node.on("input", (msg: NodeMessage) => {
      this.messages.push(msg);
      this.waiters = this.waiters.filter((waiter) => {
        if (this.messages.length < waiter.count) return true;
        waiter.resolve(this.messages.slice());
        return false;
      });
    });
  }

  /** Resolves when `count` messages have arrived; rejects after `ms`. */
  next(count = 1, ms = 10_000): Promise<NodeMessage[]> {
    if (this.messages.length >= count) return Promise.resolve(this.messages.slice());
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`expected ${count} message(s), got ${this.messages.length}`)), ms);
      this.waiters.push({
        count,
        resolve: (messages) => {
          clearTimeout(timer);
          resolve(messages);
        },
      });
    });
  }
}

/** Lets queued message deliveries and status updates run. */
export function settle(ms = 100): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export function statusCalls(node: Node): Array<{ fill?: string; shape?: string; text?: string }> {
  const spy = (node.status as unknown as { args: unknown[][] }).args;
  return spy.map((args) => args[0] as { fill?: string; shape?: string; text?: string });
}
