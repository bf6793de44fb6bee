import assert from "node:assert/strict";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { startEmulator, type Emulator } from "../../src/emulator";
import { deployAndStart, startNodeRed, type FlowNode, type RunningNodeRed } from "../../tools/sandbox";
import { batchFlow, batchUserDir, doneOf, reported, sendIn, startCloseWork, type BatchPayload } from "../support/batch-flow";
import { waitUntil } from "../support/wait-until";
import { startRecorder, type Recorder } from "../support/recorder";
import { tearDown } from "../support/suite-teardown";
import { nodeBinary, redJs } from "../support/runtime";

const PER_BATCH = 30;
const PARALLEL = 3;
const KILLS = 3;
const START = "/api/env/start";

/** A whole number from `low` to `high`. */
const between = (low: number, high: number): number => low + Math.floor(Math.random() * (high - low + 1));

/**
 * A real Node-RED on its default settings (no contextStorage: context in memory) killed with SIGKILL in
 * the middle of two batches, at moments chosen at random, and started again each time: the batches
 * carry on from their journals. What the emulator saw is the truth: how often each profile was started.
 */
describe("reliability: morelogin-batch across kill -9 on Node-RED's default settings", function () {
  this.timeout(180_000);
  let work: string;
  let emulator: Emulator;
  let recorder: Recorder;
  let nodeRed: RunningNodeRed | undefined;

  before(async () => {
    work = batchUserDir("morelogin-batch-kill-");
    emulator = await startEmulator({ profiles: PER_BATCH * 2 });
    // Each call takes a little while, so that kills land with items out.
    emulator.setFaults({ latencyMs: [20, 80] });
    recorder = await startRecorder();
  });

  after(() => tearDown({ nodeRed, recorder, emulator, work }));

  const start = (): Promise<RunningNodeRed> => startNodeRed({ userDir: join(work, "user"), node: nodeBinary, redJs, settings: {} });
  const startsOf = (envId: string): number => emulator.requestLog.filter((entry) => entry.path === START && (entry.body as { envId?: unknown }).envId === envId).length;
  const allStarts = (): number => emulator.requestLog.filter((entry) => entry.path === START).length;

  it(`every item ends once, none started twice (with resend: again only if it was out), the counts add up, over ${KILLS} kills`, async () => {
    const ids = emulator.data.profiles.map((profile) => profile.id);
    const lists = { plain: ids.slice(0, PER_BATCH), again: ids.slice(PER_BATCH) };
    const flows: FlowNode[] = [
      { id: "server", type: "morelogin-config", name: "emulator", localUrl: emulator.localUrl, openUrl: emulator.openUrl, localRpm: "0", openRpm: "0" },
      ...batchFlow(recorder.url, { prefix: "plain", batch: { parallel: String(PARALLEL) }, work: startCloseWork("plain"), first: "plain-start" }),
      ...batchFlow(recorder.url, { prefix: "again", batch: { parallel: String(PARALLEL), resend: true }, work: startCloseWork("again"), first: "again-start" }),
    ];
    nodeRed = await start();
    await deployAndStart(nodeRed, flows);
    await sendIn(nodeRed, "plain", { payload: lists.plain });
    await sendIn(nodeRed, "again", { payload: lists.again });

    // Kill after a random number of starts (of both batches together), a random few milliseconds on.
    const moments: string[] = [];
    let threshold = 0;
    for (let kill = 0; kill < KILLS; kill++) {
      threshold += between(5, 14);
      const at = threshold;
      await waitUntil(() => allStarts() >= at, `${at} profile starts before kill ${kill + 1}`);
      const extraMs = between(0, 60);
      // A random moment on purpose: the kill must land anywhere between a start and the next, not on an event.
      await new Promise((resolve) => setTimeout(resolve, extraMs));
      moments.push(`after ${allStarts()} starts (+${extraMs} ms)`);
      await nodeRed.kill();
      nodeRed = await start();
    }
    const journals = readdirSync(join(work, "user", "morelogin"));
    assert.ok(
      journals.some((name) => /^batch-plain-batch\.jsonl$/.test(name)),
      `the journals are under <userDir>/morelogin: ${journals.join(", ")}`,
    );
    const where = `kills ${moments.join(", ")}`;

    await waitUntil(() => doneOf(reported(recorder, "plain")).length >= 1 && doneOf(reported(recorder, "again")).length >= 1, `both batches end (${where})`);
    const addsUp = (summary: BatchPayload): void => {
      assert.equal(summary.total, PER_BATCH);
      assert.equal(summary.running + summary.waiting, 0);
      assert.equal(summary.done + summary.failed + summary.timedOut + summary.interrupted + summary.cancelled, summary.total, `the counts add up (${where})`);
    };

    const [plain, ...plainAgain] = doneOf(reported(recorder, "plain"));
    assert.ok(plain);
    assert.equal(plainAgain.length, 0, "one done");
    addsUp(plain);
    assert.equal(plain.failed + plain.timedOut + plain.cancelled, 0);
    assert.ok(plain.interrupted >= 1, `a kill landed with items out (${where})`);
    assert.ok(plain.interrupted <= KILLS * PARALLEL, `at most ${PARALLEL} items interrupted a kill: ${plain.interrupted} (${where})`);
    const named = (plain.interruptions ?? []).map((entry) => entry.id);
    assert.equal(named.length, plain.interrupted, `the done names each interrupted item: ${JSON.stringify(plain.interruptions)} (${where})`);
    assert.deepEqual(
      named.filter((id, at) => !lists.plain.includes(id) || named.indexOf(id) !== at),
      [],
      "each named once, each of the list",
    );
    await waitUntil(
      () => reported(recorder, "plain").status.some((status) => status.fill === "yellow" && status.text === `${PER_BATCH} of ${PER_BATCH} · ${plain.interrupted} interrupted`),
      `the end is not green: it shows the interrupted items (${where})`,
    );
    const startedTwice = lists.plain.filter((envId) => startsOf(envId) > 1);
    assert.deepEqual(startedTwice, [], `no profile started twice without resend (${where})`);
    const neverStarted = lists.plain.filter((envId) => startsOf(envId) === 0).length;
    assert.ok(neverStarted <= plain.interrupted, `only an item interrupted on its way (out, not yet started) was never started: ${neverStarted} of ${plain.interrupted} interrupted (${where})`);

    const [again, ...againAgain] = doneOf(reported(recorder, "again"));
    assert.ok(again);
    assert.equal(againAgain.length, 0, "one done");
    addsUp(again);
    assert.deepEqual({ done: again.done, interrupted: again.interrupted }, { done: PER_BATCH, interrupted: 0 }, `with resend, the items out at a kill are sent again (${where})`);
    const extraStarts = lists.again.reduce((sum, envId) => sum + Math.max(0, startsOf(envId) - 1), 0);
    assert.ok(extraStarts <= KILLS * PARALLEL, `with resend, only the items out at a kill start again: ${extraStarts} extra starts (${where})`);
    assert.ok(!existsSync(join(work, "user", "morelogin", "batch-plain-batch.jsonl.tmp")));
  });
});
