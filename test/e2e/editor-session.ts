/**
 * A real Node-RED (the packed package installed from its tarball) with the emulator, driven in
 * Debian's chromium: the steps a user takes, shared by the browser tests and `npm run docs:screenshots`.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type Browser, type Page, type Request } from "playwright-core";
import { startEmulator, type Emulator, type EmulatorOptions } from "../../src/emulator";
import { CHROMIUM } from "../support/chromium";
import { nodeBinary, redJs } from "../support/runtime";
import { waitUntil } from "../support/wait-until";
import { packPackage, prepareUserDir, startNodeRed, type RunningNodeRed } from "../../tools/sandbox";
import { fileNow, heavySlot, keepUntilFileEnds, loadAverage, scaled, seconds } from "../../tools/test-limits";

export const LOCAL_TOKEN = "e2e-local-token";
export { browserSkipReason } from "../support/chromium";

export const LAUNCH_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-dev-shm-usage",
];

export interface EditorSession {
  page: Page;
  emulator: Emulator;
  nodeRed: RunningNodeRed;
  /**
   * What went wrong in the page so far: uncaught page errors, console errors, and the errors the editor
   * catches in a node's definition or dialog code and only logs ("Definition error: …", "oneditprepare …").
   */
  errors: string[];
  close(): Promise<void>;
}

interface Viewport {
  width: number;
  height: number;
}

const DEFAULT_VIEWPORT: Viewport = { width: 1280, height: 800 };

/** How the editor logs an exception it caught in a node type's definition or dialog functions. */
const CAUGHT_BY_EDITOR = /^(Definition error|Validation error|oneditprepare|oneditsave|oneditcancel|oneditdelete|oneditresize)\b/;

/** The errors that name this package: its node types, its editor script, icons, catalogs or admin endpoints. */
export const ourErrors = (errors: string[]): string[] => errors.filter((error) => /morelogin/i.test(error));

/**
 * `locale` is the browser's language (navigator.language), which the editor uses for its texts and help, e.g. "zh-CN".
 * `emulatorOptions` adds to the emulator's options, e.g. `{ browser }` for a real Chromium behind each started profile.
 */
export async function openEditor(viewport = DEFAULT_VIEWPORT, locale?: string, emulatorOptions: EmulatorOptions = {}): Promise<EditorSession> {
  const since = fileNow();
  const work = mkdtempSync(join(tmpdir(), "morelogin-e2e-"));
  // Everything started so far, ended in reverse whatever step fails: a failed hook leaves nothing behind,
  // and one that timed out while this went on gets it ended when its test file ends (keepUntilFileEnds).
  const started: Array<() => Promise<void>> = [async () => rmSync(work, { recursive: true, force: true })];
  const end = async (): Promise<void> => {
    for (let step = started.pop(); step; step = started.pop()) await step().catch(() => undefined);
  };
  try {
    const tarball = await packPackage(join(work, "pack"));
    await prepareUserDir(join(work, "user"), tarball, { fresh: true });
    // The info sidebar's tips off (the anonymous user's editor setting): Node-RED 5.0.7 can start their
    // timer before their box exists on a busy machine, an uncaught page error of its own, not ours.
    writeFileSync(join(work, "user", ".config.users.json"), JSON.stringify({ _: { editor: { view: { "view-show-tips": false } } } }));
    // The slot first: the emulator's Chromiums (with `browser`) count against it too.
    const release = await heavySlot(`an editor session in ${work}`);
    started.push(async () => release());
    const emulator = await startEmulator({ localToken: LOCAL_TOKEN, profiles: 12, ...emulatorOptions });
    started.push(() => emulator.close());
    const nodeRed = await startNodeRed({ userDir: join(work, "user"), node: nodeBinary, redJs });
    started.push(() => nodeRed.stop());
    const browser = await launchChromium();
    started.push(() => browser.close());
    const { page, errors } = await editorPage(browser, nodeRed.url, viewport, locale);
    const forget = keepUntilFileEnds(`an editor session in ${work}`, end, since);
    const close = async (): Promise<void> => {
      forget();
      await end();
    };
    return { page, emulator, nodeRed, errors, close };
  } catch (error) {
    await end();
    throw error;
  }
}

