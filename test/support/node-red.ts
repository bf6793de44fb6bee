import helper from "node-red-node-test-helper";
import type { Node, NodeMessage } from "node-red";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { Emulator } from "../../src/emulator";
import { translator } from "./catalog";
import { resetBeforeEach, sleep, type EmulatorReset } from "./emulator";
import { NODE_TYPES } from "./node-types";
import { OUTCOME_MS } from "./wait-until";

/** The Node-RED under test: this project's (4.x), or another one named by MORELOGIN_NODE_RED (tools/test-all.ts). */
const nodeRedDir = process.env.MORELOGIN_NODE_RED || dirname(require.resolve("node-red/package.json"));
helper.init(require.resolve(nodeRedDir));
/** Where the nodes keep their journals in these tests (`RED.settings.morelogin.stateDir`): gone with the process. */
export const stateDir = mkdtempSync(join(tmpdir(), "morelogin-state-"));
helper.settings({ morelogin: { stateDir } } as Parameters<typeof helper.settings>[0]);
process.on("exit", () => rmSync(stateDir, { recursive: true, force: true }));
const coreNode = (file: string): NodeModule => require(require.resolve(`@node-red/nodes/core/${file}`, { paths: [nodeRedDir] })) as NodeModule;

export { helper };

type NodeModule = (RED: unknown) => void;
const load = (name: string): NodeModule => require(`../../dist/nodes/${name}.js`) as NodeModule;

/** The built English catalog, which Node-RED loads for a node set and the test helper does not, read as Node-RED reads it. */
const english = translator("en-US");

/**
 * node-red-node-test-helper gives nodes a `RED._` that returns the key itself. Our nodes get the
 * runtime with the English catalog's `_`, so tests see the words a user sees.
 */
const withEnglish =
  (module: NodeModule): NodeModule =>
  (RED) =>
    module(Object.create(RED as object, { _: { value: english } }));

/** The compiled node files, exactly as Node-RED loads them from dist/. */
export const NODE_MODULES = NODE_TYPES.map(load).map(withEnglish);

export const catchNode = coreNode("common/25-catch.js");
export const completeNode = coreNode("common/24-complete.js");
export const joinNode = coreNode("sequence/17-split.js");
export const httpRequestNode = coreNode("network/21-httprequest.js");
export const functionNode = coreNode("function/10-function.js");
export const changeNode = coreNode("function/15-change.js");
export const injectNode = coreNode("common/20-inject.js");
export const httpInNode = coreNode("network/21-httpin.js");
export const fileNode = coreNode("storage/10-file.js");
export const csvNode = coreNode("parsers/70-CSV.js");
export const switchNode = coreNode("function/10-switch.js");

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
 * "caught" helper, a Complete node (for the node under test) wired to a "completed" helper, and the
 * config node.
 */
export function flowWith(emulator: Emulator, node: Record<string, unknown>, config: Record<string, unknown> = {}): FlowNode[] {
  return [
    { id: TAB, type: "tab", label: "test" },
    configNode(emulator, config),
    { id: "n1", type: "", z: TAB, server: CONFIG_ID, wires: [["out"]], ...node },
    { id: "out", z: TAB, type: "helper" },
    { id: "catch1", z: TAB, type: "catch", scope: null, uncaught: false, wires: [["caught"]] },
    { id: "caught", z: TAB, type: "helper" },
    { id: "complete1", z: TAB, type: "complete", scope: ["n1"], uncaught: false, wires: [["completed"]] },
    { id: "completed", z: TAB, type: "helper" },
  ];
}

export async function loadFlow(flow: FlowNode[], credentials: Record<string, Record<string, string>> = {}): Promise<void> {
  await helper.load([...NODE_MODULES, catchNode, completeNode, joinNode, httpRequestNode] as never, flow as never, credentials as never);
}

/** Collects messages arriving at a helper node. */
export class Collector {
  readonly messages: NodeMessage[] = [];
  private waiters: Array<{ count: number; resolve: (messages: NodeMessage[]) => void }> = [];

