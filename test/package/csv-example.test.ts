import assert from "node:assert/strict";
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { EXAMPLE_CONFIG_ID, deployAndStart, loadExamples, type FlowNode } from "../../tools/sandbox";
import { DEMO_EMULATOR_OPTIONS } from "../../tools/start-args";
import { useInstalledExample } from "../support/installed-example";
import { sidebarUntil, type DebugMessage } from "../support/debug-sidebar";
import { call, dataOf } from "../support/http";
import { runtimeLabel } from "../support/runtime";
import { BULK_BAD_ROWS, BULK_ROWS, bulkName, writeBulkCsv } from "../support/bulk-csv";

const EXAMPLE = "20 Create profiles from a CSV";

describe(`example 20 Create profiles from a CSV: installed from its tarball into ${runtimeLabel}`, function () {
  this.timeout(180_000);
  const installed = useInstalledExample("morelogin-csv-example-", DEMO_EMULATOR_OPTIONS);

  /** The example alone on its tab, its config node pointed at the emulator without pacing, its inject naming `csv` when given (as a user sets it). */
  async function deployExample(csv?: string): Promise<FlowNode[]> {
    const examples = loadExamples({ localUrl: installed().emulator.localUrl, openUrl: installed().emulator.openUrl, localRpm: "0", openRpm: "0" });
    const nodes = examples.byExample.get(EXAMPLE);
    const tab = examples.flows.find((node) => node.type === "tab" && node.label === EXAMPLE);
    const config = examples.flows.find((node) => node.id === EXAMPLE_CONFIG_ID);
    assert.ok(nodes && tab && config, `the example "${EXAMPLE}" exists`);
    const named = nodes.map((node) =>
      node.type === "inject" && csv !== undefined ? { ...node, props: (node.props as Array<{ p: string; v?: string }>).map((prop) => (prop.p === "filename" ? { ...prop, v: csv } : prop)) } : node,
    );
    await deployAndStart(installed().nodeRed, [tab, ...named, { ...config, credentials: installed().emulator.credentials }]);
    return named;
  }

  /** Presses the example's inject button and waits for its summary; gives every Debug message of the run. */
  async function press(nodes: FlowNode[]): Promise<DebugMessage[]> {
    const inject = nodes.find((node) => node.type === "inject");
    assert.ok(inject);
    const from = installed().sidebar.mark();
    assert.equal((await fetch(`${installed().nodeRed.url}/inject/${inject.id}`, { method: "POST" })).status, 200);
    return sidebarUntil(
      () => installed().sidebar.since(from, nodes),
      (shown) => shown.some((message) => message.name === "summary"),
      120_000,
      (shown) => `no summary in time; the sidebar got ${JSON.stringify(shown.slice(-5)).slice(0, 2000)}`,
    );
  }

  const detail = async (envName: string): Promise<Record<string, unknown>> => {
    const profile = installed().emulator.data.profiles.find((candidate) => candidate.envName === envName);
    assert.ok(profile, `a profile named "${envName}"`);
    return dataOf(await call(installed().emulator.localUrl, "/api/env/detail", { body: { envId: profile.id } }));
  };
  const idOf = <T extends { id: string }>(list: readonly T[], match: (entry: T) => boolean, what: string): string => {
    const found = list.find(match);
    assert.ok(found, what);
    return found.id;
  };
  const valuesOf = (messages: readonly DebugMessage[], name: string): unknown[] => messages.filter((message) => message.name === name).map((message) => message.value);

  it("as shipped, reads the sample CSV beside the installed package: four profiles with their fields, and the bad row fails alone, named", async () => {
    const logFrom = installed().nodeRed.output().length;
    const nodes = await deployExample();
    assert.doesNotMatch(installed().nodeRed.output().slice(logFrom), /\[error\]|\[warn\]/, "deployed without an error or a warning");
    const messages = await press(nodes);
    assert.deepEqual(valuesOf(messages, "summary"), ['4 profiles created, 1 failed: row 6 (MoreLogin has no group "No such group")']);
    assert.deepEqual(valuesOf(messages, "error"), [{ row: "row 6", error: 'MoreLogin has no group "No such group"' }]);

    const shop1 = await detail("CSV Shop 1");
    const { data } = installed().emulator;
    assert.equal(
      shop1.groupId,
      idOf(data.groups, (group) => group.groupName === "Group 1", "Group 1"),
    );
    assert.equal(
      shop1.proxyId,
      idOf(data.proxies, (proxy) => proxy.proxyName === "Proxy 001", "Proxy 001"),
    );
    assert.deepEqual(shop1.tagIds, [idOf(data.tags, (tag) => tag.tagName === "Shopping", "Shopping"), idOf(data.tags, (tag) => tag.tagName === "VIP", "VIP")]);
    const account = shop1.accountInfo as Record<string, unknown>;
    assert.deepEqual([account.username, account.password], ["shop1@example.com", "Sample-pass-1"]);
    assert.match(String(account.siteId), /^\d{19}$/);
    assert.deepEqual(
      (JSON.parse(String(shop1.cookies)) as Array<{ name: string; domain: string }>).map((cookie) => `${cookie.name}@${cookie.domain}`),
      ["session-id@.amazon.de", "i18n-prefs@.amazon.de"],
    );
    // The header-format cookies file names no site: its cookies go to the row's site.
    assert.deepEqual(
      (JSON.parse(String((await detail("CSV Shop 3")).cookies)) as Array<{ name: string; domain: string }>).map((cookie) => `${cookie.name}@${cookie.domain}`),
      ["c_user@facebook.com", "xs@facebook.com"],
    );
    assert.deepEqual((await detail("CSV Shop 4")).accountInfo, {
      platformId: "9999",
      customerUrl: "https://shop.example.jp",
      siteId: "0",
      username: "shop4",
      password: "Sample-pass-4",
      otpSecret: null,
    });
    // The passwords went from the CSV to MoreLogin only: not in Node-RED's log, not in the flows it saved.
    assert.doesNotMatch(installed().nodeRed.output().slice(logFrom), /Sample-pass/);
    assert.doesNotMatch(readFileSync(join(installed().work, "user", "flows.json"), "utf8"), /Sample-pass/);
  });

  it(`${BULK_ROWS} rows with ${BULK_BAD_ROWS.length} bad ones: ${BULK_ROWS - BULK_BAD_ROWS.length} profiles with their fields, each bad row failed alone and named`, async () => {
    const folder = join(installed().work, "bulk");
    mkdirSync(folder, { recursive: true });
    const csv = writeBulkCsv(folder, installed().emulator.data);
    const before = installed().emulator.data.profiles.length;
    const logFrom = installed().nodeRed.output().length;
    const messages = await press(await deployExample(csv));

    const [summary] = valuesOf(messages, "summary");
    const match = /^(\d+) profiles created, (\d+) failed: (.+)$/.exec(String(summary));
    assert.ok(match, `the summary: ${String(summary)}`);
    assert.deepEqual([Number(match[1]), Number(match[2])], [BULK_ROWS - BULK_BAD_ROWS.length, BULK_BAD_ROWS.length], String(summary));
    // Each failure, "row N (why)", names its row; the order is the order they ended in.
    const failures = new Map(
      String(match[3])
        .split(/; (?=row \d+ \()/)
        .map((failure) => {
          const parts = /^row (\d+) \((.*)\)$/.exec(failure);
          assert.ok(parts, `a failure names its row: ${failure}`);
          return [Number(parts[1]), String(parts[2])] as const;
        }),
    );
    assert.deepEqual([...failures.keys()].sort(), BULK_BAD_ROWS.map((bad) => bad.row).sort(), String(summary));
    for (const bad of BULK_BAD_ROWS) assert.match(String(failures.get(bad.row)), bad.error, `row ${bad.row}`);
    assert.equal(installed().emulator.data.profiles.length - before, BULK_ROWS - BULK_BAD_ROWS.length);
    for (const bad of BULK_BAD_ROWS)
      assert.equal(
        installed().emulator.data.profiles.some((profile) => profile.envName === bulkName(bad.row)),
        false,
        `row ${bad.row} made no profile`,
      );

    // A few rows' profiles, one of each cookies format, each with its own row's fields.
    const { data } = installed().emulator;
    for (const row of [2, 3, 4, 250, 501]) {
      const shown = await detail(bulkName(row));
      assert.equal(shown.groupId, data.groups[row % 3]?.id, `row ${row}'s group`);
      assert.deepEqual(shown.tagIds, [data.tags[row % data.tags.length]?.id], `row ${row}'s tag`);
      assert.equal(shown.proxyId, data.proxies[row % data.proxies.length]?.id, `row ${row}'s proxy`);
      const advanced = shown.advancedSetting as { time_zone: { switcher: number; value: string }; language: { switcher: number; value: string } };
      assert.equal(advanced.time_zone.switcher, 2);
      assert.match(advanced.time_zone.value, /^\d{19}$/);
      assert.equal(advanced.language.value.split(",").length, 2, `row ${row}'s two languages`);
      const account = shown.accountInfo as Record<string, unknown>;
      assert.deepEqual([account.username, account.password], [`user${row}`, `Bulk-pass-${row}`]);
      const cookies = JSON.parse(String(shown.cookies)) as Array<{ name: string; value: string }>;
      assert.deepEqual(
        cookies.map((cookie) => `${cookie.name}=${cookie.value}`),
        [`sid=row${row}`],
        `row ${row}'s cookies`,
      );
    }
    assert.doesNotMatch(installed().nodeRed.output().slice(logFrom), /Bulk-pass/);
  });
});
