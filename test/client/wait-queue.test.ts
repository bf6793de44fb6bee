import assert from "node:assert/strict";
import { WaitQueue } from "../../src/client/wait-queue";

describe("client: the queue of waiting calls", () => {
  it("lets refused calls through first, in the order they were refused, then the others in arrival order", async () => {
    const queue = new WaitQueue(new AbortController().signal, "a test", "turn");
    const order: string[] = [];
    const waiting = [
      queue.wait({}).then(() => order.push("a")),
      queue.wait({}).then(() => order.push("b")),
      queue.wait({}, true).then(() => order.push("refused 1")),
      queue.wait({}, true).then(() => order.push("refused 2")),
      queue.wait({}).then(() => order.push("c")),
    ];
    while (queue.releaseFirst()) await Promise.resolve();
    await Promise.all(waiting);
    assert.deepEqual(order, ["refused 1", "refused 2", "a", "b", "c"]);
  });
});
