import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmulator, type Emulator } from "../../src/emulator";
import { ROOT, deployAndStart, freePort, startNodeRed, type FlowNode, type RunningNodeRed } from "../../tools/sandbox";
import { eventually } from "../support/outcome";
import { nodeBinary, redJs } from "../support/runtime";

const CLOSE = "local POST /api/env/close";
/** "Soon after it starts again", on a busy 2-core machine. */
const SOON_MS = 10_000;

/**
 * A real Node-RED process, stopped and started again, with Node-RED's own `localfilesystem` context
 * store: a lease that ran out while Node-RED was down closes its profile soon after the restart; one
 * that did not keeps its deadline.
 */
describe("nodes: leases across a Node-RED restart (localfilesystem context store)", function () {
  this.timeout(120_000);
  let work: string;
  let emulator: Emulator;
  let nodeRed: RunningNodeRed | undefined;

  before(async () => {
    work = mkdtempSync(join(tmpdir(), "morelogin-lease-restart-"));
    const userDir = join(work, "user");
    mkdirSync(join(userDir, "node_modules"), { recursive: true });
    writeFileSync(join(userDir, "package.json"), JSON.stringify({ name: "lease-restart", private: true }));
    symlinkSync(ROOT, join(userDir, "node_modules", "node-red-contrib-morelogin"), "dir");
    emulator = await startEmulator({ profiles: 4 });
  });

  after(async () => {
    await nodeRed?.stop();
    await emulator?.close();
    rmSync(work, { recursive: true, force: true });
  });

  const start = async (port: number): Promise<RunningNodeRed> =>
    startNodeRed({ userDir: join(work, "user"), port, node: nodeBinary, redJs, settings: { contextStorage: { default: { module: "localfilesystem" } } } });
  const running = (envId: string): boolean => emulator.running().some((row) => row.envId === envId);
  const closes = (): number => emulator.stats.requests[CLOSE] ?? 0;

  it("closes what ran out while Node-RED was down soon after it starts again; the others keep their deadlines; a session started by hand meanwhile runs on", async () => {
    const port = await freePort();
    const [short, long, byHand] = emulator.data.profiles.map((profile) => profile.id);
    assert.ok(short && long && byHand);
    // POST /start/<seconds> with the profile ID as the body starts it with that lease.
    const flows: FlowNode[] = [
      { id: "tab", type: "tab", label: "leases" },
      { id: "server", type: "morelogin-config", name: "emulator", localUrl: emulator.localUrl, openUrl: emulator.openUrl, localRpm: "0" },
      { id: "in", type: "http in", z: "tab", url: "/start/:lease", method: "post", wires: [["lease"]] },
      { id: "lease", type: "change", z: "tab", rules: [{ t: "set", p: "lease", pt: "msg", to: "req.params.lease", tot: "msg" }], wires: [["start"]] },
      { id: "start", type: "morelogin-start-profile", z: "tab", server: "server", wires: [["reply"]] },
      { id: "reply", type: "http response", z: "tab", wires: [] },
    ];
    nodeRed = await start(port);
    await deployAndStart(nodeRed, flows);
    const startWith = async (envId: string, lease: number): Promise<void> => {
      const response = await fetch(`${nodeRed?.url}/start/${lease}`, { method: "POST", headers: { "content-type": "text/plain" }, body: envId });
      assert.equal(response.status, 200, await response.text());
    };
    // Entered first, so after the restart its lease is dealt with before the short one's.
    await startWith(byHand, 3);
    await startWith(short, 3);
    const shortEnds = Date.now() + 3_000;
    await startWith(long, 600);
    await nodeRed.stop();
    nodeRed = undefined;

    // Down past the short lease's end: nobody closed anything.
    await eventually(() => Date.now() > shortEnds + 500, "the short lease's end has passed while Node-RED is down");
    assert.equal(running(short), true);
    assert.equal(closes(), 0);
    // Meanwhile someone closes one profile by hand and starts it again: a session of their own.
    await fetch(`${emulator.localUrl}/api/env/close`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ envId: byHand }) });
    await fetch(`${emulator.localUrl}/api/env/start`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ envId: byHand }) });
    assert.equal(running(byHand), true);

    nodeRed = await start(port);
    const restarted = Date.now();
    await eventually(() => !running(short), "the lease that ran out while down closed its profile");
    assert.ok(Date.now() - restarted <= SOON_MS, `soon after the restart (${Date.now() - restarted} ms)`);
    assert.equal(running(long), true, "the 600 s lease keeps its deadline");
    // The warning follows the close's reply: wait for it in the log, as a person reading it would.
    const warning = new RegExp(`lease of 3 s on profile ${short} ran out`);
    await eventually(() => warning.test(nodeRed?.output() ?? ""), "the start node's warning names the profile and its lease");
    assert.equal(running(byHand), true, "the session started by hand while Node-RED was down runs on");
    assert.equal(closes(), 2, "the hand-made close and the short lease's");
  });
});
