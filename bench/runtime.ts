import type { NodeMessage } from "node-red";
import { CONFIG_ID, TAB, helper, loadFlow, type FlowNode } from "../test/support/node-red";

interface Waiter {
  expected: number;
  received: number;
  resolve: () => void;
  reject: (error: Error) => void;
}

/**
 * A real Node-RED runtime (node-red-node-test-helper) with the compiled nodes. Each measured node is
 * wired to a collector; `run(nodeId, msg, expected)` resolves when that message's outputs arrived.
 */
export class BenchRuntime {
  private waiters = new Map<number, Waiter>();
  private nextId = 0;

  static async start(config: { localUrl: string; openUrl: string; apiId: string; apiKey: string }, nodes: FlowNode[]): Promise<BenchRuntime> {
    await new Promise<void>((resolve) => helper.startServer(resolve));
    const flow: FlowNode[] = [
      { id: TAB, type: "tab" },
      { id: CONFIG_ID, type: "morelogin-config", localUrl: config.localUrl, openUrl: config.openUrl },
      ...nodes.map((node) => ({ z: TAB, wires: [["collect"]], ...node })),
      { id: "collect", z: TAB, type: "helper" },
      { id: "catch1", z: TAB, type: "catch", scope: null, uncaught: false, wires: [["failed"]] },
      { id: "failed", z: TAB, type: "helper" },
    ];
    await loadFlow(flow, { [CONFIG_ID]: { apiId: config.apiId, apiKey: config.apiKey } });
    // The test helper wraps Node.prototype's send/status/log in sinon spies that record every call;
    // a user's Node-RED has none of that, so the benchmark measures the runtime without them.
    const instrumented = helper as unknown as { _sandbox?: { restore(): void }; _logSpy?: { restore(): void } };
    instrumented._sandbox?.restore();
    instrumented._logSpy?.restore();
    const runtime = new BenchRuntime();
    helper.getNode("collect").on("input", (msg: NodeMessage & { benchId?: number }) => runtime.arrived(msg.benchId));
    helper.getNode("failed").on("input", (msg: NodeMessage & { benchId?: number; error?: { message?: string } }) => runtime.failed(msg.benchId, msg.error?.message));
    return runtime;
  }

  run(nodeId: string, msg: Record<string, unknown>, expected = 1): Promise<void> {
    const benchId = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiters.set(benchId, { expected, received: 0, resolve, reject });
      helper.getNode(nodeId).receive({ ...msg, benchId } as NodeMessage);
    });
  }

  async stop(): Promise<void> {
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
