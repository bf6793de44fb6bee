import assert from "node:assert/strict";
import { join } from "node:path";
import {
  addConfigNode,
  dragFromPalette,
  filterPalette,
  openNode,
  ourErrors,
  pressInject,
  screenshot,
  untilEditorAtRest,
  showSidebar,
  testConnection,
  trayBox,
  wire,
  deployUntilFlowsHold,
} from "./editor-session";
import { useEditorSession } from "./use-editor-session";
import { MoreLoginClient, checkRelativePath, positiveInteger } from "../../src/client";
import { BATCH_TYPE, BROWSER_TYPE, OPERATION_TYPES, WATCH_TYPE } from "../support/node-types";
import { waitUntil } from "../support/wait-until";

/** Where screenshots go: test-results/, or docs/images/ for `npm run docs:screenshots`. */
const RESULTS = join(__dirname, "..", "..", "test-results");
const SHOTS = process.env.MORELOGIN_SCREENSHOTS_DIR || RESULTS;

describe("editor: the MoreLogin nodes in a real Node-RED, in chromium", function () {
  this.timeout(180_000);
  let startId = "";
  let chosenId = "";

  const session = useEditorSession("the editor", "");

  it("shows every operation node and the browser node in the MoreLogin palette category", async () => {
    const { page } = session();
    await filterPalette(page, "morelogin");
    const category = page.locator("#red-ui-palette-container-MoreLogin");
    await category.waitFor({ state: "visible" });
    assert.match(await category.locator(".red-ui-palette-header").innerText(), /MoreLogin/i);
    const shown = await category.locator(".red-ui-palette-node:visible").evaluateAll((nodes) => nodes.map((node) => node.getAttribute("data-palette-type")));
    assert.deepEqual([...shown].sort(), [...OPERATION_TYPES, BROWSER_TYPE, WATCH_TYPE, BATCH_TYPE].sort());
    const labels = await category.locator(".red-ui-palette-node:visible .red-ui-palette-label").allInnerTexts();
    assert.ok(labels.includes("start profile") && labels.includes("list profiles"), labels.join(", "));
    const box = await category.boundingBox();
    assert.ok(box);
    await screenshot(page, SHOTS, "palette.png", { x: 0, y: 0, width: Math.ceil(box.x + box.width + 8), height: Math.ceil(box.y + box.height + 8) });
  });

  it("a start profile node is dragged in and gets a new config node with a Local token that tests OK", async () => {
    const { page, emulator } = session();
    startId = await dragFromPalette(page, "morelogin-start-profile", "start profile", 420, 160);
    await openNode(page, startId);
    await addConfigNode(page, emulator);
    const result = await testConnection(page);
    assert.match(result, /Local API reachable: 12 profiles/);
    assert.match(result, /Balance: 125\.00 \(12500 cents\), remaining duration 120 minutes, remaining concurrency 3/);
    assert.match(result, /Open API: signed in with the API ID and API Key/);
    await screenshot(page, SHOTS, "config.png", await trayBox(page));
    await page.locator("#node-config-dialog-ok").click();
    await page.locator("#node-config-input-localUrl").waitFor({ state: "detached" });
    await untilEditorAtRest(page);
    const selected = await page.locator("#node-input-server").inputValue();
    assert.ok(selected && selected !== "_ADD_", "the new config node is selected");
  });

  it("the profile picker suggests the emulator's profiles by name and stores the chosen ID", async () => {
    const { page, emulator } = session();
    const field = page.locator("#node-input-envId + .red-ui-typedInput-container input.red-ui-typedInput-input");
    await field.click();
    await field.pressSequentially("Profile 00");
    const suggestions = page.locator(".red-ui-autoComplete-container .morelogin-picker-option");
    await suggestions.first().waitFor({ state: "visible" });
    const expected = emulator.data.profiles.filter((profile) => profile.envName.toLowerCase().includes("profile 00")).map((profile) => profile.envName);
    // Each key typed asks again; wait for the answer to the whole text, not an earlier, wider one.
    await page
      .waitForFunction((wanted) => {
        const shown = [...document.querySelectorAll(".red-ui-autoComplete-container .morelogin-picker-name")].map((element) => element.textContent);
        return JSON.stringify(shown) === JSON.stringify(wanted);
      }, expected)
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
    await untilEditorAtRest(page);
    const stored = await page.evaluate((id) => (window as unknown as { RED: { nodes: { node: (i: string) => { envId: string } } } }).RED.nodes.node(id).envId, startId);
    assert.equal(stored, chosen.id);
    chosenId = chosen.id;
  });

  it("deployed behind an inject, it starts the profile and the Debug sidebar shows the debug port", async () => {
    const { page, emulator } = session();
    const injectId = await dragFromPalette(page, "inject", "inject", 180, 160);
    const debugId = await dragFromPalette(page, "debug", "debug", 680, 160);
    await wire(page, injectId, startId);
    await wire(page, startId, debugId);
    await page.locator("#red-ui-header-button-deploy").click();
    // The button greys as the deploy starts; "Successfully deployed" shows once the runtime answered, flows started.
    await page.locator(".red-ui-notification-success").first().waitFor({ state: "visible", timeout: 90_000 });
    await showSidebar(page, "debug");
    await untilEditorAtRest(page);
    emulator.resetStats();
    await pressInject(page, injectId);
    const message = page.locator(".red-ui-debug-msg").first();
    await message.waitFor({ state: "visible", timeout: 60_000 });
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

  it("a proxy node's password is a credential: typed in the dialog, deployed, it is in no flow the editor or the runtime shows", async () => {
    const { page, nodeRed } = session();
    const password = "e2e-proxy-password";
    const proxyId = await dragFromPalette(page, "morelogin-proxy", "proxy", 420, 380);
    await openNode(page, proxyId);
    assert.equal(await page.locator("#node-input-action").inputValue(), "add");
    assert.equal(await page.locator("#node-input-password").getAttribute("type"), "password");
    const servers = await page.locator("#node-input-server option").evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).value));
    await page.locator("#node-input-server").selectOption(servers.find((value) => value !== "_ADD_") ?? "");
    await page.locator("#node-input-proxyIp + .red-ui-typedInput-container input.red-ui-typedInput-input").fill("203.0.113.8");
    await page.locator("#node-input-password").fill(password);
    await page.locator("#node-input-action").selectOption("delete");
    assert.equal(await page.locator(".form-row:has(#node-input-password)").isVisible(), false, "delete needs no password");
    await page.locator("#node-input-action").selectOption("add");
    await page.locator("#node-dialog-ok").click();
    await page.locator("#node-dialog-ok").waitFor({ state: "detached" });
    await untilEditorAtRest(page);
    const flows = await deployUntilFlowsHold(page, nodeRed, proxyId, "the proxy node");
    assert.ok(flows.includes("203.0.113.8"), "the flow holds the proxy's host");
    assert.ok(!flows.includes(password), "the flow does not hold its password");
    const credentials = (await (await fetch(`${nodeRed.url}/credentials/morelogin-proxy/${proxyId}`)).json()) as Record<string, unknown>;
    assert.deepEqual(credentials, { has_password: true });
  });

  it("Test connection says plainly when the desktop client is not there", async () => {
    const { page, emulator } = session();
    await openNode(page, startId);
    await page.locator("#node-input-btn-server-edit").click();
    await page.locator("#node-config-input-localUrl").waitFor({ state: "visible" });
    await untilEditorAtRest(page);
    await emulator.close();
    const result = await testConnection(page);
    assert.match(result, /Local API: cannot reach the Local API at http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\)/);
    await page.locator("#node-config-dialog-cancel").click();
    await untilEditorAtRest(page);
    await page.locator("#node-dialog-cancel").click();
    await untilEditorAtRest(page);
  });

  it("checks URLs, request paths and page numbers in the dialogs as the runtime checks them", async () => {
    const urls: Array<[string, boolean]> = [
      ["http://127.0.0.1:40000", false],
      ["https://api.morelogin.com", true],
      ["http://127.0.0.1:40101", true],
      ["http://[::1]:40101", true],
      ["http://api.morelogin.com", true],
      ["ftp://127.0.0.1", false],
      ["http://user:pw@127.0.0.1:40000", false],
      ["http://127.0.0.1:40000/?x=1", false],
      ["not a url", false],
    ];
    const paths = ["/api/env/detail", "/cloudphone/page?x=1", "//evil.example.com/x", "/api/../x", "/api/./x", "api/env", "/api/env page", "http://evil.example.com/x"];
    const pages = ["1", "25", " 3 ", "0", "-1", "1.5", "abc", "1e3"];
    const inEditor = await session().page.evaluate(
      ({ urls, paths, pages }) => {
        const editor = (window as unknown as { MoreLoginEditor: { isUrl(value: string, httpsOnly: boolean): boolean } }).MoreLoginEditor;
        type Validate = (this: Record<string, string>, value: string) => boolean;
        type Defaults = { path: { validate: Validate }; pageNo: { validate: Validate } };
        const red = (window as unknown as { RED: { nodes: { getType(type: string): { defaults: Defaults } } } }).RED;
        const path = red.nodes.getType("morelogin-request").defaults.path.validate;
        const page = red.nodes.getType("morelogin-list-profiles").defaults.pageNo.validate;
        return {
          urls: urls.map(([url, httpsOnly]) => editor.isUrl(url, httpsOnly)),
          paths: paths.map((value) => path.call({ pathType: "str" }, value)),
          pages: pages.map((value) => page.call({ pageNoType: "num" }, value)),
        };
      },
      { urls, paths, pages },
    );
    const accepts = (check: () => unknown): boolean => {
      try {
        check();
        return true;
      } catch {
        return false;
      }
    };
    assert.deepEqual(
      inEditor.urls,
      urls.map(([url, httpsOnly]) => accepts(() => new MoreLoginClient(httpsOnly ? { openUrl: url } : { localUrl: url }))),
      "base URLs",
    );
    assert.deepEqual(
      inEditor.paths,
      paths.map((path) => accepts(() => checkRelativePath(path))),
      "request paths",
    );
    assert.deepEqual(
      inEditor.pages,
      // A node's own page field is a number setting: the runtime reads it as a number, then checks it.
      pages.map((page) => accepts(() => positiveInteger(Number(page), "pageNo"))),
      "page numbers",
    );
  });

  it("a cloud phone node's dialog shows only the chosen action's rows, and switching the action toggles them", async () => {
    const { page } = session();
    const phoneNode = await dragFromPalette(page, "morelogin-cloud-phone", "morelogin-cloud-phone", 420, 300);
    await openNode(page, phoneNode);
    const action = page.locator("#node-input-action");
    const rowOf = (field: string) => page.locator(`.form-row:has(#node-input-${field})`);
    const shown = async (): Promise<Record<string, boolean>> => {
      const fields = ["api", "phoneId", "wait", "command", "appVersionId", "packageName", "timeout"];
      return Object.fromEntries(await Promise.all(fields.map(async (field) => [field, await rowOf(field).isVisible()] as const)));
    };
    const always = { api: true, phoneId: true, timeout: true };
    assert.equal(await action.inputValue(), "info", "a new node's action");
    assert.deepEqual(await shown(), { ...always, wait: false, command: false, appVersionId: false, packageName: false }, "info");
    // The phone suggestions, open under the phone field, close when the action changes: they would cover its rows.
    const phoneField = page.locator("#node-input-phoneId + .red-ui-typedInput-container input.red-ui-typedInput-input");
    const suggestions = page.locator(".red-ui-autoComplete-container");
    await phoneField.click();
    await phoneField.pressSequentially("Phone");
    await suggestions.waitFor({ state: "visible" });
    await action.selectOption("shell");
    assert.equal(await suggestions.isVisible(), false, "the phone suggestions, after the action changed");
    assert.deepEqual(await shown(), { ...always, wait: false, command: true, appVersionId: false, packageName: false }, "shell");
    // An answer still on its way when the action changed does not open them again.
    await page.waitForTimeout(500);
    assert.equal(await suggestions.isVisible(), false, "the phone suggestions, half a second later");
    await phoneField.fill("");
    await action.selectOption("powerOn");
    assert.deepEqual(await shown(), { ...always, wait: true, command: false, appVersionId: false, packageName: false }, "powerOn");
    await action.selectOption("installApp");
    assert.deepEqual(await shown(), { ...always, wait: false, command: false, appVersionId: true, packageName: true }, "installApp");
    await action.selectOption("shell");
    await page.locator("#node-input-command + .red-ui-typedInput-container input.red-ui-typedInput-input").fill("getprop ro.product.model");
    await page.locator("#node-dialog-ok").click();
    await page.locator("#node-dialog-ok").waitFor({ state: "detached" });
    await untilEditorAtRest(page);
    // Opened again, the dialog shows the saved action's rows from the start.
    await openNode(page, phoneNode);
    assert.equal(await action.inputValue(), "shell");
    assert.deepEqual(await shown(), { ...always, wait: false, command: true, appVersionId: false, packageName: false }, "shell, reopened");
    assert.equal(await page.locator("#node-input-command").inputValue(), "getprop ro.product.model");
    await action.selectOption("info");
    assert.equal(await rowOf("command").isVisible(), false, "info, after shell");
    await page.locator("#node-dialog-cancel").click();
    await page.locator("#node-dialog-cancel").waitFor({ state: "detached" });
    await untilEditorAtRest(page);
  });

  it("a start profile node's dialog shows Headless and CDP evasion only for this machine, and Lease for both", async () => {
    const { page } = session();
    const startNode = await dragFromPalette(page, "morelogin-start-profile", "morelogin-start-profile", 420, 380);
    const where = page.locator("#node-input-where");
    const rowOf = (field: string) => page.locator(`.form-row:has(#node-input-${field})`);
    const shown = async (): Promise<Record<string, boolean>> => {
      const fields = ["envId", "where", "isHeadless", "cdpEvasion", "lease", "timeout"];
      return Object.fromEntries(await Promise.all(fields.map(async (field) => [field, await rowOf(field).isVisible()] as const)));
    };
    const always = { envId: true, where: true, timeout: true };
    const cancel = page.locator("#node-dialog-cancel");
    try {
      await openNode(page, startNode);
      assert.equal(await where.inputValue(), "local", "a new node starts profiles on this machine");
      assert.deepEqual(await shown(), { ...always, isHeadless: true, cdpEvasion: true, lease: true }, "local");
      await where.selectOption("cloud");
      assert.deepEqual(await shown(), { ...always, isHeadless: false, cdpEvasion: false, lease: true }, "cloud");
      await page.locator("#node-dialog-ok").click();
      await page.locator("#node-dialog-ok").waitFor({ state: "detached" });
      await untilEditorAtRest(page);
      // Opened again, the dialog shows the saved place's rows from the start.
      await openNode(page, startNode);
      assert.equal(await where.inputValue(), "cloud");
      assert.deepEqual(await shown(), { ...always, isHeadless: false, cdpEvasion: false, lease: true }, "cloud, reopened");
      await where.selectOption("local");
      assert.deepEqual(await shown(), { ...always, isHeadless: true, cdpEvasion: true, lease: true }, "local again");
    } finally {
      // Closed even when an assertion failed, so the tests after this one find the editor as they expect.
      if (await cancel.isVisible()) {
        await cancel.click();
        await cancel.waitFor({ state: "detached" });
        await untilEditorAtRest(page);
      }
    }
  });

  it("a browser node's dialog has no config node row, and shows each action's rows only", async () => {
    const { page } = session();
    const browserNode = await dragFromPalette(page, "morelogin-browser", "morelogin-browser", 420, 460);
    await openNode(page, browserNode);
    const action = page.locator("#node-input-action");
    const rowOf = (field: string) => page.locator(`.form-row:has(#node-input-${field})`);
    const shown = async (): Promise<Record<string, boolean>> => {
      const fields = [
        "url",
        "waitUntil",
        "selector",
        "text",
        "expression",
        "format",
        "cookieFormat",
        "cookieDomain",
        "fullPage",
        "attributes",
        "option",
        "key",
        "scrollBy",
        "file",
        "human",
        "endpoint",
        "timeout",
      ];
      return Object.fromEntries(await Promise.all(fields.map(async (field) => [field, await rowOf(field).isVisible()] as const)));
    };
    const none = {
      url: false,
      waitUntil: false,
      selector: false,
      text: false,
      expression: false,
      format: false,
      cookieFormat: false,
      cookieDomain: false,
      fullPage: false,
      attributes: false,
      option: false,
      key: false,
      scrollBy: false,
      file: false,
      human: false,
      endpoint: true,
      timeout: true,
    };
    assert.equal(await page.locator("#node-input-server").count(), 0, "no config node to choose");
    assert.equal(await action.inputValue(), "open", "a new node's action");
    assert.deepEqual(await shown(), { ...none, url: true, waitUntil: true }, "open");
    await action.selectOption("type");
    assert.deepEqual(await shown(), { ...none, selector: true, text: true, human: true }, "type");
    const onlyTheirs: Array<[string, Record<string, boolean>]> = [
      ["click", { selector: true, human: true }],
      ["hover", { selector: true, human: true }],
      ["extract", { selector: true, attributes: true }],
      ["select", { selector: true, option: true }],
      ["press", { selector: true, key: true }],
      ["scroll", { selector: true, scrollBy: true, human: true }],
      ["upload", { selector: true, file: true }],
      ["setCookies", { cookieDomain: true }],
    ];
    for (const [name, rows] of onlyTheirs) {
      await action.selectOption(name);
      assert.deepEqual(await shown(), { ...none, ...rows }, name);
    }
    await action.selectOption("evaluate");
    assert.deepEqual(await shown(), { ...none, expression: true }, "evaluate");
    await action.selectOption("screenshot");
    assert.deepEqual(await shown(), { ...none, fullPage: true }, "screenshot");
    await action.selectOption("content");
    assert.deepEqual(await shown(), { ...none, format: true }, "content");
    await action.selectOption("cookies");
    assert.deepEqual(await shown(), { ...none, url: true, cookieFormat: true }, "cookies");
    assert.equal(await page.locator("#node-input-cookieFormat").inputValue(), "json", "a new node reads cookies as JSON, as before");
    await page.locator("#node-dialog-ok").click();
    await page.locator("#node-dialog-ok").waitFor({ state: "detached" });
    await untilEditorAtRest(page);
    const state = await page.evaluate((id) => {
      const node = (window as unknown as { RED: { nodes: { node(id: string): { valid: boolean; validationErrors?: string[] } } } }).RED.nodes.node(id);
      return { valid: node.valid, errors: node.validationErrors ?? [] };
    }, browserNode);
    assert.deepEqual(state, { valid: true, errors: [] }, "valid without a config node");
  });

  it("the automation node's parameters are JSON by default and offer JSON first", async () => {
    const { page } = session();
    const automationNode = await dragFromPalette(page, "morelogin-automation", "morelogin-automation", 420, 400);
    await openNode(page, automationNode);
    const parameters = page.locator(".form-row:has(#node-input-parameters)");
    assert.equal(await page.locator("#node-input-action").inputValue(), "templates");
    assert.equal(await parameters.isVisible(), false, "templates takes no parameters");
    await page.locator("#node-input-action").selectOption("runOnce");
    assert.equal(await parameters.isVisible(), true, "runOnce");
    assert.equal(await page.locator("#node-input-parametersType").inputValue(), "json");
    await parameters.locator(".red-ui-typedInput-container button.red-ui-typedInput-type-select").click();
    const menu = page.locator(".red-ui-typedInput-options:visible");
    await menu.waitFor({ state: "visible" });
    const offered = await menu.locator("a[value]").evaluateAll((options) => options.map((option) => option.getAttribute("value")));
    assert.deepEqual(offered, ["json", "str", "msg", "flow", "global", "env", "jsonata"]);
    await menu.locator('a[value="json"]').click();
    await menu.waitFor({ state: "hidden" });
    assert.equal(await page.locator("#node-input-parametersType").inputValue(), "json");
    await page.locator("#node-dialog-cancel").click();
    await page.locator("#node-dialog-cancel").waitFor({ state: "detached" });
    await untilEditorAtRest(page);
  });

  it("a batch node's Queue adds a Redis queue config node: a URL holding a password is refused with a word on where it goes, the label is host:port/db, the password is a credential", async () => {
    const { page, nodeRed } = session();
    const password = "e2e-redis-password";
    const batchId = await dragFromPalette(page, "morelogin-batch", "batch", 680, 460);
    await openNode(page, batchId);
    await page.locator("#node-input-btn-queue-add").click();
    const url = page.locator("#node-config-input-url");
    await url.waitFor({ state: "visible" });
    await untilEditorAtRest(page);
    assert.equal(await url.inputValue(), "redis://127.0.0.1:6379/0", "the default URL");
    assert.equal(await page.locator("#node-config-input-workerTimeout").inputValue(), "30");
    assert.match((await page.locator("#node-config-input-worker").getAttribute("placeholder")) ?? "", /host name/, "the worker name's placeholder says the default");
    assert.equal(await page.locator("#node-config-input-password").getAttribute("type"), "password");
    const refused = async (locator: typeof url, value: string): Promise<boolean> => {
      await locator.fill(value);
      await locator.dispatchEvent("change");
      return locator.evaluate((input) => input.classList.contains("input-error"));
    };
    const warning = page.locator("#morelogin-queue-url-warning");
    for (const withPassword of ["redis://:secret@127.0.0.1:6379/0", "rediss://morelogin:secret@redis.example.com:6380/2"]) {
      assert.equal(await refused(url, withPassword), true, `${withPassword} is refused`);
      assert.equal(await warning.isVisible(), true, `${withPassword}: the dialog says where the password goes`);
    }
    assert.match(await warning.innerText(), /Password field/);
    for (const other of ["http://127.0.0.1:6379", "127.0.0.1:6379", "redis://"]) assert.equal(await refused(url, other), true, `${other} is refused`);
    for (const fine of ["redis://127.0.0.1:6379/0", "redis://morelogin@127.0.0.1:6379/0", "${REDIS_URL}"]) assert.equal(await refused(url, fine), false, `${fine} is accepted`);
    const timeout = page.locator("#node-config-input-workerTimeout");
    assert.equal(await refused(timeout, "4"), true, "a worker timeout under 5 s is refused");
    assert.equal(await refused(timeout, "5"), false);
    assert.equal(await refused(url, "rediss://127.0.0.1:6390/2"), false);
    assert.equal(await warning.isVisible(), false);
    await page.locator("#node-config-input-username").fill("morelogin");
    await page.locator("#node-config-input-password").fill(password);
    await page.locator("#node-config-dialog-ok").click();
    await url.waitFor({ state: "detached" });
    await untilEditorAtRest(page);
    assert.equal((await page.locator("#node-input-queue option:checked").innerText()).trim(), "127.0.0.1:6390/2", "the new queue is chosen, labelled host:port/db");
    await page.locator("#node-input-name").fill("e2e batch on a queue");
    await page.locator("#node-dialog-ok").click();
    await page.locator("#node-dialog-ok").waitFor({ state: "detached" });
    await untilEditorAtRest(page);
    const queueId = await page.evaluate((id) => (window as unknown as { RED: { nodes: { node: (i: string) => { queue: string } } } }).RED.nodes.node(id).queue, batchId);
    assert.ok(queueId, "the batch node names the queue config node");
    await page.locator("#red-ui-header-button-deploy").click();
    // Nodes earlier tests left unconfigured on the workspace make the editor ask first: deploy all the same, as a person would.
    const confirm = page.locator("#red-ui-deploy-dialog-confirm-deploy-deploy");
    const flows = await waitUntil(
      async () => {
        // The dialog fades out after the click: a second look may still see it, and its button go away under the click.
        if (await confirm.isVisible()) await confirm.click({ timeout: 5_000 }).catch(() => undefined);
        return (await fetch(`${nodeRed.url}/flows`, { headers: { accept: "application/json" } })).text();
      },
      (text) => text.includes(queueId),
      "the deployed flows hold the queue config node",
      60_000,
    );
    assert.ok(flows.includes("rediss://127.0.0.1:6390/2"), "the flow holds the URL");
    assert.ok(!flows.includes(password), "the flow does not hold the password");
    const credentials = (await (await fetch(`${nodeRed.url}/credentials/morelogin-queue/${queueId}`)).json()) as Record<string, unknown>;
    assert.deepEqual(credentials, { username: "morelogin", has_password: true });
  });

  it("the editor logged no errors from the MoreLogin nodes, and no uncaught page error", () => {
    const others = session().errors.filter((error) => !ourErrors([error]).length);
    if (others.length) console.log(`    other errors in the page:\n${others.join("\n")}`);
    assert.deepEqual(ourErrors(session().errors), []);
    assert.deepEqual(
      session().errors.filter((error) => error.startsWith("page error:")),
      [],
    );
  });
});
