/**
 * A real Node-RED runtime in this process (node-red-node-test-helper's runtime) with the compiled
 * nodes from dist/nodes and the core nodes the flows need (http request, split, catch). Each measured
 * node is wired to one collector node; `run(nodeId, msg, expected)` resolves when that message's
 * outputs have all arrived there.
 */
import type { Node, NodeAPI, NodeMessage } from "node-red";
import { Pool } from "undici";
import { CONFIG_ID, NODE_MODULES, TAB, catchNode, helper, httpRequestNode, joinNode, type FlowNode } from "../test/support/node-red";
import { PAGE_PATH } from "./raw-undici";

interface Waiter {
  expected: number;
  received: number;
  resolve: () => void;
  reject: (error: Error) => void;
}

export interface EmulatorAddress {
  localUrl: string;
  openUrl: string;
  apiId: string;
  apiKey: string;
}

/**
 * The config node's pacing in the benchmark: off. Since 0.2 a config node lets at most 120 requests a
 * minute through to each API by default (MoreLogin's documented limit) and 5 profile starts at once.
 * The per-request, cold-start and all-pages figures measure what our code costs per call against an
 * emulator without a rate limit, as before 0.2; at 120 a minute the 3,000 calls of one round alone
 * would take 25 minutes. The rate-limited phases set their own pacing.
 */
export const NO_PACING = { localRpm: "0", openRpm: "0", concurrency: "0" } as const;

/** One morelogin-config node of the benchmark flow: its id, the emulator it talks to, its properties. */
export interface BenchConfig {
  id: string;
  emulator: EmulatorAddress;
  /** Properties laid over NO_PACING (the editor saves numbers as strings). */
  settings?: Record<string, string>;
}

/**
 * `bench-floor`: the least any node can do for this call — undici `request()` on a keep-alive pool,
 * the JSON reply parsed, `msg.payload` set, sent on. What it costs over raw undici is what the
 * Node-RED runtime itself costs per message (input event, send, asynchronous delivery to the next
 * node), the floor no node can go under.
 */
function floorNodeModule(RED: NodeAPI): void {
  function FloorNode(this: Node, def: { url: string }): void {
    RED.nodes.createNode(this, def as never);
    const pool = new Pool(def.url, { connections: 128, keepAliveTimeout: 10_000 });
    this.on("input", (msg: NodeMessage, send: (msg: NodeMessage) => void, done: (error?: Error) => void) => {
      pool
        .request({ path: PAGE_PATH, method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(msg.payload) })
        .then((response) => response.body.json())
        .then((reply) => {
          msg.payload = (reply as { data: unknown }).data;
          send(msg);
          done();
        }, done);
    });
    this.on("close", (_removed: boolean, closed: () => void) => {
      pool.destroy().then(closed, closed);
    });
  }
  RED.nodes.registerType("bench-floor", FloorNode as never);
}

export class BenchRuntime {
  private waiters = new Map<number, Waiter>();
  private nextId = 0;

  /** A runtime with one config node (`config1`, pacing off) for `emulator`. */
  static start(emulator: EmulatorAddress, nodes: FlowNode[]): Promise<BenchRuntime> {
    return BenchRuntime.startWith([{ id: CONFIG_ID, emulator }], nodes);
  }

  /** A runtime with the given config nodes, each pointing at its own emulator, and any node types of the phase's own. */
  static async startWith(configs: BenchConfig[], nodes: FlowNode[], extraModules: Array<(RED: NodeAPI) => void> = []): Promise<BenchRuntime> {
    await new Promise<void>((resolve) => helper.startServer(resolve));
    // A flow with Catch nodes of its own (an example's) keeps them, and gets no catch-all: the test
    // helper loads a core node's module once for each node of its type, and "catch" twice fails.
    const ownCatch = nodes.some((node) => node.type === "catch");
    const flow: FlowNode[] = [
      { id: TAB, type: "tab", label: "bench" },
      ...configs.map(({ id, emulator, settings }) => ({ id, type: "morelogin-config", name: `emulator ${id}`, localUrl: emulator.localUrl, openUrl: emulator.openUrl, ...NO_PACING, ...settings })),
      ...nodes.map((node) => ({ z: TAB, wires: [["collect"]], ...node })),
      { id: "collect", z: TAB, type: "helper" },
      ...(ownCatch
        ? []
        : [
            { id: "catch1", z: TAB, type: "catch", scope: null, uncaught: false, wires: [["failed"]] },
            { id: "failed", z: TAB, type: "helper" },
          ]),
    ];
    const modules = [...NODE_MODULES, catchNode, joinNode, httpRequestNode, floorNodeModule, ...extraModules];
    const credentials = Object.fromEntries(configs.map(({ id, emulator }) => [id, { apiId: emulator.apiId, apiKey: emulator.apiKey }]));
    await helper.load(modules as never, flow as never, credentials as never);
    // The test helper wraps Node.prototype's send/status/log/error in sinon spies that record every
    // call for assertions, each with an Error for its call stack that keeps the message alive. A
    // user's Node-RED has none of that, so the benchmark removes them once the flow is loaded. The
    // runtime also copied the spied `send` onto every node with wires (Node.updateWires sets
    // `this.send = Node.prototype.send`), so each node's wires are set again after the restore;
    // otherwise every message keeps going through the spy (measured: 2-3x the CPU per message and
    // about 5 KB of heap kept per message, for ever).
    const instrumented = helper as unknown as { _sandbox?: { restore(): void }; _logSpy?: { restore(): void } };
    instrumented._sandbox?.restore();
    instrumented._logSpy?.restore();
    for (const node of flow) {
      const live = helper.getNode(node.id) as (Node & { wires?: string[][]; updateWires?(wires: string[][]): void }) | null;
      if (live?.updateWires) live.updateWires(live.wires ?? []);
    }
    if ((helper.getNode("collect") as unknown as { send: { args?: unknown } }).send.args !== undefined) {
      throw new Error("the test helper's send spy is still in place: figures would include it");
    }
    const runtime = new BenchRuntime();
    helper.getNode("collect").on("input", (msg: NodeMessage & { benchId?: number }) => runtime.arrived(msg.benchId));
    helper.getNode("failed")?.on("input", (msg: NodeMessage & { benchId?: number; error?: { message?: string } }) => runtime.failed(msg.benchId, msg.error?.message));
    return runtime;
  }

  /** Hands `msg` to the node as an upstream wire would, and waits for its `expected` outputs. */
  run(nodeId: string, msg: Record<string, unknown>, expected = 1): Promise<void> {
    const benchId = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiters.set(benchId, { expected, received: 0, resolve, reject });
      helper.getNode(nodeId).receive({ ...msg, benchId } as NodeMessage);
    });
  }

  async stop(): Promise<void> {
    for (const waiter of this.waiters.values()) waiter.reject(new Error("the runtime stopped"));
    this.waiters.clear();
    await helper.unload();
    await new Promise<void>((resolve) => helper.stopServer(resolve));
  }

  private arrived(benchId: number | undefined): void {
    if (benchId === undefined) return;
    const waiter = this.waiters.get(benchId);
    if (!waiter) return;
    waiter.received++;
    if (waiter.received >= waiter.expected) {
      this.waiters.delete(benchId);
      waiter.resolve();
    }
  }

  private failed(benchId: number | undefined, message: string | undefined): void {
    if (benchId === undefined) return;
    const waiter = this.waiters.get(benchId);
    this.waiters.delete(benchId);
    waiter?.reject(new Error(message ?? "failed"));
  }
}
