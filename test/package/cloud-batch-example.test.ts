import assert from "node:assert/strict";
import { EXAMPLE_CONFIG_ID, deployAndStart, loadExamples, type FlowNode } from "../../tools/sandbox";
import { DEMO_EMULATOR_OPTIONS } from "../../tools/start-args";
import { useInstalledExample } from "../support/installed-example";
import { CHROMIUM } from "../support/chromium";
import { QUICK_TIMINGS } from "../support/emulator";
import { type DebugSidebar, sidebarUntil } from "../support/debug-sidebar";
import { call, dataOf } from "../support/http";
import { runtimeLabel } from "../support/runtime";
import { waitUntil } from "../support/wait-until";

const EXAMPLE = "21 Cloud browsers, a batch";
/** npm start's data has 11 profiles with a proxy; the example's comment says to start the emulator with 50 profiles for 20. */
const PROFILES = 50;
const BATCH = 20;
/** The emulator's price list (src/emulator/demo-table.ts) has eight rows. */
const TABLE_ROWS = 8;

interface TableNote {
  profile: string;
  envId: string;
  rows: number;
  error?: string;
}

/**
 * The example as a user runs it: installed from the tarball, deployed alone on its tab, its inject pressed,
 * the Debug sidebar read. Each of its 20 cloud browsers opens a page and reads a table, so each needs a real
 * browser: 20 Chromium starts (the headless shell, about 0.7 CPU-s each), four at a time as the batch runs
 * them, and only while the example runs (the emulator gets its browser just for that).
 */
describe(`example 21 Cloud browsers, a batch: installed from its tarball into ${runtimeLabel}`, function () {
  this.timeout(240_000);
  const installed = useInstalledExample("morelogin-cloud-example-", { ...DEMO_EMULATOR_OPTIONS, ...QUICK_TIMINGS, profiles: PROFILES });

  /** The example alone on its tab, its config node pointed at the emulator (npm start's pacing: the config node's default). */
  async function deployExample(): Promise<FlowNode[]> {
    const examples = loadExamples({ localUrl: installed().emulator.localUrl, openUrl: installed().emulator.openUrl });
    const nodes = examples.byExample.get(EXAMPLE);
    const tab = examples.flows.find((node) => node.type === "tab" && node.label === EXAMPLE);
    const config = examples.flows.find((node) => node.id === EXAMPLE_CONFIG_ID);
    assert.ok(nodes && tab && config, `the example "${EXAMPLE}" exists`);
    await deployAndStart(installed().nodeRed, [tab, ...nodes, { ...config, credentials: installed().emulator.credentials }]);
    return nodes;
  }

  /** Every profile's cloud browser as the page lists it. */
  const cloudRows = async (): Promise<Array<Record<string, unknown>>> => {
    const rows: Array<Record<string, unknown>> = [];
    for (let pageNo = 1; rows.length < PROFILES; pageNo++) {
      const page = dataOf<{ dataList: Array<Record<string, unknown>> }>(await call(installed().emulator.localUrl, "/api/cloudbrowser/page", { body: { pageNo, pageSize: 100 } }));
      if (page.dataList.length === 0) break;
      rows.push(...page.dataList);
    }
    return rows;
  };

  it("20 profiles with a proxy, each started in the cloud: 20 tables extracted, the summary in the Debug sidebar, every cloud browser CLOSED after", async () => {
    const withProxy = installed()
      .emulator.data.profiles.filter((profile) => profile.proxy !== null)
      .map((profile) => profile.id);
    assert.ok(withProxy.length >= BATCH, `the emulator has ${withProxy.length} profiles with a proxy`);
    const logFrom = installed().nodeRed.output().length;
    const nodes = await deployExample();
    assert.doesNotMatch(installed().nodeRed.output().slice(logFrom), /\[error\]|\[warn\]/, "deployed without an error or a warning");

    const inject = nodes.find((node) => node.type === "inject");
    assert.ok(inject);
    const from = installed().sidebar.mark();
    installed().emulator.setBrowser(CHROMIUM);
    let messages: Awaited<ReturnType<DebugSidebar["since"]>>;
    try {
      assert.equal((await fetch(`${installed().nodeRed.url}/inject/${inject.id}`, { method: "POST" })).status, 200);
      messages = await sidebarUntil(
        () => installed().sidebar.since(from, nodes),
        (shown) => shown.some((message) => message.name === "summary" || message.name === "error"),
        200_000,
        (shown) => `no summary in time; the sidebar got ${JSON.stringify(shown.slice(-5)).slice(0, 2000)}`,
      );
    } finally {
      installed().emulator.setBrowser(undefined);
    }
    const valuesOf = (name: string): unknown[] => messages.filter((message) => message.name === name).map((message) => message.value);
    assert.deepEqual(valuesOf("error"), [], "no profile failed");
    assert.deepEqual(valuesOf("summary"), [`${BATCH} tables extracted`]);

    const tables = valuesOf("each table") as TableNote[];
    assert.equal(tables.length, BATCH, "one table a profile");
    assert.deepEqual(
      tables.filter((table) => table.rows !== TABLE_ROWS),
      [],
      `each table has the price list's ${TABLE_ROWS} rows`,
    );
    const profiles = new Set(tables.map((table) => table.envId));
    assert.equal(profiles.size, BATCH, "20 different profiles");
    for (const envId of profiles) assert.ok(withProxy.includes(envId), `${envId} has a proxy`);
    // Nothing ran on this machine: every start was a cloud start.
    assert.equal(installed().emulator.stats.requests["local POST /api/env/start"] ?? 0, 0, "no local start");
    assert.equal(installed().emulator.stats.requests["local POST /api/cloudbrowser/start"], BATCH);

    // Closed: each was stopped, and once archived its row says CLOSED (COMPLETED); none is left running or starting.
    await waitUntil(async () => (await cloudRows()).every((row) => row.cloudBrowserStatus === "CLOSED"), "every cloud browser CLOSED", 30_000);
    const stopped = (await cloudRows()).filter((row) => profiles.has(String(row.id)));
    assert.deepEqual(
      stopped.map((row) => row.cloudBrowserArchiveStatus),
      Array(BATCH).fill("COMPLETED"),
    );
    // The cdpUrls' tokens (secrets) are in no line Node-RED logged.
    assert.doesNotMatch(installed().nodeRed.output().slice(logFrom), /token=[0-9a-f]{8}/);
  });
});