/**
 * One more editor on `session`'s Node-RED, in the same Chromium but in a browser context of its own (its
 * language, its storage): a second language costs a page, not another Node-RED and Chromium. Its close
 * closes that page only; the session's close ends the rest.
 */
export async function openEditorPage(session: EditorSession, locale?: string, viewport = DEFAULT_VIEWPORT): Promise<EditorSession> {
  const browser = session.page.context().browser();
  if (!browser) throw new Error("the editor session's page has no browser to open another page in");
  const { page, errors } = await editorPage(browser, session.nodeRed.url, viewport, locale);
  return { page, emulator: session.emulator, nodeRed: session.nodeRed, errors, close: () => page.close() };
}

/**
 * A page of `browser` in a context of its own with the editor loaded from `url`, its animations off and
 * its errors collected; closed again when the editor does not load.
 */
async function editorPage(browser: Browser, url: string, viewport: Viewport, locale: string | undefined): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage(locale ? { viewport, locale } : { viewport });
  try {
    // A bound for a step that never comes, not a race: each step waits for the page's own state, and
    // under coverage on a busy 2-core machine a dialog can take many seconds to build.
    page.setDefaultTimeout(scaled(60_000));
    // The editor's animations off (jQuery's and CSS transitions): each step already waits for the editor at
    // rest, so they only cost CPU, 15-20% of an editor session's Chromium (docs/DEVELOPMENT.md).
    await page.addInitScript(() => {
      window.addEventListener("DOMContentLoaded", () => {
        const jq = (window as unknown as { $?: { fx: { off: boolean } } }).$;
        if (jq) jq.fx.off = true;
        const style = document.createElement("style");
        style.textContent = "*,*::before,*::after{transition:none!important;animation:none!important}";
        document.head.appendChild(style);
      });
    });
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(`page error: ${error.stack ?? error.message}`));
    page.on("console", (message) => {
      const text = message.text();
      const where = message.location().url;
      if (message.type() === "error") errors.push(`console error: ${text}${where ? ` (${where})` : ""}`);
      else if (CAUGHT_BY_EDITOR.test(text)) errors.push(`caught by the editor: ${text}`);
    });
    await loadEditor(page, () => page.goto(url, { waitUntil: "domcontentloaded", timeout: EDITOR_LOADS_MS }));
    return { page, errors };
  } catch (error) {
    await page.close().catch(() => undefined);
    throw error;
  }
}

/** How long Chromium may take to start and connect, on a quiet machine. */
const CHROMIUM_STARTS_MS = 30_000;

/**
 * Debian's chromium under playwright, for a test that drives a page. When it does not start in time,
 * the error says how long it went and the machine's load, with playwright's own log of the launch.
 */
export async function launchChromium(): Promise<Browser> {
  const started = Date.now();
  const release = await heavySlot("Chromium");
  try {
    const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: LAUNCH_ARGS, timeout: scaled(CHROMIUM_STARTS_MS) });
    browser.on("disconnected", release);
    return browser;
  } catch (error) {
    release();
    throw new Error(`${CHROMIUM} did not start for playwright after ${seconds(Date.now() - started)} (load average ${loadAverage()}): ${error instanceof Error ? error.message : String(error)}`);
  }
}

/**
 * How long the editor may take to show this package's nodes after a navigation: a bound for a page that
 * never comes, not a race. Under a full `npm test` here it took 2 to 16 s; one CI machine once passed 60 s.
 */
const EDITOR_LOADS_QUIET_MS = 150_000;
export const EDITOR_LOADS_MS = scaled(EDITOR_LOADS_QUIET_MS);

/**
 * The bound of a hook that opens a session: pack, install, start the emulator and Node-RED, launch chromium,
 * load the editor. A mocha timeout (`this.timeout`), so on a quiet machine's scale: tools/mocha-hooks.ts stretches it.
 */
export const SESSION_OPENS_MS = EDITOR_LOADS_QUIET_MS + 120_000;

