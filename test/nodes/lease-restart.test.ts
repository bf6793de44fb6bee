import assert from "node:assert/strict";
import { linkedUserDir } from "../support/user-dir";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmulator, type Emulator } from "../../src/emulator";
import { deployAndStart, freePort, startNodeRed, type FlowNode, type RunningNodeRed } from "../../tools/sandbox";
import { waitUntil } from "../support/wait-until";
import { nodeBinary, redJs } from "../support/runtime";

const CLOSE = "local POST /api/env/close";
/** "Soon after it starts again", on a busy 2-core machine. */
const SOON_MS = 10_000;
const CONFIG = "server";

/**
 * A real Node-RED process on its default settings (no context store: memory), stopped, or killed with
 * SIGKILL, and started again: a lease that ran out while Node-RED was down closes its profile soon after
 * the restart; one that did not keeps its deadline; a session started by hand meanwhile is left alone.
 * The leases live in `<userDir>/morelogin/`, written before the start's reply leaves.
 */
describe("nodes: leases across a Node-RED restart and a crash (default settings)", function () {
  this.timeout(120_000);
  let work: string;
  let userDir: string;
  let emulator: Emulator;
  let nodeRed: RunningNodeRed | undefined;

  beforeEach(async () => {
    work = mkdtempSync(join(tmpdir(), "morelogin-lease-restart-"));
    userDir = linkedUserDir(work, "lease-restart");
    emulator = await startEmulator({ profiles: 4 });
  });

  afterEach(async () => {
    await nodeRed?.stop();
    nodeRed = undefined;
    await emulator?.close();
    rmSync(work, { recursive: true, force: true });
  });

  const start = async (port: number, settings: Record<string, unknown> = {}): Promise<RunningNodeRed> => startNodeRed({ userDir, port, node: nodeBinary, redJs, settings });
  const running = (envId: string): boolean => emulator.running().some((row) => row.envId === envId);
  const closes = (): number => emulator.stats.requests[CLOSE] ?? 0;
  const byHand = async (path: "close" | "start", envId: string): Promise<void> => {
    const response = await fetch(`${emulator.localUrl}/api/env/${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ envId }) });
    assert.equal(response.status, 200);
  };
  // POST /start/<seconds> with the profile ID as the body starts it with that lease.
  const flows = (): FlowNode[] => [
    { id: "tab", type: "tab", label: "leases" },
    { id: CONFIG, type: "morelogin-config", name: "emulator", localUrl: emulator.localUrl, openUrl: emulator.openUrl, localRpm: "0" },
    { id: "in", type: "http in", z: "tab", url: "/start/:lease", method: "post", wires: [["lease"]] },
    { id: "lease", type: "change", z: "tab", rules: [{ t: "set", p: "lease", pt: "msg", to: "req.params.lease", tot: "msg" }], wires: [["start"]] },
    { id: "start", type: "morelogin-start-profile", z: "tab", server: CONFIG, wires: [["reply"]] },
    { id: "reply", type: "http response", z: "tab", wires: [] },
  ];
  const startWith = async (envId: string, lease: number): Promise<void> => {
    const response = await fetch(`${nodeRed?.url}/start/${lease}`, { method: "POST", headers: { "content-type": "text/plain" }, body: envId });
    assert.equal(response.status, 200, await response.text());
  };
  const warned = (envId: string, lease: string): Promise<void> =>
    waitUntil(() => new RegExp(`lease of ${lease} on profile ${envId} ran out`).test(nodeRed?.output() ?? ""), "the start node's warning names the profile and its lease");

  it("closes what ran out while Node-RED was down soon after it starts again; the others keep their deadlines; a session started by hand meanwhile runs on", async () => {
    const port = await freePort();
    const [short, long, restartedByHand] = emulator.data.profiles.map((profile) => profile.id);
    assert.ok(short && long && restartedByHand);
    nodeRed = await start(port);
    await deployAndStart(nodeRed, flows());
    // Entered first, so after the restart its lease is dealt with before the short one's.
    await startWith(restartedByHand, 3);
    await startWith(short, 3);
    const shortEnds = Date.now() + 3_000;
    await startWith(long, 600);
    await nodeRed.stop();
    nodeRed = undefined;

    // Down past the short lease's end: nobody closed anything.
    await waitUntil(() => Date.now() > shortEnds + 500, "the short lease's end has passed while Node-RED is down");
    assert.equal(running(short), true);
    assert.equal(closes(), 0);
    // Meanwhile someone closes one profile by hand and starts it again: a session of their own.
    await byHand("close", restartedByHand);
    await byHand("start", restartedByHand);

    nodeRed = await start(port);
    const restarted = Date.now();
    await waitUntil(() => !running(short), "the lease that ran out while down closed its profile");
    assert.ok(Date.now() - restarted <= SOON_MS, `soon after the restart (${Date.now() - restarted} ms)`);
    assert.equal(running(long), true, "the 600 s lease keeps its deadline");
    // The warning follows the close's reply: wait for it in the log, as a person reading it would.
    await warned(short, "3 s");
    assert.equal(running(restartedByHand), true, "the session started by hand while Node-RED was down runs on");
    assert.equal(closes(), 2, "the hand-made close and the short lease's");
  });

  it("a lease granted just before a SIGKILL closes its profile after the restart", async () => {
    const port = await freePort();
    const [envId] = emulator.data.profiles.map((profile) => profile.id);
    assert.ok(envId);
    nodeRed = await start(port);
    await deployAndStart(nodeRed, flows());
    // The lease starts when the start is answered: after this moment.
    const ends = Date.now() + 2_000;
    await startWith(envId, 2);
    // The start's reply has left: the lease is on disk. Killed at once, nothing is written on the way out.
    await nodeRed.kill();
    assert.match(await nodeRed.exited, /SIGKILL/);
    nodeRed = undefined;
    assert.ok(existsSync(join(userDir, "morelogin", `leases-${CONFIG}.journal`)), "the leases' journal is in <userDir>/morelogin");
    assert.equal(running(envId), true);

    nodeRed = await start(port);
    await waitUntil(() => !running(envId), "the lease granted before the crash closed its profile");
    assert.ok(Date.now() >= ends, "not before its deadline");
    await warned(envId, "2 s");
    assert.equal(closes(), 1);
    // Deployed without its config node: the journal goes with it.
    await deployAndStart(nodeRed, [{ id: "tab", type: "tab", label: "leases" }]);
    assert.equal(existsSync(join(userDir, "morelogin", `leases-${CONFIG}.journal`)), false, "the journal is deleted with its config node");
  });

  it("takes over, once, a lease 0.4 kept in the config node's context (localfilesystem store)", async () => {
    const port = await freePort();
    const [envId] = emulator.data.profiles.map((profile) => profile.id);
    assert.ok(envId);
    // What 0.4 left: a lease that ran out, in the config node's context on disk, and its profile running.
    await byHand("start", envId);
    const lapsed = { kind: "profiles", id: envId, api: "local", since: Date.now() - 60_000, until: Date.now() - 30_000, seconds: 30, owner: "start" };
    const contextFile = join(userDir, "context", CONFIG, "flow.json");
    mkdirSync(join(userDir, "context", CONFIG), { recursive: true });
    writeFileSync(contextFile, JSON.stringify({ moreloginLeases: [lapsed] }));
    writeFileSync(join(userDir, "flows.json"), JSON.stringify(flows()));
    // The journal in the folder settings.js names.
    const stateDir = join(work, "state");
    const settings = { contextStorage: { default: { module: "localfilesystem" } }, morelogin: { stateDir } };

    nodeRed = await start(port, settings);
    await waitUntil(() => !running(envId), "the lease taken over from the context closed its profile");
    await warned(envId, "30 s");
    await nodeRed.stop();
    nodeRed = undefined;
    assert.equal(JSON.parse(readFileSync(contextFile, "utf8")).moreloginLeases, undefined, "the context no longer holds it");
    assert.ok(existsSync(join(stateDir, `leases-${CONFIG}.journal`)), "the journal is in morelogin.stateDir");
    assert.equal(existsSync(join(userDir, "morelogin")), false, "and nowhere else");

    // Started by hand again: the lease is not taken over a second time.
    await byHand("start", envId);
    nodeRed = await start(port, settings);
    await startWith(emulator.data.profiles[1]?.id ?? "", 1);
    await warned(emulator.data.profiles[1]?.id ?? "", "1 s");
    assert.equal(running(envId), true, "the profile started by hand after the takeover runs on");
    assert.equal(closes(), 2, "the hand-made start is not closed: one close per lease");
  });
});
