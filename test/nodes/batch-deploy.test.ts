import assert from "node:assert/strict";
import type { NodeMessage } from "node-red";
import { Collector, TAB, helper, loadFlow, useNodeRed, type FlowNode } from "../support/node-red";
import { waitUntil } from "../support/wait-until";

interface Summary {
  total: number;
  done: number;
  interrupted: number;
}

/**
 * Node-RED's default context store (memory, none configured): Node-RED deletes a node's context when the
 * node stops, yet a deploy that restarts the batch node must not lose the batch.
 */
describe("nodes: morelogin-batch across a full deploy, without a persistent context store", () => {
  useNodeRed();

  it("picks the batch up where it was: the item out is interrupted, the others are sent, none twice", async () => {
    const flow: FlowNode[] = [
      { id: TAB, type: "tab", label: "test" },
      { id: "b1", type: "morelogin-batch", z: TAB, parallel: "1", wires: [["items"], ["progress"]] },
      { id: "items", z: TAB, type: "helper" },
      { id: "progress", z: TAB, type: "helper" },
    ];
    await loadFlow(flow);
    let items = new Collector("items");
    helper.getNode("b1").receive({ payload: ["a", "b", "c"] } as NodeMessage);
    const [first] = await items.next(1);
    assert.equal(first?.topic, "a");

    // A full deploy restarts every node: "a" is out and its message is gone.
    await helper.setFlows(flow, "full");
    items = new Collector("items");
    const progress = new Collector("progress");
    const sent: string[] = [];
    const back = (msg: NodeMessage): void => {
      sent.push(String(msg.topic));
      helper.getNode("b1").receive(msg);
    };
    await items.next(1);
    back(items.messages[0] as NodeMessage);
    await items.next(2);
    back(items.messages[1] as NodeMessage);
    await waitUntil(() => progress.messages.some((msg) => msg.topic === "done"), "the done summary");
    assert.deepEqual(sent, ["b", "c"], "a is not sent again; b and c are");
    const summary = progress.messages.find((msg) => msg.topic === "done")?.payload as Summary;
    assert.deepEqual({ total: summary.total, done: summary.done, interrupted: summary.interrupted }, { total: 3, done: 2, interrupted: 1 });
  });
});