/**
 * Navigates (`navigate` is a goto or a reload that waits only for the document) and waits until the
 * editor knows `type`: the nodes' definitions are loaded, which is what a user waits for before working.
 * Not the page's `load` event, which also waits for every image and font the editor asks for. If the
 * editor does not get there in EDITOR_LOADS_MS, the error names the requests still unanswered.
 */
export async function loadEditor(page: Page, navigate: () => Promise<unknown>, type = "morelogin-start-profile"): Promise<void> {
  const started = Date.now();
  const pending = new Map<Request, number>();
  const track = (request: Request): void => {
    pending.set(request, Date.now());
  };
  const untrack = (request: Request): void => {
    pending.delete(request);
  };
  page.on("request", track);
  page.on("requestfinished", untrack);
  page.on("requestfailed", untrack);
  try {
    await navigate();
    await page.waitForFunction((wanted) => Boolean((window as unknown as { RED?: { nodes?: { getType?: (t: string) => unknown } } }).RED?.nodes?.getType?.(wanted)), type, {
      timeout: Math.max(1_000, EDITOR_LOADS_MS - (Date.now() - started)),
    });
  } catch (error) {
    const now = Date.now();
    const unanswered = [...pending].map(([request, since]) => `${request.method()} ${request.url()} (${Math.round((now - since) / 1000)} s)`);
    throw new Error(
      `the editor did not show ${type} within ${Math.round((now - started) / 1000)} s (load average ${loadAverage()}); requests unanswered: ${unanswered.join(", ") || "none"}. ${error instanceof Error ? error.message : String(error)}`,
    );
  } finally {
    page.off("request", track);
    page.off("requestfinished", untrack);
    page.off("requestfailed", untrack);
  }
  await untilEditorAtRest(page);
}

/**
 * Waits until the editor is at rest: no jQuery animation, no CSS transition, and the topmost edit tray
 * (if any) fully open. A tray slides in with a CSS transition on `right`, changes its width 150 ms
 * later, and only when all that is done does Node-RED raise `#red-ui-editor-stack` to z-index 13
 * (RED.tray's raiseTrayZ); every tray open, close or hide lowers it first. Clicking a tray's buttons
 * earlier can land beside them.
 */
export async function untilEditorAtRest(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    if ((window as unknown as { $: (s: string) => { length: number } }).$(":animated").length > 0) return false;
    if (document.getAnimations().some((animation) => animation.constructor.name === "CSSTransition" && animation.playState === "running")) return false;
    const trays = document.querySelectorAll<HTMLElement>("#red-ui-editor-stack .red-ui-tray");
    const top = trays[trays.length - 1];
    if (!top) return true;
    return top.style.right === "0px" && document.getElementById("red-ui-editor-stack")?.style.zIndex === "13";
  });
}

/**
 * Presses an inject node's button as a person would, until the editor has sent the inject: a click
 * that lands while the view redraws sends nothing, and one that comes before the runtime has started
 * the deployed node is answered 404 ("not deployed"). Either way a person presses again; a request
 * that went out is never repeated, so the flow runs once.
 */
export async function pressInject(page: Page, injectId: string): Promise<void> {
  const isInject = (request: Request): boolean => request.method() === "POST" && new URL(request.url()).pathname.endsWith(`/inject/${injectId}`);
  for (let attempt = 1; ; attempt++) {
    const sent = page.waitForRequest(isInject, { timeout: 10_000 }).catch(() => undefined);
    await page.locator(`[id="${injectId}"] .red-ui-flow-node-button`).click();
    const request = await sent;
    const status = request ? (await request.response())?.status() : undefined;
    if (status === 200) return;
    if (attempt >= 5) throw new Error(`five presses of inject ${injectId} did not inject: ${request ? `the last was answered ${status ?? "nothing"}` : "no request was sent"}`);
    if (request && status !== 404) throw new Error(`the inject of ${injectId} was answered ${status ?? "nothing"}`);
  }
}

/** Opens a sidebar tab through the editor's own API: its buttons differ between Node-RED 4 and 5. */
export async function showSidebar(page: Page, tab: "debug" | "help" | "info"): Promise<void> {
  await page.evaluate((id) => (window as unknown as { RED: { sidebar: { show(id: string): void } } }).RED.sidebar.show(id), tab);
  await untilEditorAtRest(page);
}

