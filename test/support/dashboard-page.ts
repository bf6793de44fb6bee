import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { startEmulator, type Emulator, type EmulatorOptions } from "../../src/emulator";
import { deployAndStart, type FlowNode, type RunningNodeRed } from "../../tools/sandbox";
import { launchChromium } from "../e2e/editor-session";
import { scaled } from "../../tools/test-limits";
import { browserSkipReason } from "./chromium";
import { waitUntil } from "./wait-until";

const RESULTS = join(__dirname, "..", "..", "test-results");

export interface DashboardPageOptions {
  /** What stays unopened when the browser tests are skipped, e.g. "the batch page". */
  unopened: string;
  /** A failed test's screenshot is test-results/failed-<shots>-<test title>.png. */
  shots: string;
  /** The work folder, with Node-RED's user directory in it. */
  work: () => string | Promise<string>;
  emulator: EmulatorOptions;
  nodeRed: (work: string) => Promise<RunningNodeRed>;
  flow: (emulator: Emulator) => FlowNode[];
  /** The page's path under Node-RED's URL. */
  path: string;
  /** The browser's console errors count as errors too. */
  consoleErrors?: boolean;
  /** Waits until the page is ready for the first test. */
  ready: (dashboard: DashboardPage) => Promise<void>;
}

/** A suite's dashboard: set once its `before` has run. */
export interface DashboardPage {
  emulator: Emulator;
  nodeRed: RunningNodeRed;
  flow: FlowNode[];
  page: Page;
  /** The page's errors (and console errors with `consoleErrors`), for a test to assert there are none. */
  errors: string[];
}

/**
 * For a suite: an emulator, a real Node-RED running `flow`, and its dashboard page open in chromium;
 * a failed test's screenshot; everything stopped and removed after the suite. Skips the suite when
 * the browser tests are skipped on purpose.
 */
export function useDashboardPage(options: DashboardPageOptions): DashboardPage {
  const dashboard = { errors: [] as string[] } as DashboardPage;
  let work: string | undefined;
  let emulator: Emulator | undefined;
  let nodeRed: RunningNodeRed | undefined;
  let browser: Browser | undefined;

  before(async function () {
    const skipped = browserSkipReason();
    if (skipped) {
      console.log(`    browser tests skipped on purpose (${skipped}): ${options.unopened} was not opened`);
      this.skip();
    }
    work = await options.work();
    emulator = await startEmulator(options.emulator);
    dashboard.emulator = emulator;
    nodeRed = await options.nodeRed(work);
    dashboard.nodeRed = nodeRed;
    dashboard.flow = options.flow(emulator);
    await deployAndStart(nodeRed, dashboard.flow);
    browser = await launchChromium();
    const page = await browser.newPage({ viewport: { width: 1280, height: 960 } });
    dashboard.page = page;
    page.setDefaultTimeout(scaled(60_000));
    page.on("pageerror", (error) => dashboard.errors.push(`page error: ${error.message}`));
    if (options.consoleErrors) {
      page.on("console", (message) => {
        if (message.type() === "error") dashboard.errors.push(`console error: ${message.text()}`);
      });
    }
    await page.goto(`${nodeRed.url}${options.path}`, { waitUntil: "domcontentloaded" });
    await options.ready(dashboard);
  });

  afterEach(async function () {
    const page = dashboard.page as Page | undefined;
    if (this.currentTest?.state === "failed" && page) {
      await page.screenshot({ path: join(RESULTS, `failed-${options.shots}-${this.currentTest.title.replace(/\W+/g, "-").slice(0, 60)}.png`) }).catch(() => undefined);
    }
  });

  after(async () => {
    await browser?.close();
    await nodeRed?.stop();
    await emulator?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  return dashboard;
}

/** Where a table's columns end up in the window. */
interface TableLayout {
  /** How far (px) its widest row reaches past its own box: cut off or to be scrolled to. */
  overflow: number;
  /** How far (px) it reaches past the window's right edge. */
  pastWindow: number;
  /** Whether its first cell is what shows at its place, with nothing (Dashboard's navigation drawer) over it. */
  firstCellSeen: boolean;
}

function tableLayout(page: Page): Promise<TableLayout[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll("table")].map((table) => {
      const box = (table.parentElement ?? table).getBoundingClientRect();
      const rect = table.getBoundingClientRect();
      const first = table.querySelector("th, td")?.getBoundingClientRect();
      const seen = first ? document.elementFromPoint(first.left + 4, first.top + first.height / 2) : null;
      return { overflow: Math.round(rect.right - box.right), pastWindow: Math.round(rect.right - window.innerWidth), firstCellSeen: seen !== null && table.contains(seen) };
    }),
  );
}

const fits = (layout: TableLayout): boolean => layout.overflow <= 0 && layout.pastWindow <= 0;

/** The texts of the page's widgets that are cut short: with an ellipsis, or below their box's bottom edge. */
function cutTexts(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll('[id^="nrdb-ui-widget-"] *')]
      .filter((element): element is HTMLElement => element instanceof HTMLElement && (element.textContent ?? "").trim() !== "")
      .filter((element) => {
        const style = getComputedStyle(element);
        const ellipsis = style.textOverflow === "ellipsis" && element.scrollWidth > element.clientWidth + 1;
        const clipped = (style.overflowY === "hidden" || style.overflowY === "clip") && element.scrollHeight > element.clientHeight + 1;
        return ellipsis || clipped;
      })
      .map((element) => element.textContent ?? ""),
  );
}

/**
 * Every column of the page's `tables` tables shows at 1280 px, the first cell of each seen (no drawer
 * over it), and at a phone's 390 px (where the examples' tables turn into one card per row), where no
 * widget's text is cut short either; the phone's view is written to `phoneShot`. The window is 1280 px wide again afterwards.
 */
export async function assertTablesFit(page: Page, options: { tables: number; phoneShot: string }): Promise<void> {
  const desktop = await tableLayout(page);
  assert.equal(desktop.length, options.tables, `the page has ${options.tables} tables`);
  assert.ok(
    desktop.every((table) => fits(table) && table.firstCellSeen),
    `at 1280 px: ${JSON.stringify(desktop)}`,
  );
  try {
    await page.setViewportSize({ width: 390, height: 844 });
    // The tables switch to cards once they have measured their new width: wait for that.
    await waitUntil(
      () => tableLayout(page),
      (phone) => phone.every(fits),
      "every table fits at 390 px",
      30_000,
    );
    assert.deepEqual(await cutTexts(page), [], "no text cut short at 390 px");
    await page.screenshot({ path: options.phoneShot });
  } finally {
    await page.setViewportSize({ width: 1280, height: 960 });
  }
}
