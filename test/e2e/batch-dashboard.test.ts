import assert from "node:assert/strict";
import { join } from "node:path";
import type { Locator, Page } from "playwright-core";
import { batchDashboardFlow, batchUserDir, startWithFileContext } from "../support/batch-flow";
import { assertTablesFit, useDashboardPage } from "../support/dashboard-page";
import { startRedis, type RunningRedis } from "../support/redis";
import { waitUntil } from "../support/wait-until";

const PAGE_PATH = "/dashboard/batch";
/** Where screenshots go: test-results/, or docs/images/ for `npm run docs:screenshots`. */
const SHOTS = process.env.MORELOGIN_SCREENSHOTS_DIR || join(__dirname, "..", "..", "test-results");

describe("dashboard: example 16's batch page, in chromium", function () {
  this.timeout(180_000);
  const dashboard = useDashboardPage({
    unopened: "the batch page",
    shots: "batch-dashboard",
    work: () => batchUserDir("morelogin-batch-dashboard-", { dashboard: true }),
    // The example's group, Group 4, holds every sixth profile: 120 give it 20, two at a time, 2 s each,
    // a run of about 20 s, long enough to press Pause in the middle.
    emulator: { profiles: 120 },
    nodeRed: startWithFileContext,
    flow: batchDashboardFlow,
    path: PAGE_PATH,
    ready: () => button("Pause").waitFor(),
  });

  const widgetId = (name: string): string => {
    const node = dashboard.flow.find((candidate) => candidate.name === name && candidate.type.startsWith("ui-"));
    assert.ok(node, `the example has a widget named ${name}`);
    return node.id;
  };
  const widget = (name: string): Locator => dashboard.page.locator(`#nrdb-ui-widget-${widgetId(name)}`);
  const button = (label: string): Locator => widget(label).locator("button");
  const percent = async (): Promise<number> => Number(await widget("Progress").locator('[role="progressbar"]').getAttribute("aria-valuenow"));
  const runText = (): Promise<string> => widget("Where the run is").innerText();
  const starts = (): number => dashboard.emulator.requestLog.filter((request) => request.path === "/api/env/start").length;

  async function until(condition: () => Promise<boolean>, what: string): Promise<void> {
    try {
      await waitUntil(condition, what, 60_000);
    } catch (error) {
      assert.fail(`${error instanceof Error ? error.message : String(error)}; the page says "${await runText().catch(() => "?")}"`);
    }
  }

  it("the bar moves as profiles end, Pause stops new ones, Resume carries on, Cancel ends the run; failures show in the table and by reason, in English and Chinese", async () => {
    // The first two starts get HTTP 503 (a start is never sent twice): two failures for the table, with one reason.
    dashboard.emulator.script({ kind: "http503", api: "local", path: "/api/env/start", times: 2 });
    const inject = dashboard.flow.find((node) => node.type === "inject");
    assert.ok(inject);
    assert.equal((await fetch(`${dashboard.nodeRed.url}/inject/${inject.id}`, { method: "POST" })).status, 200);

    await until(async () => (await percent()) > 0, "the bar moving");
    // A batch on this Node-RED alone has no workers: their table stays hidden.
    assert.equal(await widget("Workers").count(), 0, "no workers table without a queue");
    await button("Pause").click();
    // Those out come back and are counted; nothing new goes out while some still wait.
    await until(async () => /paused · 0 running, [1-9]\d* waiting/.test(await runText()), "the page saying paused, none running, some waiting");
    const text = await runText();
    const ended = Number(/(\d+) of 20 ·/.exec(text)?.[1]);
    assert.ok(ended > 0 && ended < 20, text);
    assert.equal(starts(), ended, "every profile sent out was started once, and none after the pause");
    const pausedAt = await percent();
    assert.equal(pausedAt, Math.round((ended / 20) * 100));

    await button("Resume").click();
    await until(async () => (await percent()) > pausedAt, "the bar moving again after Resume");
    await button("Cancel").click();
    await until(async () => /· cancelled ·/.test(await runText()), "the page saying cancelled");
    assert.match(await runText(), /\b20 of 20 · 2 failed · cancelled · 0 running, 0 waiting$/);
    assert.equal(await percent(), 100);
    const rows = widget("Failures").locator("tbody tr");
    await rows.nth(1).waitFor();
    assert.equal(await rows.count(), 2);
    assert.match(await rows.first().innerText(), /start profile failed/);
    const failed = (await rows.locator("td:first-child").allInnerTexts()).map((text) => text.trim()).sort();
    const reason = (await rows.first().locator("td").last().innerText()).trim();
    assert.equal((await rows.nth(1).locator("td").last().innerText()).trim(), reason, "one reason for both");
    // The same failures by reason: one reason, counted twice, both profiles under it.
    const byReason = async (page: Page): Promise<string> => (await page.locator(`#nrdb-ui-widget-${widgetId("Failures by reason")}`).innerText()).replace(/\s+/g, " ").trim();
    await until(async () => (await byReason(dashboard.page)).includes("2 failed"), "the failures by reason");
    assert.equal(await byReason(dashboard.page), `By reason 2 failed · ${reason} Items: ${failed.join(", ")}`.replace(/\s+/g, " "));
    // A browser set to Chinese gets the same in Chinese.
    const chinese = await dashboard.page.context().browser()?.newContext({ locale: "zh-CN" });
    assert.ok(chinese);
    try {
      const page = await chinese.newPage();
      await page.goto(dashboard.page.url(), { waitUntil: "domcontentloaded" });
      await waitUntil(
        () => byReason(page),
        (text) => text.includes("个失败"),
        "the failures by reason in Chinese",
        60_000,
      );
      assert.equal(await byReason(page), `按原因 2 个失败 · ${reason} 项目：${failed.join(", ")}`.replace(/\s+/g, " "));
    } finally {
      await chinese.close();
    }
    // The chart got its points: at least one line was drawn.
    assert.ok((await widget("Rate").locator("canvas").count()) > 0, "the rate chart is drawn");
    assert.deepEqual(dashboard.emulator.running(), [], "every profile started was closed");
    assert.deepEqual(dashboard.errors, []);
  });

  it("every column of the failures table and the whole run text show, at 1280 px and at a phone's 390 px, with no navigation drawer over them", async () => {
    await assertTablesFit(dashboard.page, { tables: 1, phoneShot: join(SHOTS, "batch-dashboard-phone.png") });
    await dashboard.page.screenshot({ path: join(SHOTS, "batch-dashboard.png") });
  });
});