export async function filterPalette(page: Page, text: string): Promise<void> {
  const search = page.locator("#red-ui-palette-search input");
  await search.click();
  await search.fill("");
  await search.pressSequentially(text);
  // The palette applies its filter 100 ms after the last key: wait until every node shows or hides as the text says.
  await page.waitForFunction((value) => {
    const pattern = new RegExp(value.replace(/[-/\\^$*+?.()|[\]{}]/g, "\\$&"), "i");
    return [...document.querySelectorAll("#red-ui-palette-container .red-ui-palette-node")].every((node) => {
      const matches = pattern.test(node.getAttribute("data-palette-type") ?? "") || pattern.test(node.getAttribute("data-palette-label") ?? "");
      return matches === (node.getAttribute("data-filter") !== "true");
    });
  }, text);
  await untilEditorAtRest(page);
}

/** Drags a node from the palette onto the workspace at (x, y) of the workspace; returns its new id. */
export async function dragFromPalette(page: Page, type: string, label: string, x: number, y: number): Promise<string> {
  await filterPalette(page, label);
  const paletteNode = page.locator(`.red-ui-palette-node[data-palette-type="${type}"]`);
  await paletteNode.waitFor({ state: "visible" });
  const from = await stableBox(page, `.red-ui-palette-node[data-palette-type="${type}"]`);
  const workspace = await stableBox(page, "#red-ui-workspace-chart");
  const before = await nodeIds(page, type);
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  // jQuery UI starts a drag only after the pointer has moved a little from where it went down.
  await page.mouse.move(from.x + from.width / 2 + 10, from.y + from.height / 2 + 5, { steps: 3 });
  await page.mouse.move(workspace.x + x, workspace.y + y, { steps: 15 });
  await page.mouse.up();
  await page.waitForFunction(([t, n]) => (window as unknown as RedWindow).RED.nodes.filterNodes({ type: t }).length > n, [type, before.length] as const);
  const after = await nodeIds(page, type);
  const id = after.find((candidate) => !before.includes(candidate));
  if (!id) throw new Error(`no new ${type} node after the drag`);
  return id;
}

interface RedWindow {
  RED: { nodes: { filterNodes: (filter: { type: string }) => Array<{ id: string }> } };
}

async function nodeIds(page: Page, type: string): Promise<string[]> {
  return page.evaluate((t) => (window as unknown as RedWindow).RED.nodes.filterNodes({ type: t }).map((node) => node.id), type);
}

/** The bounding box of an element once it has stopped moving. */
async function stableBox(page: Page, selector: string): Promise<{ x: number; y: number; width: number; height: number }> {
  let previous = "";
  for (let tries = 0; tries < 50; tries++) {
    const box = await page.locator(selector).first().boundingBox();
    if (box) {
      const current = JSON.stringify(box);
      if (current === previous) return box;
      previous = current;
    }
    await page.waitForTimeout(50);
  }
  throw new Error(`${selector} did not settle`);
}

/** Drags a wire from one node's output port to another node's input port. */
export async function wire(page: Page, fromId: string, toId: string): Promise<void> {
  // A node dropped or moved just before may still be animating: two equal boxes 50 ms apart are not
  // enough on a busy machine, where a frame can simply not have been drawn yet.
  await untilEditorAtRest(page);
  const out = await stableBox(page, `[id="${fromId}"] .red-ui-flow-port-output`);
  const input = await stableBox(page, `[id="${toId}"] .red-ui-flow-port-input`);
  await page.mouse.move(out.x + out.width / 2, out.y + out.height / 2);
  await page.mouse.down();
  await page.mouse.move(input.x + input.width / 2, input.y + input.height / 2, { steps: 10 });
  await page.mouse.up();
  await page.waitForFunction(
    ([a, b]) => (window as unknown as { RED: { nodes: { filterLinks: (f: object) => unknown[] } } }).RED.nodes.filterLinks({ source: { id: a }, target: { id: b } }).length === 1,
    [fromId, toId] as const,
  );
}

