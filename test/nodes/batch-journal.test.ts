import assert from "node:assert/strict";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { NodeMessage } from "node-red";
import type { BatchProgress } from "../../src/batch";
import { commitMarker } from "../../src/journal";
import { Collector, TAB, helper, loadFlow, stateDir, useNodeRed, type FlowNode } from "../support/node-red";
import { waitUntil } from "../support/wait-until";

const JOURNAL = join(stateDir, "batch-b1.jsonl");

const flow = (props: Record<string, unknown> = {}): FlowNode[] => [
  { id: TAB, type: "tab", label: "test" },
  { id: "b1", type: "morelogin-batch", z: TAB, parallel: "1", ...props, wires: [["items"], ["progress"]] },
  { id: "items", z: TAB, type: "helper" },
  { id: "progress", z: TAB, type: "helper" },
  { id: "catch1", z: TAB, type: "catch", scope: ["b1"], uncaught: false, wires: [["caught"]] },
  { id: "caught", z: TAB, type: "helper" },
];

/** The flow on a fresh node; its collectors. */
async function load(props: Record<string, unknown> = {}): Promise<{ items: Collector; progress: Collector; caught: Collector; send: (msg: Record<string, unknown>) => void }> {
  await loadFlow(flow(props));
  return {
    items: new Collector("items"),
    progress: new Collector("progress"),
    caught: new Collector("caught"),
    send: (msg) => helper.getNode("b1").receive(msg as NodeMessage),
  };
}

const payloadOf = (msg: NodeMessage | undefined): BatchProgress => msg?.payload as BatchProgress;

