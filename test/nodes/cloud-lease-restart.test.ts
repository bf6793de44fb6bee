import assert from "node:assert/strict";
import { linkedUserDir } from "../support/user-dir";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmulator, type Emulator } from "../../src/emulator";
import { deployAndStart, freePort, startNodeRed, type FlowNode, type RunningNodeRed } from "../../tools/sandbox";
import { call, dataOf } from "../support/http";
import { waitUntil } from "../support/wait-until";
import { nodeBinary, redJs } from "../support/runtime";

const STOP = "local POST /api/cloudbrowser/stop";
const PAGE = "/api/cloudbrowser/page";
const CONFIG = "server";

/**
 * A real Node-RED process on its default settings, killed with SIGKILL while a cloud browser it started
 * under a lease runs: after the restart the lease, read back from `<userDir>/morelogin/`, stops it.
 */
describe("nodes: a cloud browser's lease across a crash of Node-RED (default settings)", function () {
  this.timeout(120_000);
  let work: string;
  let userDir: string;
  let emulator: Emulator;
  let nodeRed: RunningNodeRed | undefined;

  beforeEach(async () => {
    work = mkdtempSync(join(tmpdir(), "morelogin-cloud-lease-restart-"));
    userDir = linkedUserDir(work, "cloud-lease-restart");
    emulator = await startEmulator({ profiles: 6, phoneBootMs: 300 });
  });

  afterEach(async () => {
    await nodeRed?.stop();
    nodeRed = undefined;
    await emulator?.close();
    rmSync(work, { recursive: true, force: true });
  });

  const start = async (port: number): Promise<RunningNodeRed> => startNodeRed({ userDir, port, node: nodeBinary, redJs });
  const stateOf = async (envId: string): Promise<string> => {
    const page = dataOf<{ dataList: Array<{ id: string; cloudBrowserStatus: string; cloudBrowserArchiveStatus: string | null }> }>(
      await call(emulator.localUrl, PAGE, { body: { pageNo: 1, pageSize: 10, envId } }),
    );
    const row = page.dataList.find((item) => item.id === envId);
    assert.ok(row, `a row for ${envId}`);
    return `${row.cloudBrowserStatus}/${row.cloudBrowserArchiveStatus}`;
  };
  const stops = (): number => emulator.stats.requests[STOP] ?? 0;
  // POST /start/<seconds> with the profile ID as the body starts it in the cloud with that lease.
  const flows = (): FlowNode[] => [
    { id: "tab", type: "tab", label: "cloud leases" },
    { id: CONFIG, type: "morelogin-config", name: "emulator", localUrl: emulator.localUrl, openUrl: emulator.openUrl, localRpm: "0" },
    { id: "in", type: "http in", z: "tab", url: "/start/:lease", method: "post", wires: [["lease"]] },
    { id: "lease", type: "change", z: "tab", rules: [{ t: "set", p: "lease", pt: "msg", to: "req.params.lease", tot: "msg" }], wires: [["start"]] },
    { id: "start", type: "morelogin-start-profile", z: "tab", server: CONFIG, where: "cloud", wires: [["reply"]] },
    { id: "reply", type: "http response", z: "tab", wires: [] },
  ];

  it("a lease granted just before a SIGKILL stops the cloud browser after the restart", async () => {
    const port = await freePort();
    const envId = emulator.data.profiles.find((profile) => profile.proxy !== null)?.id;
    assert.ok(envId, "a profile with a proxy");
    nodeRed = await start(port);
    await deployAndStart(nodeRed, flows());
    // The lease is given again when the browser runs, after this moment: it cannot end before this.
    const earliest = Date.now() + 2_000;
    const response = await fetch(`${nodeRed.url}/start/2`, { method: "POST", headers: { "content-type": "text/plain" }, body: envId });
    assert.equal(response.status, 200, await response.text());
    assert.equal(await stateOf(envId), "RUNNING/null");
    // The start's reply has left: the lease is on disk. Killed at once, nothing is written on the way out.
    await nodeRed.kill();
    assert.match(await nodeRed.exited, /SIGKILL/);
    nodeRed = undefined;
    assert.ok(existsSync(join(userDir, "morelogin", `leases-${CONFIG}.journal`)), "the leases' journal is in <userDir>/morelogin");
    assert.equal(await stateOf(envId), "RUNNING/null", "nothing stopped it while Node-RED was down");
    assert.equal(stops(), 0);

    nodeRed = await start(port);
    await waitUntil(async () => (await stateOf(envId)) === "CLOSED/COMPLETED", "the lease granted before the crash stopped the cloud browser, and it archived");
    assert.ok(Date.now() >= earliest, "not before its deadline");
    assert.equal(stops(), 1, "stopped once");
    await waitUntil(() => new RegExp(`lease of 2 s on the cloud browser of profile ${envId} ran out`).test(nodeRed?.output() ?? ""), "the start node's warning names the profile and its lease");
  });
});
