import assert from "node:assert/strict";
import { join } from "node:path";
import { startEmulator, type Emulator } from "../../src/emulator";
import { deployAndStart, startNodeRed, type FlowNode, type RunningNodeRed } from "../../tools/sandbox";
import { batchFlow, batchUserDir, doneOf, reported, sendIn, type BatchPayload } from "../support/batch-flow";
import { waitUntil } from "../support/wait-until";
import { startRecorder, type Recorder } from "../support/recorder";
import { tearDown } from "../support/suite-teardown";
import { nodeBinary, redJs } from "../support/runtime";

const NAMED = 200;
const UNNAMED = 30;
const CREATE = "/api/env/create/advanced";
/** Each create waits this long at the emulator after it arrived (and was logged) before it is made and answered: a kill lands with creates that reached MoreLogin but whose answer never came back. */
const LATENCY_MS = 150;
/** The kills: after this many named creates reached the emulator (the first also waits for unnamed ones). */
const KILL_AT = [40, 130];

const nameOf = (index: number): string => `Once ${String(index + 1).padStart(3, "0")}`;
const remarkOf = (index: number): string => `unnamed ${index + 1}`;

/** What came back from the profile node for one item, as the flow reported it (before the batch counted it). */
interface Back {
  index: number;
  attempt: number;
  envId: string;
  existed: boolean;
  error?: string;
}

/**
 * Exactly once by name through a batch (issue 50): a real Node-RED on its default settings runs 200 named
 * creates (createAdvanced) through a batch with *After a restart* (`resend`), and 30 unnamed ones through a
 * batch without it, and is killed with SIGKILL twice in the middle, each time started again on the same
 * user folder. What the emulator holds and saw is the truth.
 */
