import assert from "node:assert/strict";
import { BatchRunner, type BatchTag } from "../../src/nodes/lib/batch/runner";
import { BatchStore, type ContextLike } from "../../src/nodes/lib/batch/store";

/** A context that counts what is written to it, by key, and how big (array length or string length). */
function countingContext(): { context: ContextLike; writes: Map<string, { count: number; largest: number }> } {
  const values = new Map<string, unknown>();
  const writes = new Map<string, { count: number; largest: number }>();
  const sizeOf = (value: unknown): number =>
    Array.isArray(value)
      ? value.length
      : typeof value === "string"
        ? value.length
        : typeof (value as { checkpoint?: string })?.checkpoint === "string"
          ? (value as { checkpoint: string }).checkpoint.length
          : 1;
  return {
    writes,
    context: {
      get: (key, callback) => callback(undefined, values.get(key)),
      set: (key, value, callback) => {
        values.set(key, value);
        const seen = writes.get(key) ?? { count: 0, largest: 0 };
        writes.set(key, { count: seen.count + 1, largest: Math.max(seen.largest, sizeOf(value)) });
        callback();
      },
    },
  };
}

describe("nodes: morelogin-batch at 100,000 items", () => {
  it("writes the list once, and after each item only the journal, which stays within a quarter of the list", () => {
    const total = 100_000;
    const { context, writes } = countingContext();
    const out: BatchTag[] = [];
    const progress: string[] = [];
    const runner = new BatchRunner({ parallel: 50, retries: 0, itemTimeoutMs: 0, resend: false }, new BatchStore(context, (error) => assert.fail(error)), {
      sendItem: (msg) => out.push((msg.morelogin as { batch: BatchTag }).batch),
      sendProgress: (topic) => progress.push(topic),
      status: () => undefined,
      generateId: () => "batch-1",
      clone: (value) => value,
      now: () => 0,
      t: (key) => key,
    });
    runner.add(
      Array.from({ length: total }, (_, index) => `id-${index}`),
      {},
    );
    let ended = 0;
    while (out.length > 0) {
      const tag = out.shift() as BatchTag;
      runner.back(tag, undefined);
      ended++;
    }
    assert.equal(ended, total);
    assert.deepEqual(progress.at(-1), "done");
    assert.equal(writes.get("batchItems")?.count, 2, "the list: written once, and cleared once at the end");
    const journal = writes.get("batchJournal");
    assert.ok(journal);
    // Three numbers per change (index, state, attempt); two changes per item (out, done).
    assert.ok(journal.largest <= (total / 4) * 3 + 3, `the journal stays within a quarter of the list (largest ${journal.largest} numbers)`);
    const checkpoints = writes.get("batchCheckpoint")?.count ?? 0;
    assert.ok(checkpoints <= 2 + (2 * total) / (total / 4), `a checkpoint (the whole list's states) is written once per quarter of the list's changes, not per item: ${checkpoints}`);
  });
});