/** The batch node with its journal under RED.settings.morelogin.stateDir (test/support/node-red.ts sets one). */
describe("nodes: morelogin-batch's journal and commands", () => {
  useNodeRed();
  beforeEach(() => {
    mkdirSync(stateDir, { recursive: true });
    for (const name of readdirSync(stateDir)) if (name.startsWith("batch-b1.")) writeFileSync(join(stateDir, name), "");
  });

  it("keeps the batch in <stateDir>/batch-<node id>.jsonl, and deleting the node removes it", async () => {
    const { items, send } = await load();
    send({ payload: ["a", "b"] });
    await items.next(1);
    assert.match(readFileSync(JOURNAL, "utf8"), /"items":\["a","b"\]/, "the list is in the journal");
    const withoutBatch: FlowNode[] = [{ id: TAB, type: "tab", label: "test" }];
    await helper.setFlows(withoutBatch, "full");
    await waitUntil(() => !existsSync(JOURNAL), "the journal removed with its node");
  });

  it("cancel ends the running batch and every list waiting; msg.batch narrows it to one", async () => {
    const { items, progress, send } = await load();
    send({ payload: ["a", "b"] });
    send({ payload: ["c"] });
    send({ payload: ["d"] });
    const [first] = await items.next(1);
    send({ command: "status" });
    await waitUntil(() => progress.messages.some((msg) => (payloadOf(msg).queued ?? []).length === 2), "the status lists the two lists waiting");
    const status = progress.messages.find((msg) => (payloadOf(msg).queued ?? []).length === 2);
    const [idC, idD] = payloadOf(status).queued ?? [];
    assert.ok(idC && idD);

    send({ command: "cancel", batch: idC });
    await waitUntil(() => progress.messages.some((msg) => msg.topic === "done" && payloadOf(msg).id === idC), "the done of the list cancelled by its ID");
    const doneC = payloadOf(progress.messages.find((msg) => msg.topic === "done" && payloadOf(msg).id === idC));
    assert.deepEqual({ total: doneC.total, cancelled: doneC.cancelled, done: doneC.done }, { total: 1, cancelled: 1, done: 0 });

    send({ command: "cancel" });
    await waitUntil(() => progress.messages.some((msg) => msg.topic === "done" && payloadOf(msg).id === idD), "the done of the other list waiting");
    assert.ok(first);
    send(first as Record<string, unknown>);
    await waitUntil(() => progress.messages.filter((msg) => msg.topic === "done").length === 3, "the running batch ends too");
    const running = payloadOf(progress.messages.filter((msg) => msg.topic === "done").at(-1));
    assert.deepEqual({ total: running.total, done: running.done, cancelled: running.cancelled }, { total: 2, done: 1, cancelled: 1 });
    assert.deepEqual(
      items.messages.map((msg) => msg.topic),
      ["a"],
      "b, c and d never went out",
    );
  });

  it("answers a command with nothing to act on with a progress message that says so", async () => {
    const { progress, send } = await load();
    for (const command of ["pause", "resume", "cancel", "status"]) send({ command });
    await progress.next(4);
    assert.deepEqual(
      progress.messages.map((msg) => [msg.topic, payloadOf(msg).note]),
      [
        ["progress", "no batch is running or waiting: nothing to pause"],
        ["progress", "no batch is running or waiting: nothing to resume"],
        ["progress", "no batch is running or waiting: nothing to cancel"],
        ["progress", "this node has run no batch yet"],
      ],
    );
    send({ command: "cancel", batch: "not-a-batch" });
    await progress.next(5);
    assert.equal(payloadOf(progress.messages[4]).note, "no batch not-a-batch is running or waiting");
  });

  it("takes a message carrying msg.morelogin.batch as an item coming back, whatever its payload", async () => {
    const { items, progress, caught, send } = await load();
    send({ payload: ["a"] });
    const [out] = await items.next(1);
    // An item of a batch this node does not know (ended before a restart) with an array from extract: not a new batch.
    send({ payload: [{ row: 1 }, { row: 2 }], morelogin: { batch: { id: "gone", item: "x", index: 0, total: 1, attempt: 1 } } });
    // The item out, back with an array payload: done.
    send({ ...(out as Record<string, unknown>), payload: [{ row: 1 }] });
    await waitUntil(() => progress.messages.some((msg) => msg.topic === "done"), "the batch's done");
    const done = payloadOf(progress.messages.find((msg) => msg.topic === "done"));
    assert.deepEqual({ total: done.total, done: done.done }, { total: 1, done: 1 });
    assert.equal(items.messages.length, 1, "no batch started over the array payloads");
    assert.equal(caught.messages.length, 0);
  });

  it("a journal that cannot be read: every message ends with an error naming the file kept aside; nothing is sent", async () => {
    // One commit (its lines, then its marker) with a bad line inside it: corruption, not a torn tail.
    const commit = `${JSON.stringify({ t: "list", list: { id: "x", items: ["a", "b"], origin: {} } })}\nnot a record\n[0,1,1]\n`;
    writeFileSync(JOURNAL, `${commit}${commitMarker(commit)}`);
    const { items, caught, send } = await load();
    send({ payload: ["c"] });
    const [error] = await caught.next(1);
    const text = String((error?.error as { message?: unknown } | undefined)?.message);
    assert.match(
      text,
      /^batch failed: its journal cannot be read \(line 2 is not a record, and records follow it\); the file is kept as .*batch-b1\.jsonl\.unreadable-.*, and the list is not started again$/,
    );
    const kept = readdirSync(stateDir).filter((name) => name.startsWith("batch-b1.jsonl.unreadable-"));
    assert.equal(kept.length, 1, "the file is kept aside");
    assert.match(readFileSync(join(stateDir, kept[0] as string), "utf8"), /not a record/);
    assert.equal(items.messages.length, 0);
    // What a Catch wired back into the batch node passes on, and an item coming back, end quietly: an error
    // for them would go round through the Catch again. The next list still gets the reason.
    send({ payload: "x", error: { message: "an item failed" } });
    send({ payload: ["row"], morelogin: { batch: { id: "x", item: "a", index: 0, total: 2, attempt: 1 } } });
    send({ payload: ["d"] });
    const all = await caught.next(2);
    assert.equal(all.length, 2);
    assert.match(String((all[1]?.error as { message?: unknown } | undefined)?.message), /^batch failed: its journal cannot be read/);
    assert.equal(all[1]?.payload?.toString(), "d");
  });
});