describe("reliability: exactly once by name, a batch of createAdvanced across kill -9", function () {
  this.timeout(180_000);
  let work: string;
  let emulator: Emulator;
  let recorder: Recorder;
  let nodeRed: RunningNodeRed | undefined;
  let where = "";

  const creates = (): Array<Record<string, unknown>> => emulator.requestLog.filter((entry) => entry.path === CREATE).map((entry) => (entry.body ?? {}) as Record<string, unknown>);
  const namedCreates = (): number => creates().filter((body) => typeof body.envName === "string").length;
  const unnamedCreates = (): number => creates().filter((body) => body.envName === undefined).length;
  const backs = (): Back[] => recorder.requests.filter((request) => request.url === "/named/back").map((request) => JSON.parse(request.body) as Back);

  /** The work of an item: createAdvanced, then (the reply or the error a Catch passes on) reported and back into the batch. */
  const createWork =
    (p: string, report: boolean) =>
    ({ z, back }: { z: string; back: string }): FlowNode[] => [
      { id: `${p}-create`, type: "morelogin-profile", z, server: "server", action: "createAdvanced", settings: "{}", settingsType: "json", wires: [[report ? `${p}-seen` : back]] },
      {
        id: `${p}-seen`,
        type: "function",
        z,
        func: "const b = msg.morelogin.batch; return [msg, { payload: JSON.stringify({ index: b.index, attempt: b.attempt, envId: msg.payload, existed: msg.morelogin.existed }) }];",
        outputs: 2,
        noerr: 0,
        initialize: "",
        finalize: "",
        libs: [],
        wires: [[back], [`${p}-post-back`]],
      },
      { id: `${p}-post-back`, type: "http request", z, method: "POST", ret: "txt", paytoqs: "ignore", url: `${recorder.url}/${p}/back`, wires: [[]] },
    ];

  before(async () => {
    work = batchUserDir("morelogin-create-once-");
    emulator = await startEmulator({ profiles: 3 });
    emulator.setFaults({ latencyMs: [LATENCY_MS, LATENCY_MS] });
    recorder = await startRecorder();
    const flows: FlowNode[] = [
      { id: "server", type: "morelogin-config", name: "emulator", localUrl: emulator.localUrl, openUrl: emulator.openUrl, localRpm: "0", openRpm: "0" },
      ...batchFlow(recorder.url, { prefix: "named", batch: { parallel: "8", resend: true }, work: createWork("named", true), first: "named-create" }),
      ...batchFlow(recorder.url, { prefix: "unnamed", batch: { parallel: "3" }, work: createWork("unnamed", false), first: "unnamed-create" }),
    ];
    const start = (): Promise<RunningNodeRed> => startNodeRed({ userDir: join(work, "user"), node: nodeBinary, redJs, settings: {} });
    nodeRed = await start();
    await deployAndStart(nodeRed, flows);
    await sendIn(nodeRed, "named", { payload: Array.from({ length: NAMED }, (_, index) => ({ envName: nameOf(index) })) });
    await sendIn(nodeRed, "unnamed", { payload: Array.from({ length: UNNAMED }, (_, index) => ({ envRemark: remarkOf(index) })) });

    const moments: string[] = [];
    for (const [kill, at] of KILL_AT.entries()) {
      // The first kill also lands in the unnamed batch (about 10 rounds of 3), the second among the creates sent again.
      await waitUntil(() => namedCreates() >= at && (kill > 0 || unnamedCreates() >= 12), `${at} named creates at the emulator before kill ${kill + 1}`);
      moments.push(`after ${namedCreates()} named and ${unnamedCreates()} unnamed creates`);
      await nodeRed.kill();
      nodeRed = await start();
    }
    where = `kills ${moments.join(", ")}`;
    await waitUntil(
      () => doneOf(reported(recorder, "named")).length >= 1 && doneOf(reported(recorder, "unnamed")).length >= 1,
      () => `both batches end (${where})`,
    );
  });

  after(() => tearDown({ nodeRed, recorder, emulator, work }));

  const addsUp = (summary: BatchPayload, total: number): void => {
    assert.equal(summary.total, total);
    assert.equal(summary.running + summary.waiting, 0);
    assert.equal(summary.done + summary.failed + summary.timedOut + summary.interrupted + summary.cancelled, total, `the counts add up (${where})`);
  };

  it(`${NAMED} named creates with resend: ${NAMED} profiles with those names, none twice; every item done once; a resent create that had arrived answers its profile (existed)`, () => {
    const [done, ...more] = doneOf(reported(recorder, "named"));
    assert.ok(done);
    assert.equal(more.length, 0, "one done");
    addsUp(done, NAMED);
    assert.deepEqual(
      { done: done.done, failed: done.failed, interrupted: done.interrupted },
      { done: NAMED, failed: 0, interrupted: 0 },
      `every item done (${where}): ${JSON.stringify(done.failures)}`,
    );

    const names = Array.from({ length: NAMED }, (_, index) => nameOf(index));
    const profiles = emulator.data.profiles.filter((profile) => profile.envName.startsWith("Once "));
    const twice = names.filter((name) => profiles.filter((profile) => profile.envName === name).length > 1);
    assert.deepEqual(twice, [], `no name made twice (${where})`);
    assert.deepEqual(profiles.map((profile) => profile.envName).sort(), names, `exactly the ${NAMED} names (${where})`);

    // What came back from the profile node: each item's ID is the profile of its name, and the creates cut off by a kill after they reached MoreLogin came back as existed.
    const idOf = new Map(profiles.map((profile) => [profile.envName, profile.id]));
    const came = backs();
    assert.deepEqual(
      came.filter((back) => back.envId !== idOf.get(nameOf(back.index))),
      [],
      "each item answers the profile of its name",
    );
    const existed = came.filter((back) => back.existed);
    assert.ok(existed.length >= 1, `a kill landed with creates that had reached the emulator, sent again and answered existed (${where})`);
    assert.ok(
      existed.every((back) => back.attempt > 1),
      `only a create sent again found its name in use: ${JSON.stringify(existed)}`,
    );
    assert.ok(namedCreates() > NAMED, `creates were sent again after the kills: ${namedCreates()}`);
  });

  it("unnamed creates without resend: one cut off by the kill is counted interrupted and never sent again; the counts add up", () => {
    const [done, ...more] = doneOf(reported(recorder, "unnamed"));
    assert.ok(done);
    assert.equal(more.length, 0, "one done");
    addsUp(done, UNNAMED);
    assert.equal(done.failed + done.timedOut + done.cancelled, 0);
    const sent = creates()
      .filter((body) => body.envName === undefined)
      .map((body) => String(body.envRemark));
    const sentTwice = sent.filter((remark, at) => sent.indexOf(remark) !== at);
    assert.deepEqual(sentTwice, [], `no unnamed create sent twice (${where})`);
    assert.ok(done.interrupted >= 1, `the first kill landed with unnamed creates out (${where})`);
    assert.equal(done.interruptions?.length, done.interrupted, `each interrupted item named: ${JSON.stringify(done.interruptions)}`);
    const made = emulator.data.profiles.filter((profile) => (profile.envRemark ?? "").startsWith("unnamed "));
    assert.equal(made.length, sent.length, "each create that reached the emulator made one profile");
    assert.ok(sent.length >= UNNAMED - done.interrupted, `every item not interrupted was sent: ${sent.length} sent, ${done.interrupted} interrupted`);
  });
});
