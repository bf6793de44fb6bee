import assert from "node:assert/strict";
import type { NodeMessage } from "node-red";
import { Collector, TAB, helper, loadFlow, useNodeRed, type FlowNode } from "../support/node-red";
import { waitUntil } from "../support/wait-until";

interface Summary {
  done: number;
  timedOut: number;
  failures: Array<{ id: string; attempt: number; error: string }>;
}

describe("nodes: morelogin-batch, an item back after its timeout", () => {
  useNodeRed();

  it("is counted timed out once; its late return is ignored", async () => {
    const flow: FlowNode[] = [
      { id: TAB, type: "tab", label: "test" },
      { id: "b1", type: "morelogin-batch", z: TAB, parallel: "1", itemTimeout: "0.2", wires: [["items"], ["progress"]] },
      { id: "items", z: TAB, type: "helper" },
      { id: "progress", z: TAB, type: "helper" },
    ];
    await loadFlow(flow);
    const items = new Collector("items");
    const progress = new Collector("progress");
    const batch = helper.getNode("b1");
    batch.receive({ payload: ["slow", "quick"] } as NodeMessage);
    // "quick" goes out only once "slow" has timed out (one at a time).
    const [slow, quick] = await items.next(2);
    assert.equal(quick?.topic, "quick");
    batch.receive(slow as NodeMessage);
    batch.receive(quick as NodeMessage);
    await waitUntil(() => progress.messages.some((msg) => msg.topic === "done"), "the done summary");
    const summary = progress.messages.find((msg) => msg.topic === "done")?.payload as Summary;
    assert.deepEqual({ done: summary.done, timedOut: summary.timedOut }, { done: 1, timedOut: 1 });
    assert.deepEqual(summary.failures, [{ id: "slow", attempt: 1, error: "timed out after 0.2 s" }]);
    assert.equal(items.messages.length, 2, "nothing sent again");
  });
});