describe("dashboard: example 16's batch page for a batch on a queue (a real Redis), in chromium", function () {
  this.timeout(180_000);
  let redis: RunningRedis | undefined;
  // Registered before the page's hooks, so Redis is up when the flow is deployed.
  before(async () => {
    redis = await startRedis();
  });
  const dashboard = useDashboardPage({
    unopened: "the batch page",
    shots: "batch-dashboard-workers",
    work: () => batchUserDir("morelogin-batch-workers-", { dashboard: true }),
    // Six profiles of the example's group (every sixth of 36) two at a time, 2 s each: a short run.
    emulator: { profiles: 36 },
    nodeRed: startWithFileContext,
    // Example 16 with its batch node on a queue: this Node-RED is the one worker, named e2e-worker.
    flow: (emulator) => {
      assert.ok(redis, "Redis runs");
      const queue = { id: "e2e-queue", type: "morelogin-queue", name: "", url: redis.url, worker: "e2e-worker", workerTimeout: "30" };
      return [...batchDashboardFlow(emulator).map((node) => (node.type === "morelogin-batch" ? { ...node, queue: queue.id } : node)), queue];
    },
    path: PAGE_PATH,
    ready: async () => undefined,
  });
  // Registered after the page's hooks: Redis stops once Node-RED has.
  after(async () => {
    await redis?.stop();
  });

  const widget = (name: string): Locator => {
    const node = dashboard.flow.find((candidate) => candidate.name === name && candidate.type.startsWith("ui-"));
    assert.ok(node, `the example has a widget named ${name}`);
    return dashboard.page.locator(`#nrdb-ui-widget-${node.id}`);
  };

  it("lists the Node-REDs working the batch, with what each has running, done and failed", async () => {
    const inject = dashboard.flow.find((node) => node.type === "inject");
    assert.ok(inject);
    assert.equal((await fetch(`${dashboard.nodeRed.url}/inject/${inject.id}`, { method: "POST" })).status, 200);
    await waitUntil(
      () => widget("Where the run is").innerText(),
      (text) => /\b6 of 6 · done · 0 running, 0 waiting$/.test(text),
      "the page saying the run is done",
      90_000,
    );
    const rows = widget("Workers").locator("tbody tr");
    await waitUntil(
      () => rows.count(),
      (count) => count === 1,
      "one row in the workers table",
      30_000,
    );
    assert.deepEqual(await widget("Workers").locator("thead th").allInnerTexts(), ["Node-RED", "Running", "Done", "Failed"]);
    const cells = async (): Promise<string> => (await rows.first().locator("td").allInnerTexts()).map((text) => text.trim()).join(" | ");
    await waitUntil(cells, (text) => text === "e2e-worker | 0 | 6 | 0", "the worker's row counting the whole run", 30_000);
    assert.equal(dashboard.emulator.requestLog.filter((request) => request.path === "/api/env/start").length, 6, "each profile started once");
    assert.deepEqual(dashboard.errors, []);
  });
});
