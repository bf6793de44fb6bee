import assert from "node:assert/strict";
import { startEmulator, type Emulator } from "../../src/emulator";
import { deployAndStart, type FlowNode, type RunningNodeRed } from "../../tools/sandbox";
import { batchFlow, batchUserDir, doneOf, reported, sendIn, startCloseWork, startWithFileContext } from "../support/batch-flow";
import { waitUntil } from "../support/wait-until";
import { startRecorder, type Recorder } from "../support/recorder";
import { tearDown } from "../support/suite-teardown";

const PER_MINUTE = 120;
/** Start and close: two requests an item, so the budget allows 60 items a minute. */
const ITEMS_A_MINUTE = PER_MINUTE / 2;

/**
 * A batch at the API's pace: a real Node-RED process, the emulator refusing more than 120 requests a
 * minute as MoreLogin does, and a config node pacing at 120. The batch's ETA and status know the pace
 * from what the start and close nodes record on each item; the start node says when its next start goes.
 */
describe("nodes: morelogin-batch at the API's pace (emulator rate limit on)", function () {
  this.timeout(120_000);
  let work: string;
  let emulator: Emulator;
  let recorder: Recorder;
  let nodeRed: RunningNodeRed | undefined;

  before(async () => {
    work = batchUserDir("morelogin-batch-paced-");
    emulator = await startEmulator({ profiles: 14, rateLimitPerMinute: PER_MINUTE });
    recorder = await startRecorder();
    nodeRed = await startWithFileContext(work);
  });
  after(() => tearDown({ nodeRed, recorder, emulator, work }));

  it("says it goes at the API's pace, counts its ETA at that pace, and the start node says when its next start goes", async () => {
    assert.ok(nodeRed);
    const p = "paced";
    const config: FlowNode = {
      id: "server",
      type: "morelogin-config",
      name: "emulator",
      localUrl: emulator.localUrl,
      openUrl: emulator.openUrl,
      localRpm: String(PER_MINUTE),
      openRpm: String(PER_MINUTE),
    };
    const work = ({ z, back }: { z: string; back: string }): FlowNode[] => [
      ...startCloseWork(p)({ z, back }),
      { id: `${p}-start-status`, type: "status", z, scope: [`${p}-start`], wires: [[`${p}-start-status-json`]] },
      {
        id: `${p}-start-status-json`,
        type: "function",
        z,
        func: "return { payload: JSON.stringify(msg.status) };",
        outputs: 1,
        noerr: 0,
        initialize: "",
        finalize: "",
        libs: [],
        wires: [[`${p}-start-status-post`]],
      },
      { id: `${p}-start-status-post`, type: "http request", z, method: "POST", ret: "txt", paytoqs: "ignore", url: `${recorder.url}/${p}/start-status`, wires: [[]] },
    ];
    await deployAndStart(nodeRed, [config, ...batchFlow(recorder.url, { prefix: p, batch: { parallel: "10" }, first: `${p}-start`, work })]);
    emulator.resetStats();
    const ids = emulator.data.profiles.map((profile) => profile.id);
    await sendIn(nodeRed, p, { payload: ids });
    await waitUntil(() => doneOf(reported(recorder, p)).length === 1, "the batch ends");
    const [summary] = doneOf(reported(recorder, p));
    assert.equal(summary?.done, ids.length);
    assert.equal(emulator.stats.rateLimited, 0, "the API refused nothing");

    const pacedProgress = reported(recorder, p).progress.filter((message) => message.topic === "progress" && message.payload.pacedPerMinute !== null);
    assert.ok(pacedProgress.length > 0, "progress says the batch goes at the API's pace");
    for (const { payload } of pacedProgress) {
      assert.equal(payload.pacedPerMinute, ITEMS_A_MINUTE, "120 requests a minute at two an item");
      const left = payload.running + payload.waiting;
      assert.equal(payload.etaMs, Math.round((left / ITEMS_A_MINUTE) * 60_000), "the ETA counts the items left at the API's pace");
    }
    const statusTexts = reported(recorder, p).status.map((status) => status.text ?? "");
    assert.ok(
      statusTexts.some((text) => /^\d+ of 14 · paced: 60 a minute · ETA \d+ s$/.test(text)),
      `the batch's status says it goes at the API's pace: ${statusTexts.join(" | ")}`,
    );
    const startTexts = recorder.requests.filter((request) => request.url === `/${p}/start-status`).map((request) => (JSON.parse(request.body) as { text?: string }).text ?? "");
    assert.ok(
      startTexts.some((text) => /^paced: next start in \d+ s$/.test(text)),
      `the start node says when its next start goes: ${startTexts.join(" | ")}`,
    );
  });
});
