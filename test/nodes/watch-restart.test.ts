import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmulator, type Emulator } from "../../src/emulator";
import { deployAndStart, freePort, startNodeRed, type FlowNode, type RunningNodeRed } from "../../tools/sandbox";
import { call } from "../support/http";
import { waitUntil } from "../support/wait-until";
import { startRecorder, type Recorder } from "../support/recorder";
import { tearDown } from "../support/suite-teardown";
import { nodeBinary, redJs } from "../support/runtime";
import { linkedUserDir } from "../support/user-dir";

const DEBUG_INFO = "local POST /api/env/getAllDebugInfo";

/**
 * A real Node-RED process, stopped and started again, with Node-RED's own `localfilesystem` context
 * store: what a watch remembers must outlive the process.
 */
describe("nodes: watch across a Node-RED restart (localfilesystem context store)", function () {
  this.timeout(120_000);
  let work: string;
  let emulator: Emulator;
  let recorder: Recorder;
  let nodeRed: RunningNodeRed | undefined;
  let userDir: string;

  before(async () => {
    work = mkdtempSync(join(tmpdir(), "morelogin-watch-restart-"));
    userDir = linkedUserDir(work, "watch-restart");
    emulator = await startEmulator({ profiles: 6 });
    recorder = await startRecorder();
  });

  after(() => tearDown({ nodeRed, recorder, emulator, work }));

  const start = async (port: number): Promise<RunningNodeRed> => startNodeRed({ userDir, port, node: nodeBinary, redJs, settings: { contextStorage: { default: { module: "localfilesystem" } } } });
  const polls = (): number => emulator.stats.requests[DEBUG_INFO] ?? 0;
  // What the flow posted to /changes: the recorder's port is an ephemeral one, which another test's process may have known before (seen: an empty request there).
  const changes = (): Recorder["requests"] => recorder.requests.filter((request) => request.method === "POST" && request.url === "/changes");
  const received = (): Array<{ event: string; id: string }> => changes().map((request) => JSON.parse(request.body) as { event: string; id: string });

  it("sends a change made while Node-RED was down once after the restart", async () => {
    const port = await freePort();
    const envId = emulator.data.profiles[0]?.id;
    assert.ok(envId);
    const flows: FlowNode[] = [
      { id: "tab", type: "tab", label: "watch" },
      { id: "server", type: "morelogin-config", name: "emulator", localUrl: emulator.localUrl, openUrl: emulator.openUrl },
      { id: "watch", type: "morelogin-watch", z: "tab", server: "server", watch: "profiles", interval: "2", wires: [["post"]] },
      { id: "post", type: "http request", z: "tab", method: "POST", ret: "txt", url: `${recorder.url}/changes`, wires: [[]] },
    ];
    nodeRed = await start(port);
    await deployAndStart(nodeRed, flows);
    const seen = polls();
    await waitUntil(() => polls() >= seen + 2, "the watch has polled");
    await nodeRed.stop();
    nodeRed = undefined;

    await call(emulator.localUrl, "/api/env/start", { body: { envId } });
    nodeRed = await start(port);
    await waitUntil(() => changes().length >= 1, "the change made while Node-RED was down");
    assert.deepEqual(
      received().map(({ event, id }) => ({ event, id })),
      [{ event: "started", id: envId }],
    );
    const after = polls();
    await waitUntil(() => polls() >= after + 2, "two more polls");
    assert.equal(changes().length, 1, "sent once");

    // And a restart with nothing changed sends nothing.
    await nodeRed.stop();
    nodeRed = await start(port);
    const restarted = polls();
    await waitUntil(() => polls() >= restarted + 2, "the restarted watch has polled");
    assert.equal(changes().length, 1, "a restart with nothing changed sends nothing");
  });
});
