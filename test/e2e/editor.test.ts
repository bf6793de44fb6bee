import assert from "node:assert/strict";
import { join } from "node:path";
import {
  addConfigNode,
  browserSkipReason,
  dragFromPalette,
  filterPalette,
  openEditor,
  openNode,
  ourErrors,
  screenshot,
  settle,
  testConnection,
  trayBox,
  wire,
  type EditorSession,
} from "./editor-session";
import { OPERATION_TYPES } from "../support/node-types";

/** Where screenshots go: test-results/, or docs/images/ for `npm run docs:screenshots`. */
const RESULTS = join(__dirname, "..", "..", "test-results");
const SHOTS = process.env.MORELOGIN_SCREENSHOTS_DIR || RESULTS;

describe("editor: the MoreLogin nodes in a real Node-RED, in chromium", function () {
  this.timeout(180_000);
  let session: EditorSession;
  let startId = "";
  let chosenId = "";

  before(async function () {
    const skipped = browserSkipReason();
    if (skipped) {
      console.log(`    browser tests skipped on purpose (${skipped}): the editor was not tested`);
      this.skip();
    }
    session = await openEditor();
  });

  afterEach(async function () {
    if (this.currentTest?.state === "failed" && session) {
      await session.page.screenshot({ path: join(RESULTS, `failed-${this.currentTest.title.replace(/\W+/g, "-").slice(0, 60)}.png`) }).catch(() => undefined);
    }
  });

  after(async () => {
    await session?.close();
  });

  it("shows every operation node in the MoreLogin palette category", async () => {
    const { page } = session;
    await filterPalette(page, "morelogin");
    const category = page.locator("#red-ui-palette-container-MoreLogin");
    await category.waitFor({ state: "visible" });
    assert.match(await category.locator(".red-ui-palette-header").innerText(), /MoreLogin/i);
    const shown = await category.locator(".red-ui-palette-node:visible").evaluateAll((nodes) => nodes.map((node) => node.getAttribute("data-palette-type")));
    assert.deepEqual([...shown].sort(), [...OPERATION_TYPES].sort());
    const labels = await category.locator(".red-ui-palette-node:visible .red-ui-palette-label").allInnerTexts();
    assert.ok(labels.includes("start profile") && labels.includes("list profiles"), labels.join(", "));
    const box = await category.boundingBox();
    assert.ok(box);
    await screenshot(page, SHOTS, "palette.png", { x: 0, y: 0, width: Math.ceil(box.x + box.width + 8), height: Math.ceil(box.y + box.height + 8) });
  });

  it("a start profile node is dragged in and gets a new config node with a Local token that tests OK", async () => {
    const { page, emulator } = session;
    startId = await dragFromPalette(page, "morelogin-start-profile", "start profile", 420, 160);
    await openNode(page, startId);
    await addConfigNode(page, emulator);
    const result = await testConnection(page);
    assert.match(result, /Local API reachable: 12 profiles/);
    assert.match(result, /Open API: signed in with the API ID and API Key/);
    await screenshot(page, SHOTS, "config.png", await trayBox(page));
    await page.locator("#node-config-dialog-ok").click();
    await page.locator("#node-config-input-localUrl").waitFor({ state: "detached" });
    await settle(page);
    const selected = await page.locator("#node-input-server").inputValue();
    assert.ok(selected && selected !== "_ADD_", "the new config node is selected");
  });

  it("the profile picker suggests the emulator's profiles by name and stores the chosen ID", async () => {
    const { page, emulator } = session;
    const field = page.locator("#node-input-envId + .red-ui-typedInput-container input.red-ui-typedInput-input");
    await field.click();
    await field.pressSequentially("Profile 00");
    const suggestions = page.locator(".red-ui-autoComplete-container .morelogin-picker-option");
    await suggestions.first().waitFor({ state: "visible" });
    const expected = emulator.data.profiles.filter((profile) => profile.envName.toLowerCase().includes("profile 00")).map((profile) => profile.envName);
    // Each key typed asks again; wait for the answer to the whole text, not an earlier, wider one.
    await page
      .waitForFunction(
        (wanted) => {
          const shown = [...document.querySelectorAll(".red-ui-autoComplete-container .morelogin-picker-name")].map((element) => element.textContent);
          return JSON.stringify(shown) === JSON.stringify(wanted);
        },
        expected,
        { timeout: 10_000 },
      )
      .catch(() => undefined);
    const names = await page.locator(".red-ui-autoComplete-container .morelogin-picker-name").allInnerTexts();
    assert.deepEqual(names, expected);
    await screenshot(page, SHOTS, "picker.png", await trayBox(page, ".red-ui-autoComplete-container"));
    const chosen = emulator.data.profiles.find((profile) => profile.envName === names[2]);
    assert.ok(chosen);
    await suggestions.nth(2).click();
    assert.equal(await page.locator("#node-input-envId").inputValue(), chosen.id);
    await page.locator("#node-dialog-ok").click();
    await page.locator("#node-dialog-ok").waitFor({ state: "detached" });
    await settle(page);
    const stored = await page.evaluate((id) => (window as unknown as { RED: { nodes: { node: (i: string) => { envId: string } } } }).RED.nodes.node(id).envId, startId);
    assert.equal(stored, chosen.id);
    chosenId = chosen.id;
  });

  it("deployed behind an inject, it starts the profile and the Debug sidebar shows the debug port", async () => {
    const { page, emulator } = session;
    const injectId = await dragFromPalette(page, "inject", "inject", 180, 160);
    const debugId = await dragFromPalette(page, "debug", "debug", 680, 160);
    await wire(page, injectId, startId);
    await wire(page, startId, debugId);
    await page.locator("#red-ui-header-button-deploy").click();
    await page.waitForFunction(() => document.querySelector("#red-ui-header-button-deploy")?.classList.contains("disabled"));
    await page.locator("#red-ui-tab-debug-link-button").click();
    await settle(page);
    emulator.resetStats();
    await page.locator(`[id="${injectId}"] .red-ui-flow-node-button`).click();
    const message = page.locator(".red-ui-debug-msg").first();
    await message.waitFor({ state: "visible", timeout: 30_000 });
    const running = emulator.running();
    assert.equal(running.length, 1);
    assert.equal(running[0]?.envId, chosenId, "the profile chosen in the picker was started");
    await page.waitForFunction((port) => (document.querySelector(".red-ui-debug-content-list")?.textContent ?? "").includes(port), running[0]?.debugPort ?? "none");
    const text = await page.locator(".red-ui-debug-content-list").innerText();
    assert.match(text, /debugPort/);
    const shown = [await message.boundingBox(), await page.locator(`[id="${startId}"]`).boundingBox()];
    const bottom = Math.max(...shown.map((box) => (box ? box.y + box.height : 0)));
    await screenshot(page, SHOTS, "debug.png", { x: 0, y: 0, width: 1280, height: Math.min(800, Math.ceil(bottom + 48)) });
    assert.equal(emulator.stats.requests["local POST /api/env/start"], 1);
    assert.equal(emulator.requestLog.find((entry) => entry.path === "/api/env/start")?.headers.authorization, "e2e-local-token");
  });

  it("Test connection says plainly when the desktop client is not there", async () => {
    const { page, emulator } = session;
    await openNode(page, startId);
    await page.locator("#node-input-btn-server-edit").click();
    await page.locator("#node-config-input-localUrl").waitFor({ state: "visible" });
    await settle(page);
    await emulator.close();
    const result = await testConnection(page);
    assert.match(result, /Local API: cannot reach the Local API at http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\)/);
    await page.locator("#node-config-dialog-cancel").click();
    await settle(page);
    await page.locator("#node-dialog-cancel").click();
    await settle(page);
  });

  it("the editor logged no errors from the MoreLogin nodes, and no uncaught page error", () => {
    const others = session.errors.filter((error) => !ourErrors([error]).length);
    if (others.length) console.log(`    other errors in the page:\n${others.join("\n")}`);
    assert.deepEqual(ourErrors(session.errors), []);
    assert.deepEqual(
      session.errors.filter((error) => error.startsWith("page error:")),
      [],
    );
  });
});
