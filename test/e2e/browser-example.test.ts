import assert from "node:assert/strict";
import { join } from "node:path";
import { EXAMPLE_CONFIG_ID, deployAndStart, loadExamples, type FlowNode } from "../../tools/sandbox";
import { CHROMIUM } from "../support/chromium";
import { EDITOR_LOADS_MS, loadEditor, openEditor, ourErrors, pressInject, screenshot, untilEditorAtRest, showSidebar, type EditorSession } from "./editor-session";
import { useEditorSession } from "./use-editor-session";

/** Where screenshots go: test-results/, or docs/images/ for `npm run docs:screenshots`. */
const RESULTS = join(__dirname, "..", "..", "test-results");
const SHOTS = process.env.MORELOGIN_SCREENSHOTS_DIR || RESULTS;
const EXAMPLE = "10 Open a page and take a screenshot";
/** The flow is about 1,100 pixels wide: with the palette hidden, it fits beside the Debug sidebar at this width. */
const WIDTH = 1440;
const DONE = "Hello, Node-RED! (screenshot saved to morelogin-demo-screenshot.png)";

/** The example's tab, its nodes and its config node (with the emulator's URLs and credentials), as Node-RED deploys them. */
function exampleFlow(session: EditorSession): FlowNode[] {
  const { emulator } = session;
  const examples = loadExamples({ localUrl: emulator.localUrl, openUrl: emulator.openUrl });
  const nodes = examples.byExample.get(EXAMPLE);
  assert.ok(nodes, `the example "${EXAMPLE}" exists`);
  const tab = examples.flows.find((node) => node.type === "tab" && node.label === EXAMPLE);
  const config = examples.flows.find((node) => node.id === EXAMPLE_CONFIG_ID);
  assert.ok(tab && config);
  return [tab, ...nodes, { ...config, credentials: emulator.credentials }];
}

describe("editor: example 10 drives a real browser behind a started profile, in chromium", function () {
  // The test reloads the editor (up to EDITOR_LOADS_MS) and then waits up to 120 s for the flow's outcome.
  this.timeout(300_000);

  // Wide enough for the whole flow beside the Debug sidebar; a real Chromium behind each started profile.
  const session = useEditorSession("the browser example in the editor", "browser-", () => openEditor({ width: WIDTH, height: 800 }, undefined, { browser: CHROMIUM }));

  it("deployed, its inject button greets Node-RED on the demo page, the Debug sidebar says so, and the profile is closed", async () => {
    const { page, emulator, nodeRed } = session();
    const flow = exampleFlow(session());
    await deployAndStart(nodeRed, flow);
    // The editor opened before the deploy: load it again to show the deployed flow.
    await loadEditor(page, () => page.reload({ waitUntil: "domcontentloaded", timeout: EDITOR_LOADS_MS }), "morelogin-browser");
    const inject = flow.find((node) => node.type === "inject");
    assert.ok(inject);
    const injectButton = page.locator(`[id="${inject.id}"] .red-ui-flow-node-button`);
    await injectButton.waitFor({ state: "visible" });
    await showSidebar(page, "debug");
    // View → Show palette, off: docs/BROWSER.md's picture is about the flow (palette.png shows the palette).
    await page.evaluate(() => (window as unknown as { RED: { menu: { setSelected(id: string, state: boolean): void } } }).RED.menu.setSelected("menu-item-palette", false));
    await untilEditorAtRest(page);

    await pressInject(page, inject.id);
    // The run ends with a message from "done", or from "error" when a step failed.
    const ended = page.locator(".red-ui-debug-msg", { has: page.locator(".red-ui-debug-msg-name", { hasText: /^node: (done|error)$/ }) });
    await ended.first().waitFor({ state: "visible", timeout: 120_000 });
    const messages = await page.locator(".red-ui-debug-msg").evaluateAll((elements) =>
      elements.map((element) => ({
        name: element.querySelector(".red-ui-debug-msg-name")?.textContent?.trim() ?? "",
        payload: (element.querySelector(".red-ui-debug-msg-payload") as HTMLElement | null)?.innerText.trim() ?? "",
      })),
    );
    // One message, from "done" (none from "error"), as the sidebar shows a string: in quotes.
    assert.deepEqual(messages, [{ name: "node: done", payload: JSON.stringify(DONE) }]);
    assert.deepEqual(emulator.running(), [], "the profile was closed, and its browser with it");

    // The whole flow is in view, right of it the Debug sidebar: down to a little below the lowest node.
    const chart = await page.locator("#red-ui-workspace-chart").boundingBox();
    assert.ok(chart);
    let lowest = 0;
    for (const node of flow.filter((candidate) => candidate.z !== undefined)) {
      const box = await page.locator(`[id="${node.id}"] .red-ui-flow-node`).boundingBox();
      assert.ok(box, `"${String(node.name)}" is drawn`);
      assert.ok(box.x >= chart.x && box.x + box.width <= chart.x + chart.width, `"${String(node.name)}" is in view`);
      lowest = Math.max(lowest, box.y + box.height);
    }
    await screenshot(page, SHOTS, "browser-flow.png", { x: 0, y: 0, width: WIDTH, height: Math.min(800, Math.ceil(lowest + 40)) });
  });

  it("the editor logged no errors from the MoreLogin nodes, and no uncaught page error", () => {
    assert.deepEqual(ourErrors(session().errors), []);
    assert.deepEqual(
      session().errors.filter((error) => error.startsWith("page error:")),
      [],
    );
  });
});
