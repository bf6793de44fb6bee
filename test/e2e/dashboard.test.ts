import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Locator } from "playwright-core";
import { packPackage, prepareUserDir, startNodeRed } from "../../tools/sandbox";
import { CONTROL_PANEL_PATH, controlPanelFlow, tableId } from "../support/control-panel";
import { assertTablesFit, useDashboardPage } from "../support/dashboard-page";
import { nodeBinary, redJs } from "../support/runtime";
import { waitUntil } from "../support/wait-until";

/** Where screenshots go: test-results/, or docs/images/ for `npm run docs:screenshots`. */
const RESULTS = join(__dirname, "..", "..", "test-results");
const SHOTS = process.env.MORELOGIN_SCREENSHOTS_DIR || RESULTS;
describe("dashboard: example 14's control panel, in chromium", function () {
  this.timeout(180_000);
  const dashboard = useDashboardPage({
    unopened: "the control panel",
    shots: "dashboard",
    work: () => mkdtempSync(join(tmpdir(), "morelogin-dashboard-")),
    // A phone boots for longer than two polls, so the page has time to show it starting.
    emulator: { profiles: 6, cloudPhones: 4, phoneBootMs: 6_000 },
    nodeRed: async (work) => {
      await prepareUserDir(join(work, "user"), await packPackage(join(work, "pack")), { fresh: true });
      return startNodeRed({ userDir: join(work, "user"), node: nodeBinary, redJs });
    },
    flow: (emulator) => {
      // The example's watches poll every 5 s; here every 2 s, so that waiting for a state costs less.
      const flow = controlPanelFlow(emulator).map((node) => (node.type === "morelogin-watch" ? { ...node, interval: "2" } : node));
      assert.equal(flow.filter((node) => node.type === "morelogin-watch").length, 2, "a watch of the profiles and one of the phones");
      return flow;
    },
    path: CONTROL_PANEL_PATH,
    consoleErrors: true,
    // The page is ready once both tables show every row: the list and the phones watch have filled them.
    ready: async ({ emulator }) => {
      await rows("Profiles")
        .nth(emulator.data.profiles.length - 1)
        .waitFor();
      await rows("Cloud phones")
        .nth(emulator.data.cloudPhones.length - 1)
        .waitFor();
    },
  });

  /** The body rows of the table with this name. */
  function rows(table: string): Locator {
    return dashboard.page.locator(`#nrdb-ui-widget-${tableId(dashboard.flow, table)} tbody tr`);
  }

  /** The row whose Name cell says `name`. */
  function row(table: string, name: string): Locator {
    return rows(table).filter({ has: dashboard.page.locator('td[data-column-key="name"]', { hasText: new RegExp(`^\\s*${name}\\s*$`) }) });
  }

  /** The row's State cell, once it says `state`. */
  function stateCell(table: string, name: string, state: string): Locator {
    return row(table, name)
      .locator('td[data-column-key="state"]')
      .filter({ hasText: new RegExp(`^\\s*${state}\\s*$`) });
  }

  /** The row's one button: the action that fits its state, or what is under way. */
  function button(table: string, name: string): Locator {
    return row(table, name).locator('td[data-column-key="action"] button');
  }

  /** Waits until the row's button says `label`. */
  async function waitForButton(table: string, name: string, label: string, timeout = 30_000): Promise<void> {
    await button(table, name)
      .filter({ hasText: new RegExp(`^\\s*${label}\\s*$`) })
      .waitFor({ timeout });
  }

  /** Waits until the row's State cell says `state`. */
  async function waitForState(table: string, name: string, state: string, timeout: number): Promise<void> {
    await stateCell(table, name, state).waitFor({ timeout });
  }

  /** The profiles watch's polls the emulator has received so far. */
  const polls = (): number => dashboard.emulator.stats.requests["local POST /api/env/getAllDebugInfo"] ?? 0;

  /**
   * Waits until the row says `state`, counted in the watch's own polls rather than in seconds (a busy
   * machine slows the polls and the page alike): the two polls that arrive after the change both see
   * it, so the row must have changed before a third one arrives.
   */
  async function waitForStateWithinTwoPolls(name: string, state: string): Promise<void> {
    const before = polls();
    const cell = stateCell("Profiles", name, state);
    // Bounded by the polls; the time bound is only the suite's.
    const shown = await waitUntil(
      () => cell.count(),
      (count) => count > 0 || polls() >= before + 3,
      `the row of ${name} says ${state}`,
      170_000,
    );
    if (shown === 0) assert.fail(`the row of ${name} did not say ${state} within two polls of the watch`);
  }

  const isRunning = (envId: string): boolean => dashboard.emulator.running().some((profile) => profile.envId === envId);

  it("a stopped row offers Start only; pressed, it says Starting… and a second press sends nothing; started, the row says running and offers Close", async () => {
    const profile = dashboard.emulator.data.profiles[2];
    assert.ok(profile && !isRunning(profile.id));
    await waitForState("Profiles", profile.envName, "stopped", 1_000);
    await waitForButton("Profiles", profile.envName, "Start", 1_000);
    assert.equal(await row("Profiles", profile.envName).locator("button").count(), 1, "one button on the row");
    // The start takes a moment, so that the press under way can be seen and pressed again.
    dashboard.emulator.script({ kind: "latency", api: "local", path: "/api/env/start", latencyMs: 3_000 });
    const starts = (): number => dashboard.emulator.stats.requests["local POST /api/env/start"] ?? 0;
    const startsBefore = starts();
    await button("Profiles", profile.envName).click();
    await waitForButton("Profiles", profile.envName, "Starting…");
    await button("Profiles", profile.envName).click();
    await waitUntil(() => isRunning(profile.id), "the emulator starting the profile", 30_000);
    await waitForStateWithinTwoPolls(profile.envName, "running");
    await waitForButton("Profiles", profile.envName, "Close");
    assert.equal(starts() - startsBefore, 1, "the press made while the start was under way sent nothing");
    assert.deepEqual(
      dashboard.emulator.running().map((running) => running.envId),
      [profile.id],
      "only the profile of that row started",
    );
  });

  it("a profile started by another client shows up running within two polls and offers Close, which stops it; then it offers Start", async () => {
    const profile = dashboard.emulator.data.profiles[4];
    assert.ok(profile);
    const started = await fetch(`${dashboard.emulator.localUrl}/api/env/start`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ envId: profile.id }) });
    assert.equal(started.status, 200);
    await waitForStateWithinTwoPolls(profile.envName, "running");
    await waitForButton("Profiles", profile.envName, "Close");

    await button("Profiles", profile.envName).click();
    await waitUntil(() => !isRunning(profile.id), "the emulator closing the profile", 30_000);
    await waitForStateWithinTwoPolls(profile.envName, "stopped");
    await waitForButton("Profiles", profile.envName, "Start");
  });

  it("a stopped phone offers Power on; pressed, it says Powering on…, then the phone shows starting with nothing to press, then running with Power off; the log lists both changes", async () => {
    const phone = dashboard.emulator.data.cloudPhones.find((candidate) => candidate.envStatus === 2);
    assert.ok(phone, "a phone that is off");
    await waitForButton("Cloud phones", phone.envName, "Power on", 1_000);
    dashboard.emulator.script({ kind: "latency", api: "local", path: "/api/cloudphone/powerOn", latencyMs: 3_000 });
    await button("Cloud phones", phone.envName).click();
    await waitForButton("Cloud phones", phone.envName, "Powering on…");
    await waitForState("Cloud phones", phone.envName, "starting", 30_000);
    await waitForButton("Cloud phones", phone.envName, "—");
    await waitForState("Cloud phones", phone.envName, "running", 30_000);
    await waitForButton("Cloud phones", phone.envName, "Power off");
    assert.equal(phone.envStatus, 4);
    const log = rows("Last watch events").filter({ has: dashboard.page.locator('td[data-column-key="name"]', { hasText: phone.envName }) });
    await log.filter({ hasText: /starting\s*→\s*running/ }).waitFor();
    await log.filter({ hasText: /stopped\s*→\s*starting/ }).waitFor();
  });

  it("a button for a profile that the table did not list starts nothing", async () => {
    // A real profile, made after the table was filled: only a page that made up its ID can name it.
    const created = await fetch(`${dashboard.emulator.localUrl}/api/env/create/quick`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ browserTypeId: 1, operatorSystemId: 1, quantity: 1 }),
    });
    const [unlisted] = ((await created.json()) as { data: string[] }).data;
    assert.ok(unlisted);
    const listed = dashboard.emulator.data.profiles[0];
    assert.ok(listed);
    const from = dashboard.nodeRed.output().length;
    // What anyone who can open the page can send through its socket: a listed row with another ID.
    const sent = await dashboard.page.evaluate(
      ({ widget, forged }) => {
        const app = (document.querySelector("#app") as unknown as { __vue_app__?: { _context: { provides: Record<string, { emit(...args: unknown[]): void } | undefined> } } }).__vue_app__;
        const socket = app?._context.provides.$socket;
        if (!socket) return false;
        socket.emit("widget-action", widget, { payload: forged, column: "action", action: "button_click" });
        return true;
      },
      { widget: tableId(dashboard.flow, "Profiles"), forged: { id: unlisted, name: listed.envName, group: "", state: "stopped", action: "Start" } },
    );
    assert.ok(sent, "the page has its socket");
    await waitUntil(() => dashboard.nodeRed.output().slice(from).includes("ignored a button for a profile the table did not list"), "the flow refusing the button", 30_000);
    assert.equal(isRunning(unlisted), false);
  });

  it("every column of every table shows, at 1280 px and at a phone's 390 px, with no navigation drawer over it", async () => {
    await assertTablesFit(dashboard.page, { tables: 3, phoneShot: join(SHOTS, "dashboard-phone.png") });
  });

  it("the page as docs/CONTROL-PANEL.md shows it, with no page error", async () => {
    await dashboard.page.screenshot({ path: join(SHOTS, "dashboard.png") });
    assert.deepEqual(dashboard.errors, []);
  });
});
