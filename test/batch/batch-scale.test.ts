import assert from "node:assert/strict";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BatchRunner, LocalBatchWork, type BatchTag } from "../../src/batch";

interface Written {
  listBytes: number;
  bytesWritten: number;
  syncs: number;
  compactions: number;
  fileBytes: number;
}

/** A list of `total` items through a runner on a real journal, each item back a turn after it left (as Node-RED sends). */
async function run(folder: string, total: number): Promise<Written> {
  const file = join(folder, `batch-${total}.jsonl`);
  const work = await LocalBatchWork.open(file, { resend: false, onError: (error) => assert.fail(error) });
  let ended: () => void = () => undefined;
  const finished = new Promise<void>((resolve) => {
    ended = resolve;
  });
  const runner: BatchRunner = new BatchRunner({ parallel: 50, retries: 0, itemTimeoutMs: 0, resend: false }, work, {
    sendItem: (msg) => setImmediate(() => runner.back((msg.morelogin as { batch: BatchTag }).batch, undefined)),
    sendProgress: (topic) => {
      if (topic === "done") ended();
    },
    status: () => undefined,
    failed: (error) => assert.fail(error),
    generateId: () => "batch-1",
    clone: (value) => value,
    now: () => 0,
    t: (key) => key,
  });
  const items = Array.from({ length: total }, (_, index) => `id-${index}`);
  await runner.add(items, {});
  await finished;
  const stats = work.journalStats;
  await work.close();
  return { listBytes: Buffer.byteLength(JSON.stringify(items)), bytesWritten: stats.bytesWritten, syncs: stats.syncs, compactions: stats.compactions, fileBytes: statSync(file).size };
}

describe("batch: a runner on its journal at 100,000 items", function () {
  this.timeout(180_000);
  let folder: string;
  before(() => {
    folder = mkdtempSync(join(tmpdir(), "morelogin-batch-scale-"));
  });
  after(() => rmSync(folder, { recursive: true, force: true }));

  it("writes the list once, and after each item a few bytes that do not grow with the list, in shared fsyncs", async () => {
    const small = await run(folder, 1_000);
    const large = await run(folder, 100_000);
    const afterList = (written: Written, total: number): number => (written.bytesWritten - written.listBytes) / total;
    // Two changes per item (out, done) of about 12 bytes each, the snapshot at the end, the list's own record framing.
    assert.ok(afterList(large, 100_000) <= 40, `${afterList(large, 100_000)} bytes written per item after the list`);
    assert.ok(
      afterList(large, 100_000) <= afterList(small, 1_000) * 1.5,
      `what is written per item does not grow with the list: ${afterList(small, 1_000)} bytes at 1,000 items, ${afterList(large, 100_000)} at 100,000`,
    );
    assert.equal(large.compactions, 1, "the list is written once: the only compaction is the one at the end, which leaves it out");
    assert.ok(large.syncs / 100_000 <= 0.25, `${large.syncs} fdatasyncs for 100,000 items: the items out together share one`);
    assert.ok(large.fileBytes < 64 * 1024, `the journal is compacted when the batch ends: ${large.fileBytes} bytes left`);
  });
});
