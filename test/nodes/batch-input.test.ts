import assert from "node:assert/strict";
import type { NodeMessage } from "node-red";
import { Collector, QUIET_MS, TAB, helper, loadFlow, ownStatusCalls, settle, useNodeRed, type FlowNode } from "../support/node-red";
import { waitUntil } from "../support/wait-until";

/** The batch node's messages go through the input wrapper every node shares (src/nodes/lib/shell/operation-node.ts). */
describe("nodes: morelogin-batch, a message in the shared input wrapper", () => {
  useNodeRed();

  const flow: FlowNode[] = [
    { id: TAB, type: "tab", label: "test" },
    { id: "b1", type: "morelogin-batch", z: TAB, parallel: "1", wires: [["items"], ["progress"]] },
    { id: "items", z: TAB, type: "helper" },
    { id: "progress", z: TAB, type: "helper" },
    { id: "catch1", z: TAB, type: "catch", scope: null, uncaught: false, wires: [["caught"]] },
    { id: "caught", z: TAB, type: "helper" },
    { id: "complete1", z: TAB, type: "complete", scope: ["b1"], uncaught: false, wires: [["completed"]] },
    { id: "completed", z: TAB, type: "helper" },
  ];

  it("one it cannot take ends with one error and leaves the node's status to the batch", async () => {
    await loadFlow(flow);
    const caught = new Collector("caught");
    const completed = new Collector("completed");
    const batch = helper.getNode("b1");
    // The batch shows its status once its journal is open and the flows have started.
    await waitUntil(() => ownStatusCalls(batch).length > 0, "the batch's first status");
    const statusesBefore = ownStatusCalls(batch).length;
    batch.receive({ payload: "not a list" } as NodeMessage);
    const [failed] = await caught.next(1);
    assert.match(String((failed?.error as { message?: unknown } | undefined)?.message), /^batch failed: msg\.payload must be an array/);
    // Time for a second outcome, which must not come.
    await settle(QUIET_MS);
    assert.equal(caught.messages.length, 1, "one error");
    assert.equal(completed.messages.length, 0, "and no done()");
    assert.deepEqual(ownStatusCalls(batch).slice(statusesBefore), [], "no status of its own for the message (no 'requesting', no 'failed')");
  });

  it("a list whose msg.morelogin is not an object: its items carry msg.morelogin.batch, not the value's characters", async () => {
    await loadFlow(flow);
    const items = new Collector("items");
    helper.getNode("b1").receive({ payload: ["p1"], morelogin: "mine" } as NodeMessage);
    const [item] = await items.next(1);
    const info = (item as { morelogin?: Record<string, unknown> } | undefined)?.morelogin;
    assert.equal((info?.batch as { item?: unknown } | undefined)?.item, "p1");
    assert.deepEqual(Object.keys(info ?? {}), ["batch"], `msg.morelogin: ${JSON.stringify(info)}`);
  });
});
