import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { deployAndStart, type RunningNodeRed } from "../../tools/sandbox";
import { batchFlow, batchUserDir, doneOf, release, reported, sendIn, startWithFileContext } from "../support/batch-flow";
import { waitUntil } from "../support/wait-until";
import { startRecorder, type Recorder } from "../support/recorder";

/**
 * A batch that 0.4 kept in the node's context (`localfilesystem` store) when the package was updated: the
 * first start of the node on this version takes it over into its journal, once, and clears the context.
 */
describe("nodes: morelogin-batch takes a 0.4 batch over from the context store", function () {
  this.timeout(120_000);
  let work: string;
  let recorder: Recorder;
  let nodeRed: RunningNodeRed | undefined;

  before(async () => {
    work = batchUserDir("morelogin-batch-takeover-");
    recorder = await startRecorder();
  });
  after(async () => {
    await nodeRed?.stop();
    await recorder?.close();
    rmSync(work, { recursive: true, force: true });
  });

  it("carries on where 0.4 was (the item out interrupted, the rest sent, nothing done again), then forgets the context", async () => {
    const p = "old";
    nodeRed = await startWithFileContext(work);
    await deployAndStart(nodeRed, batchFlow(recorder.url, { prefix: p, batch: { parallel: "1" } }));
    await nodeRed.stop();
    // What 0.4 wrote for a batch of four: a and b done, c out, d waiting.
    const contextFile = join(work, "user", "context", `${p}-tab`, `${p}-batch.json`);
    mkdirSync(join(contextFile, ".."), { recursive: true });
    const header = { id: "b04", total: 4, startedAt: "2026-11-26T00:00:00.000Z", paused: false, cancelled: false, origin: { shop: "x" } };
    writeFileSync(
      contextFile,
      JSON.stringify({ batch: header, batchItems: ["a", "b", "c", "d"], batchCheckpoint: { checkpoint: "2000", attempts: {} }, batchJournal: [1, 2, 1, 2, 1, 1], batchFailures: [], batchQueue: [] }),
    );

    nodeRed = await startWithFileContext(work);
    await waitUntil(() => reported(recorder, p).out.length === 1, "the item waiting goes out");
    assert.deepEqual(reported(recorder, p).out, ["d#1"]);
    await waitUntil(async () => {
      await release(nodeRed as RunningNodeRed, p);
      return doneOf(reported(recorder, p)).length === 1;
    }, "the batch ends");
    const [summary] = doneOf(reported(recorder, p));
    assert.ok(summary);
    assert.deepEqual({ id: summary.id, total: summary.total, done: summary.done, interrupted: summary.interrupted }, { id: "b04", total: 4, done: 3, interrupted: 1 });
    await nodeRed.stop();
    const left = existsSync(contextFile) ? (JSON.parse(readFileSync(contextFile, "utf8")) as Record<string, unknown>) : {};
    assert.deepEqual(Object.keys(left), [], "the 0.4 keys are cleared");

    // Taken over once: a start after that sends nothing of it again.
    nodeRed = await startWithFileContext(work);
    await deployAndStart(nodeRed, batchFlow(recorder.url, { prefix: p, batch: { parallel: "1" } }));
    const progressBefore = reported(recorder, p).progress.length;
    await sendIn(nodeRed, p, { command: "status" });
    await waitUntil(() => reported(recorder, p).progress.length > progressBefore, "the answer to status (the node has read its journal)");
    assert.equal(reported(recorder, p).progress.at(-1)?.payload.id, "b04", "the last batch is the one taken over");
    assert.deepEqual(reported(recorder, p).out, ["d#1"]);
    assert.equal(doneOf(reported(recorder, p)).length, 1);
  });
});
