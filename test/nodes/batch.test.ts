import assert from "node:assert/strict";
import { startEmulator, type Emulator } from "../../src/emulator";
import { deployAndStart, type FlowNode, type RunningNodeRed } from "../../tools/sandbox";
import { batchFlow, batchUserDir, doneOf, release, reported, sendIn, startCloseWork, startWithFileContext, type BatchPayload, type Reported } from "../support/batch-flow";
import { waitUntil } from "../support/wait-until";
import { startRecorder, type Recorder } from "../support/recorder";
import { tearDown } from "../support/suite-teardown";

/** Every item ended one way: the counts add up to the total. */
function assertAddsUp(summary: BatchPayload): void {
  assert.equal(summary.done + summary.failed + summary.timedOut + summary.interrupted + summary.cancelled, summary.total, "the counts add up to the total");
  assert.equal(summary.running, 0);
  assert.equal(summary.waiting, 0);
  assert.ok(summary.endedAt, "endedAt is set");
}

const count = (values: string[], value: string): number => values.filter((entry) => entry === value).length;

/**
 * A real Node-RED process with Node-RED's own `localfilesystem` context store as the default, the
 * emulator behind the MoreLogin nodes, and the batch's outputs and status reported to a recorder.
 */
describe("nodes: morelogin-batch in a real runtime (localfilesystem context store)", function () {
  this.timeout(120_000);
  let work: string;
  let emulator: Emulator;
  let recorder: Recorder;
  let nodeRed: RunningNodeRed | undefined;
  /** Every flow deployed so far: each test adds its own tab, so nothing of an earlier test is redeployed away. */
  const deployed: FlowNode[] = [];

  before(async () => {
    work = batchUserDir("morelogin-batch-");
    emulator = await startEmulator({ profiles: 12 });
    recorder = await startRecorder();
    nodeRed = await startWithFileContext(work);
  });

  after(() => tearDown({ nodeRed, recorder, emulator, work }));

  const running = (): RunningNodeRed => {
    assert.ok(nodeRed, "Node-RED runs");
    return nodeRed;
  };
  const deploy = async (flow: FlowNode[]): Promise<void> => {
    deployed.push(...flow);
    await deployAndStart(running(), deployed);
  };
  const config = (): FlowNode => ({ id: "server", type: "morelogin-config", name: "emulator", localUrl: emulator.localUrl, openUrl: emulator.openUrl, localRpm: "0", openRpm: "0" });
  const profileIds = (): string[] => emulator.data.profiles.map((profile) => profile.id);
  const bodies = (path: string): string[] => emulator.requestLog.filter((entry) => entry.path === path).map((entry) => String((entry.body as { envId?: unknown }).envId));
  const report = (p: string): Reported => reported(recorder, p);
  const waitForDone = async (p: string, dones = 1): Promise<BatchPayload[]> => {
    await waitUntil(() => doneOf(report(p)).length >= dones, `${dones} done message(s) of ${p}`);
    return doneOf(report(p));
  };
  const waitForProgress = async (p: string, accept: (payload: BatchPayload) => boolean, what: string): Promise<BatchPayload> => {
    await waitUntil(() => report(p).progress.some((message) => accept(message.payload)), what);
    const found = report(p).progress.find((message) => accept(message.payload));
    assert.ok(found);
    return found.payload;
  };

  it("12 profiles at parallel 3: each started and closed once, never more than 3 running; bad input is an error", async () => {
    const p = "twelve";
    await deploy([config(), ...batchFlow(recorder.url, { prefix: p, batch: { parallel: "3" }, first: `${p}-start`, work: startCloseWork(p) })]);
    emulator.resetStats();
    const ids = profileIds();
    assert.equal(ids.length, 12);
    // Rows of the list node, as it sends them.
    await sendIn(running(), p, { payload: emulator.data.profiles.map((profile) => ({ id: profile.id, envName: profile.envName })), note: "kept" });
    const [summary] = await waitForDone(p);
    assert.ok(summary);
    assert.equal(summary.total, 12);
    assert.equal(summary.done, 12);
    assertAddsUp(summary);
    assert.deepEqual(summary.failures, []);
    assert.deepEqual(bodies("/api/env/start").sort(), [...ids].sort(), "each profile started once");
    assert.deepEqual(bodies("/api/env/close").sort(), [...ids].sort(), "each profile closed once");
    assert.ok(emulator.stats.peakRunningProfiles <= 3, `at most 3 running (peak ${emulator.stats.peakRunningProfiles})`);
    assert.ok(emulator.stats.peakRunningProfiles >= 2, "items ran side by side");
    await waitUntil(() => report(p).status.some((status) => status.text === "12 of 12" && status.fill === "green"), "the status says 12 of 12, green");

    await sendIn(running(), p, { payload: "not a list" });
    await sendIn(running(), p, { command: "jump" });
    await waitUntil(() => report(p).errors.length >= 2, "two errors");
    assert.match(report(p).errors[0] ?? "", /^batch failed: msg\.payload must be an array/);
    assert.match(report(p).errors[1] ?? "", /^batch failed: msg\.command must be one of pause, resume, cancel, status, not "jump"/);
  });

  it("failures through a Catch are counted and listed, retried after the first pass", async () => {
    const p = "fail";
    const ids = profileIds().slice(0, 3);
    // Long enough for the items that work, on a busy machine: none of them waits it out.
    await deploy([config(), ...batchFlow(recorder.url, { prefix: p, batch: { parallel: "2", retries: "1", itemTimeout: "5" }, first: `${p}-start`, work: startCloseWork(p) })]);
    // "999" is no profile: its start fails, reaches the Catch, comes back with msg.error.
    await sendIn(running(), p, { payload: [ids[0], "999", ids[1], ids[2]] });
    const [summary] = await waitForDone(p);
    assert.ok(summary);
    assert.deepEqual({ done: summary.done, failed: summary.failed, timedOut: summary.timedOut }, { done: 3, failed: 1, timedOut: 0 });
    assertAddsUp(summary);
    assert.equal(summary.failures.length, 1);
    assert.equal(summary.failures[0]?.id, "999");
    assert.equal(summary.failures[0]?.attempt, 2, "failed on its retry");
    assert.match(summary.failures[0]?.error ?? "", /start profile failed/);
    const log = report(p).progress.at(-1)?.log ?? [];
    assert.equal(count(log, "999#1"), 1);
    assert.equal(count(log, "999#2"), 1);
    assert.ok(log.indexOf("999#2") > log.indexOf(`${ids[2]}#1`), `the retry goes after the first pass: ${log.join(", ")}`);
  });

  it("a dropped item times out and is not retried", async () => {
    const p = "drop";
    await deploy([
      config(),
      ...batchFlow(recorder.url, {
        prefix: p,
        // Only the dropped item is in this batch: nothing has to finish within the short timeout.
        batch: { parallel: "2", retries: "1", itemTimeout: "0.2" },
        first: `${p}-drop`,
        work: (ids) => [
          // Its message goes nowhere, as a flow with a missing wire drops it.
          { id: `${p}-drop`, type: "function", z: ids.z, func: "return null;", outputs: 1, noerr: 0, initialize: "", finalize: "", libs: [], wires: [[ids.back]] },
        ],
      }),
    ]);
    await sendIn(running(), p, { payload: ["lost"] });
    const [summary] = await waitForDone(p);
    assert.ok(summary);
    assert.deepEqual({ done: summary.done, failed: summary.failed, timedOut: summary.timedOut }, { done: 0, failed: 0, timedOut: 1 });
    assertAddsUp(summary);
    assert.deepEqual(summary.failures, [{ id: "lost", attempt: 1, error: "timed out after 0.2 s" }]);
    const log = report(p).progress.at(-1)?.log ?? [];
    assert.equal(count(log, "lost#1"), 1);
    assert.equal(count(log, "lost#2"), 0, "a timed-out item is not retried");
  });

  it("pause sends nothing new, resume carries on, cancel counts the rest cancelled", async () => {
    const p = "pause";
    await deploy(batchFlow(recorder.url, { prefix: p, batch: { parallel: "2" } }));
    await sendIn(running(), p, { payload: ["i1", "i2", "i3", "i4", "i5", "i6"] });
    await waitUntil(() => report(p).out.length === 2, "two items out");
    await sendIn(running(), p, { command: "pause" });
    await release(running(), p);
    await sendIn(running(), p, { command: "status" });
    const paused = await waitForProgress(p, (payload) => payload.done === 2, "the two released items counted");
    assert.deepEqual({ running: paused.running, waiting: paused.waiting }, { running: 0, waiting: 4 }, "nothing new went out while paused");
    assert.equal(paused.etaMs, null);
    await waitUntil(() => report(p).status.some((status) => status.fill === "yellow" && status.text === "paused · 2 of 6"), "a yellow paused status");

    await sendIn(running(), p, { command: "resume" });
    await waitUntil(() => report(p).out.length === 4, "two more items out");
    await sendIn(running(), p, { command: "cancel" });
    await release(running(), p);
    const [summary] = await waitForDone(p);
    assert.ok(summary);
    assert.deepEqual({ done: summary.done, cancelled: summary.cancelled }, { done: 4, cancelled: 2 });
    assertAddsUp(summary);
    assert.deepEqual(report(p).out.sort(), ["i1#1", "i2#1", "i3#1", "i4#1"]);
  });

  it("a list arriving while a batch runs waits its turn", async () => {
    const p = "queue";
    await deploy(batchFlow(recorder.url, { prefix: p, batch: { parallel: "2" } }));
    await sendIn(running(), p, { payload: [{ envId: "a1" }, { envId: "a2" }] });
    await sendIn(running(), p, { payload: [{ id: "b1" }] });
    await waitUntil(() => report(p).out.length === 2, "the first list's items out");
    await sendIn(running(), p, { command: "status" });
    const first = await waitForProgress(p, (payload) => payload.total === 2 && payload.running === 2, "the first batch running");
    assert.equal(first.total, 2);
    assert.deepEqual(report(p).out.sort(), ["a1#1", "a2#1"], "the second list waits");
    await release(running(), p);
    await waitUntil(() => report(p).out.length === 3, "the second list's item out");
    await release(running(), p);
    const dones = await waitForDone(p, 2);
    const byTotal = new Map(dones.map((summary) => [summary.total, summary]));
    assert.equal(byTotal.get(2)?.done, 2);
    assert.equal(byTotal.get(1)?.done, 1);
    assert.notEqual(byTotal.get(2)?.id, byTotal.get(1)?.id);
    const firstDone = report(p).progress.find((message) => message.topic === "done" && message.payload.total === 2);
    assert.deepEqual(firstDone?.log, ["a1#1", "a2#1"], "the second list started after the first was done");
  });

  it("a restart in the middle resumes: nothing done is sent twice, items out are interrupted (or, with resend, sent again)", async () => {
    const kept = "keep";
    const again = "resend";
    const items = ["r1", "r2", "r3", "r4", "r5", "r6"];
    await deploy([...batchFlow(recorder.url, { prefix: kept, batch: { parallel: "2" } }), ...batchFlow(recorder.url, { prefix: again, batch: { parallel: "2", resend: true } })]);
    for (const p of [kept, again]) await sendIn(running(), p, { payload: items });
    for (const p of [kept, again]) {
      await waitUntil(() => report(p).out.length === 2, `${p}: two items out`);
      await release(running(), p);
      await waitUntil(() => report(p).out.length === 4, `${p}: two more items out`);
    }
    // r1 and r2 are done, r3 and r4 are out when Node-RED stops.
    await running().stop();
    nodeRed = undefined;
    nodeRed = await startWithFileContext(work);

    for (const p of [kept, again]) {
      await waitUntil(async () => {
        await release(running(), p);
        return doneOf(report(p)).length === 1;
      }, `${p}: the batch ends after the restart`);
    }
    const [keptSummary] = doneOf(report(kept));
    assert.ok(keptSummary);
    assert.deepEqual({ done: keptSummary.done, interrupted: keptSummary.interrupted }, { done: 4, interrupted: 2 });
    assertAddsUp(keptSummary);
    assert.deepEqual(
      keptSummary.interruptions,
      [
        { id: "r3", attempt: 1 },
        { id: "r4", attempt: 1 },
      ],
      "the done names the items that were out at the restart",
    );
    await waitUntil(
      () => report(kept).status.some((status) => status.fill === "yellow" && status.shape === "ring" && status.text === "6 of 6 · 2 interrupted"),
      "the end shows the interrupted items, not green",
    );
    assert.deepEqual(
      report(kept).out.sort(),
      items.map((item) => `${item}#1`),
      "each item out once: r3 and r4 not again",
    );

    const [againSummary] = doneOf(report(again));
    assert.ok(againSummary);
    assert.deepEqual({ done: againSummary.done, interrupted: againSummary.interrupted }, { done: 6, interrupted: 0 });
    assertAddsUp(againSummary);
    assert.deepEqual(againSummary.interruptions, []);
    await waitUntil(() => report(again).status.some((status) => status.fill === "green" && status.text === "6 of 6"), "every item done: green");
    assert.deepEqual(report(again).out.sort(), ["r1#1", "r2#1", "r3#1", "r3#2", "r4#1", "r4#2", "r5#1", "r6#1"], "r3 and r4 again as attempt 2, r1 and r2 never");
  });
});
