import { rmSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { startEmulator, type Emulator, type EmulatorOptions } from "../../src/emulator";
import { deployAndStart, type FlowNode, type RunningNodeRed } from "../../tools/sandbox";
import { launchChromium } from "../e2e/editor-session";
import { scaled } from "../../tools/test-limits";
import { browserSkipReason } from "./chromium";

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
