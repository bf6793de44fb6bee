import assert from "node:assert/strict";
import { queueTimingOf } from "../../src/batch/queue-timing";

describe("batch: how long a queue's Node-RED keeps its items while unheard", () => {
  for (const seconds of [5, 10, 30, 600, 3600]) {
    const timeoutMs = seconds * 1000;
    const timing = queueTimingOf(timeoutMs);
    it(`workerTimeout ${seconds} s: a silence shorter than it never lapses a lock; a longer one hands the items over within a few seconds of it`, () => {
      // Silent from any moment: the last renewal was at most renewEveryMs before, and its lock lasts lockMs from it.
      assert.ok(timing.lockMs - timing.renewEveryMs >= timeoutMs, `a lock outlives any silence shorter than the timeout: ${JSON.stringify(timing)}`);
      // At the latest: renewed just as it fell silent, the lock lapses after lockMs, and the next stalled check finds it.
      assert.ok(timing.lockMs + timing.stalledCheckMs <= timeoutMs + 4000, `handed over within the timeout + 4 s: ${JSON.stringify(timing)}`);
      assert.equal(timing.presenceMs, timeoutMs, "unheard for the timeout, a Node-RED leaves `workers`");
    });
  }
});