/** Whether the editor has started to open an edit dialog (it does so in the double click's own handler). */
async function editing(page: Page): Promise<boolean> {
  return page.evaluate(() => {
    const { RED } = window as unknown as { RED: { view: { state: () => number }; state: { EDITING: number } } };
    return RED.view.state() === RED.state.EDITING || document.querySelector("#red-ui-editor-stack .red-ui-tray") !== null;
  });
}

/** Clicks a node on the workspace open, as a person would, and waits until its dialog is open and at rest. */
export async function openNode(page: Page, id: string): Promise<void> {
  // The editor takes two clicks for a double click only when their mousedowns are handled less than
  // 650 ms apart (Date.now() in its own handler); on a busy machine the page can handle them later,
  // see two single clicks and open nothing. A person then double-clicks again, and so do we.
  for (let attempt = 1; !(await editing(page)); attempt++) {
    if (attempt > 5) throw new Error(`five double clicks on node ${id} opened no dialog`);
    await page.locator(`[id="${id}"] .red-ui-flow-node`).dblclick();
  }
  await page.locator("#node-dialog-ok").waitFor({ state: "visible" });
  await untilEditorAtRest(page);
}

/** Adds a config node from an open node dialog's server field and fills it in; leaves its dialog open. */
export async function addConfigNode(page: Page, emulator: Emulator): Promise<void> {
  await page.locator("#node-input-btn-server-add").click();
  await page.locator("#node-config-input-localUrl").waitFor({ state: "visible" });
  await untilEditorAtRest(page);
  await page.locator("#node-config-input-localUrl").fill(emulator.localUrl);
  await page.locator("#node-config-input-localToken").fill(LOCAL_TOKEN);
  await page.locator("#node-config-input-openUrl").fill(emulator.openUrl);
  await page.locator("#node-config-input-apiId").fill(emulator.credentials.apiId);
  await page.locator("#node-config-input-apiKey").fill(emulator.credentials.apiKey);
}

export async function testConnection(page: Page): Promise<string> {
  await page.locator("#morelogin-test-button").click();
  await page.waitForFunction(() => {
    const box = document.querySelector("#morelogin-test-result");
    return Boolean(box && box.querySelectorAll(".morelogin-test-line").length >= 1);
  });
  await page.locator("#morelogin-test-result").scrollIntoViewIfNeeded();
  return (await page.locator("#morelogin-test-result").innerText()).trim();
}

type Box = { x: number; y: number; width: number; height: number };

/**
 * The area of the topmost edit tray (the dialog being edited), to crop a screenshot to; with `until`,
 * only down to a little below that element (such as an open suggestion list).
 */
export async function trayBox(page: Page, until?: string): Promise<Box> {
  await untilEditorAtRest(page);
  const box = await page.locator("#red-ui-editor-stack .red-ui-tray").last().boundingBox();
  if (!box) throw new Error("no edit dialog is open");
  let bottom = box.y + box.height;
  if (until) {
    const end = await page.locator(until).last().boundingBox();
    if (end) bottom = Math.min(bottom, end.y + end.height + 24);
  }
  return { x: Math.floor(box.x), y: Math.floor(box.y), width: Math.ceil(box.width), height: Math.ceil(bottom - box.y) };
}

export async function screenshot(page: Page, dir: string, name: string, clip?: { x: number; y: number; width: number; height: number }): Promise<string> {
  mkdirSync(dir, { recursive: true });
  await untilEditorAtRest(page);
  const file = join(dir, name);
  await page.screenshot({ path: file, clip });
  return file;
}

/**
 * Presses Deploy as a person does and waits until the runtime's flows hold `id` (the editor greys the
 * button as the deploy starts, not when it is done); replies the deployed flows as text.
 */
export async function deployUntilFlowsHold(page: Page, nodeRed: RunningNodeRed, id: string, what: string): Promise<string> {
  await page.locator("#red-ui-header-button-deploy").click();
  return waitUntil(
    async () => (await fetch(`${nodeRed.url}/flows`, { headers: { accept: "application/json" } })).text(),
    (text) => text.includes(id),
    `the deployed flows hold ${what}`,
    60_000,
  );
}