  constructor(readonly nodeId: string) {
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
  next(count = 1, ms = OUTCOME_MS): Promise<NodeMessage[]> {
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

/**
 * A quiet period on purpose, the one fixed pause a test may take: waits `ms` so that what must NOT happen
 * (a second outcome of a message, a request sent again, a poll after a redeploy) has the time to show,
 * as no event can say it did not. What does happen is waited for instead: queued deliveries with
 * drainDeliveries(), messages with a Collector, a state with waitUntil (test/support/wait-until.ts).
 */
export function settle(ms: number): Promise<void> {
  return sleep(ms);
}

export type Msg = NodeMessage & Record<string, unknown>;

/** Everything that came of one message sent to the node under test. */
export interface Outcome {
  /** Every message that reached "out", extra ones included. */
  out: Msg[];
  /** Every message the Catch node passed on (the node ended the message with done(err)). */
  caught: Msg[];
  /** Every message the Complete node passed on (the node ended the message with done()). */
  completed: Msg[];
  /** Every message that reached each helper node of the flow, by the helper's id. */
  received: Record<string, Msg[]>;
  /** The node under test ("n1"). */
  node: Node;
}

/** How long the flow must go without a new message before it counts as quiet (only with `quiet`). */
export const QUIET_MS = 100;

/** Lets every message delivery Node-RED has already queued (each is a setImmediate) run. */
export async function drainDeliveries(): Promise<void> {
  for (let turn = 0; turn < 3; turn++) await new Promise((resolve) => setImmediate(resolve));
}

/**
 * Loads the flow (one made by flowWith, maybe with more nodes), sends `input` to the node under test
 * and waits until the node has ended the message (with done() or done(err)): its one outcome, seen at
 * the Complete or Catch node. What the node sent before it ended the message has arrived by then
 * (Node-RED delivers in order). With `quiet`, for a test about a node sending one message too many or
 * ending a message twice, it then also waits until no new message reaches any helper node for QUIET_MS.
 */
export async function sendAndCollect(
  flow: FlowNode[],
  input: Record<string, unknown>,
  credentials: Record<string, Record<string, string>> = {},
  ms = OUTCOME_MS,
  options: { quiet?: boolean } = {},
): Promise<Outcome> {
  await loadFlow(flow, credentials);
  const collectors = flow.filter((node) => node.type === "helper").map((node) => new Collector(node.id));
  const received = Object.fromEntries(collectors.map((collector) => [collector.nodeId, collector.messages as Msg[]]));
  const at = (id: string): Msg[] => received[id] ?? [];
  const node = helper.getNode("n1");
  node.receive(input as NodeMessage);
  const deadline = Date.now() + ms;
  while (at("completed").length + at("caught").length === 0) {
    if (Date.now() > deadline) throw new Error(`the node did not end the message within ${ms} ms (${at("out").length} message(s) out)`);
    await sleep(10);
  }
  await drainDeliveries();
  const arrived = (): number => collectors.reduce((sum, collector) => sum + collector.messages.length, 0);
  if (options.quiet) {
    for (let seen = -1; seen !== arrived(); ) {
      seen = arrived();
      await sleep(QUIET_MS);
    }
  }
  return { out: at("out"), caught: at("caught"), completed: at("completed"), received, node };
}

/** sendAndCollect with the usual flow: `node` (the node under test) in flowWith, with the emulator's credentials. */
export function sendTo(
  emulator: Emulator,
  node: Record<string, unknown>,
  input: Record<string, unknown>,
  options: { config?: Record<string, unknown>; credentials?: Record<string, string>; quiet?: boolean } = {},
): Promise<Outcome> {
  return sendAndCollect(flowWith(emulator, node, options.config), input, credentialsFor(emulator, options.credentials), OUTCOME_MS, { quiet: options.quiet });
}

export function statusCalls(node: Node): Array<{ fill?: string; shape?: string; text?: string }> {
  const spy = (node.status as unknown as { args: unknown[][] }).args;
  return spy.map((args) => args[0] as { fill?: string; shape?: string; text?: string });
}

/**
 * The statuses `node` itself set, in order. (The helper spies on the nodes' shared prototype, so
 * statusCalls gives the statuses of every node in the flow.)
 */
export function ownStatusCalls(node: Node): Array<{ fill?: string; shape?: string; text?: string }> {
  const calls = (node.status as unknown as { getCalls(): Array<{ thisValue: unknown; args: unknown[] }> }).getCalls();
  return calls.filter((call) => call.thisValue === node).map((call) => call.args[0] as { fill?: string; shape?: string; text?: string });
}

/**
 * A suite's Node-RED runtime: started before its tests, stopped after them, its flows unloaded after
 * each test; with `emulator`, the emulator's counters are reset before each test, and then `reset` runs.
 * Hooks the suite registers after this call run after these.
 */
export function useNodeRed(emulator?: () => Emulator, reset?: EmulatorReset): void {
  before((done) => {
    helper.startServer(done);
  });
  after((done) => {
    helper.stopServer(done);
  });
  if (emulator) resetBeforeEach(emulator, reset);
  afterEach(async () => {
    await helper.unload();
    // The journals the test's nodes kept (leases, batches) go with it: config node IDs repeat from test to
    // test and file to file in one mocha worker, and a lease another test left would show in this one's status.
    for (const entry of readdirSync(stateDir)) rmSync(join(stateDir, entry), { recursive: true, force: true });
  });
}
