import assert from "node:assert/strict";
import type { Node, NodeMessage } from "node-red";
import { call, closedPort, dataOf } from "../support/http";
import { useChromiumProfiles } from "../support/browser-suite";
import { browserPid, resetBrowser, tabsOf, type Tab } from "../support/chromium";
import { isRunning } from "../../tools/processes";
import { Collector, catchNode, completeNode, configNode, credentialsFor, helper, NODE_MODULES, drainDeliveries, statusCalls, TAB, CONFIG_ID, type FlowNode, type Msg } from "../support/node-red";
import { waitUntil, OUTCOME_MS } from "../support/wait-until";
import { infoOf, NO_PACING } from "../support/outcome";
import { SecretScanner } from "../support/secrets";

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A browser node of a chain: its action and fields, as a saved flow has them. */
type Step = Record<string, unknown> & { action: string };

interface ChainOutcome {
  out: Msg[];
  caught: Msg[];
  /** The texts of the errors, with the id of the node that ended the message. */
  errors: Array<{ node: string; text: string; kind?: string }>;
}

/** The string fields of a step as TypedInputs of type str, as the editor saves them. */
function browserNode(id: string, step: Step, next: string): FlowNode {
  const node: FlowNode = { id, type: "morelogin-browser", z: TAB, wires: [[next]], ...step };
  for (const name of ["url", "selector", "text", "expression", "endpoint"]) {
    if (typeof step[name] === "string" && step[`${name}Type`] === undefined) node[`${name}Type`] = "str";
  }
  return node;
}

describe("nodes: browser, on a real Chromium behind each started profile", function () {
  this.timeout(OUTCOME_MS * 2);
  // A cloud browser starts and archives in 1.5 s, not the emulator's 3 s: the start still waits, seeing STARTING before RUNNING.
  const emulator = useChromiumProfiles(40, { phoneBootMs: 1500 });
  const demoUrl = (): string => `${emulator().localUrl}/demo`;
  /**
   * Two profiles whose browsers the tests that only use pages share: started by the first test that
   * needs them and kept running, each put back after every test (resetBrowser: one blank tab, no
   * cookies), so no test depends on another's. A Chromium start is most of what a test costs.
   */
  const SHARED = 2;
  const sharedProfile = (index: 0 | 1 = 0): string => {
    const id = emulator().data.profiles[index]?.id;
    assert.ok(id, "a shared profile");
    return id;
  };
  let next = SHARED;
  /** A profile of its own, for a test that kills, closes or restarts its browser: closed after the test. */
  const freshProfile = (): string => {
    const id = emulator().data.profiles[next++]?.id;
    assert.ok(id, "a free profile");
    return id;
  };
  /** Starts a profile as the desktop client would (not through a node): its browser's WebSocket URL. */
  const startOutside = async (envId: string): Promise<{ debugPort: string; webSocketDebuggerUrl: string }> => {
    const { debugPort } = dataOf<{ debugPort: string }>(await call(emulator().localUrl, "/api/env/start", { body: { envId } }));
    const version = (await (await fetch(`http://127.0.0.1:${debugPort}/json/version`)).json()) as { webSocketDebuggerUrl: string };
    return { debugPort, webSocketDebuggerUrl: version.webSocketDebuggerUrl };
  };

  afterEach(async () => {
    const shared = [sharedProfile(0), sharedProfile(1)];
    for (const profile of emulator().running()) {
      if (shared.includes(profile.envId)) {
        try {
          await resetBrowser(profile.debugPort);
          continue;
        } catch {
          // A shared browser that cannot be put back (a failed test left it unusable) is closed: the next test starts it afresh.
        }
      }
      await call(emulator().localUrl, "/api/env/close", { body: { envId: profile.envId } });
    }
  });

  /**
   * Loads start profile → the steps' browser nodes → "out" (and close profile after them when
   * `close`), sends `input` to start profile (to the first browser node when `start` is false) and
   * collects what came out, once the flow is quiet.
   */
  async function chain(steps: Step[], input: Record<string, unknown>, options: { close?: boolean; start?: boolean; where?: "cloud" } = {}): Promise<ChainOutcome> {
    const ids = steps.map((_, index) => `b${index + 1}`);
    const last = options.close ? "close" : "out";
    const flow: FlowNode[] = [
      { id: TAB, type: "tab", label: "browser" },
      configNode(emulator(), NO_PACING),
      { id: "start", type: "morelogin-start-profile", z: TAB, server: CONFIG_ID, ...(options.where ? { where: options.where } : {}), wires: [[ids[0] ?? last]] },
      ...steps.map((step, index) => browserNode(ids[index] as string, step, ids[index + 1] ?? last)),
      { id: "close", type: "morelogin-close-profile", z: TAB, server: CONFIG_ID, wires: [["out"]] },
      { id: "out", type: "helper", z: TAB },
      { id: "catch1", type: "catch", z: TAB, scope: null, uncaught: false, wires: [["caught"]] },
      { id: "caught", type: "helper", z: TAB },
    ];
    await helper.unload();
    await helper.load([...NODE_MODULES, catchNode, completeNode] as never, flow as never, credentialsFor(emulator()) as never);
    const out = new Collector("out");
    const caught = new Collector("caught");
    helper.getNode(options.start === false ? "b1" : "start").receive(input as NodeMessage);
    await waitUntil(() => out.messages.length + caught.messages.length > 0, "the message came out or was caught");
    // Its one outcome; what else the nodes sent or threw before it has arrived once the queued deliveries ran.
    await drainDeliveries();
    const errors = (caught.messages as Msg[]).map((msg) => {
      const error = msg.error as { message: string; source: { id: string } };
      return { node: error.source.id, text: error.message, kind: infoOf(msg).error?.kind };
    });
    return { out: out.messages as Msg[], caught: caught.messages as Msg[], errors };
  }

  /** The one message out of a chain that failed nowhere. */
  function passed(outcome: ChainOutcome): Msg {
    assert.deepEqual(outcome.errors, [], "no node failed");
    assert.equal(outcome.out.length, 1, "one message out");
    return outcome.out[0] as Msg;
  }

  /** The one error of a chain, at the node it names, and nothing out. */
  function failedAt(outcome: ChainOutcome, node: string): { text: string; kind?: string } {
    assert.equal(outcome.out.length, 0, "nothing came out");
    assert.equal(outcome.errors.length, 1, `one error: ${JSON.stringify(outcome.errors)}`);
    const [error] = outcome.errors;
    assert.equal(error?.node, node, `the error is at ${node}: ${error?.text}`);
    return { text: error?.text ?? "", kind: error?.kind };
  }

  const open = (): Step => ({ action: "open", url: demoUrl() });

  describe("each action", () => {
    it("open: loads the page in a new tab of the profile's browser, replies its URL, title and status, and keeps the profile and the tab on the message", async () => {
      const envId = sharedProfile();
      const msg = passed(await chain([open()], { payload: envId }));
      assert.deepEqual(msg.payload, { url: demoUrl(), title: "MoreLogin emulator demo", status: 200 });
      const info = infoOf(msg) as { profile?: { envId: string; webSocketDebuggerUrl?: string }; page?: { targetId: string; webSocketDebuggerUrl: string } };
      assert.equal(info.profile?.envId, envId, "the started profile travels on");
      assert.equal(info.page?.webSocketDebuggerUrl, info.profile?.webSocketDebuggerUrl, "the tab is in the profile's browser");
      const running = emulator()
        .running()
        .find((profile) => profile.envId === envId);
      const tabs = await tabsOf(String(running?.debugPort));
      assert.deepEqual(
        tabs.filter((tab) => tab.url === demoUrl()).map((tab) => tab.id),
        [info.page?.targetId],
        "one tab shows the page, and msg.morelogin.page names it",
      );
      assert.equal(msg.topic, envId, "msg.topic stays the profile's ID");
    });

    it("type and click: the demo page greets the name typed, replacing what the field held; the payload passes through", async () => {
      const msg = passed(
        await chain(
          [
            open(),
            { action: "type", selector: "#name", text: "somebody else" },
            { action: "type", selector: "#name", text: "Ada" },
            { action: "click", selector: "#greet" },
            { action: "content", format: "text" },
          ],
          { payload: sharedProfile() },
        ),
      );
      assert.match(String(msg.payload), /Hello, Ada!/);
      assert.doesNotMatch(String(msg.payload), /somebody else/);
    });

    it("click, type and waitFor leave msg.payload as it was", async () => {
      const msg = passed(
        await chain(
          [
            open(),
            { action: "evaluate", expression: "'kept'" },
            { action: "type", selector: "#name", text: "x" },
            { action: "click", selector: "#greet" },
            { action: "waitFor", selector: "#greeting" },
          ],
          { payload: sharedProfile() },
        ),
      );
      assert.equal(msg.payload, "kept");
    });

    it("evaluate: an expression's value, a function body's return value and an awaited promise become msg.payload; it runs in the page", async () => {
      const first = passed(await chain([open(), { action: "evaluate", expression: "document.title" }], { payload: sharedProfile() }));
      assert.equal(first.payload, "MoreLogin emulator demo");
      const second = passed(
        await chain([open(), { action: "evaluate", expression: "const links = document.querySelectorAll('button').length;\nreturn { buttons: links, here: location.pathname }" }], {
          payload: sharedProfile(),
        }),
      );
      assert.deepEqual(second.payload, { buttons: 1, here: "/demo" });
      const third = passed(await chain([open(), { action: "evaluate", expression: "new Promise((resolve) => setTimeout(() => resolve(typeof process), 50))" }], { payload: sharedProfile() }));
      assert.equal(third.payload, "undefined", "the page has no Node.js process object: the script ran in the browser");
    });

    it("evaluate: a script that throws is a page error naming what it threw", async () => {
      const error = failedAt(await chain([open(), { action: "evaluate", expression: "notDefinedAnywhere.value" }], { payload: sharedProfile() }), "b2");
      assert.equal(error.kind, "page");
      assert.match(error.text, /^browser failed: the script failed in the page: ReferenceError: notDefinedAnywhere is not defined$/);
      assert.deepEqual(statusCalls(helper.getNode("b2")).at(-1), { fill: "red", shape: "ring", text: "page error" }, "the node's status says what kind of failure");
    });

    it("screenshot: msg.payload is a PNG of the page; with the whole page it is taller than the window", async () => {
      const grow = { action: "evaluate", expression: "document.body.style.height = '3000px'; return innerHeight" };
      const visible = passed(await chain([open(), grow, { action: "screenshot" }], { payload: sharedProfile() }));
      const whole = passed(await chain([open(), grow, { action: "screenshot", fullPage: true }], { payload: sharedProfile() }));
      for (const msg of [visible, whole]) {
        assert.ok(Buffer.isBuffer(msg.payload), "a Buffer");
        assert.deepEqual((msg.payload as Buffer).subarray(0, 8), PNG_SIGNATURE, "a PNG");
      }
      const height = (png: Buffer): number => png.readUInt32BE(20);
      assert.ok(height(whole.payload as Buffer) >= 3000, `the whole page is ${height(whole.payload as Buffer)} px high`);
      assert.ok(height(visible.payload as Buffer) < 3000, `the visible part is ${height(visible.payload as Buffer)} px high`);
    });

    it("waitFor: waits until the element shows; one that never does is a timeout naming the selector, after the node's timeout", async () => {
      const later = "setTimeout(() => { const p = document.createElement('p'); p.id = 'late'; p.textContent = 'here'; document.body.append(p) }, 700); return 'scheduled'";
      passed(
        await chain([open(), { action: "evaluate", expression: later }, { action: "waitFor", selector: "#late" }, { action: "evaluate", expression: "document.querySelector('#late').textContent" }], {
          payload: sharedProfile(),
        }),
      );
      const error = failedAt(await chain([open(), { action: "waitFor", selector: "#never-there", timeout: "1" }], { payload: sharedProfile() }), "b2");
      assert.equal(error.kind, "timeout");
      assert.equal(error.text, 'browser failed: no element matches "#never-there" after 1 s (waitFor)');
    });

    it("evaluate: a script that never settles ends at the node's timeout, as a timeout", async () => {
      const error = failedAt(await chain([open(), { action: "evaluate", expression: "await new Promise(() => {})", timeout: "1" }], { payload: sharedProfile() }), "b2");
      assert.equal(error.kind, "timeout");
      assert.equal(error.text, "browser failed: evaluate did not finish in 1 s");
    });

    it("click: an element the selector finds but nobody can click is a timeout that says so", async () => {
      const disable = { action: "evaluate", expression: "document.querySelector('#greet').disabled = true; return 'disabled'" };
      const error = failedAt(await chain([open(), disable, { action: "click", selector: "#greet", timeout: "1" }], { payload: sharedProfile() }), "b3");
      assert.equal(error.kind, "timeout");
      assert.equal(error.text, 'browser failed: "#greet" matches an element, but it could not be used for click within 1 s (hidden, disabled or covered by another element?)');
    });

    it("click: a page too busy to be searched in time still gets a timeout that says the element is there", async () => {
      // The page's own script holds it for 2 s, past the step's 1 s: Playwright never gets to look for the element.
      const busy = { action: "evaluate", expression: "setTimeout(() => { const until = Date.now() + 2000; while (Date.now() < until); }, 0); return 'busy'" };
      const error = failedAt(await chain([open(), busy, { action: "click", selector: "#greet", timeout: "1" }], { payload: sharedProfile() }), "b3");
      assert.equal(error.kind, "timeout");
      assert.match(error.text, /^browser failed: "#greet" matches an element, but it could not be used for click within 1 s/);
    });

    it("content: the page's HTML, visible text, title or URL", async () => {
      const envId = sharedProfile();
      const formats = ["html", "text", "title", "url"];
      const replies: unknown[] = [];
      for (const format of formats) {
        replies.push(passed(await chain([open(), { action: "content", format }], { payload: envId })).payload);
      }
      const [html, text, title, url] = replies;
      assert.match(String(html), /<button id="greet"/);
      assert.doesNotMatch(String(text), /<button/);
      assert.equal(title, "MoreLogin emulator demo");
      assert.equal(url, demoUrl());
    });

    it("cookies: the profile's cookies, all of them or those sent to one URL", async () => {
      const setCookies = { action: "evaluate", expression: "document.cookie = 'visited=yes; path=/'; document.cookie = 'lang=en; path=/demo'; return document.cookie" };
      const all = passed(await chain([open(), setCookies, { action: "cookies" }], { payload: sharedProfile() }));
      const names = (all.payload as Array<{ name: string; value: string; domain: string }>).map((cookie) => `${cookie.name}=${cookie.value}@${cookie.domain}`).sort();
      assert.deepEqual(names, ["lang=en@127.0.0.1", "visited=yes@127.0.0.1"]);
      const forRoot = passed(await chain([open(), setCookies, { action: "cookies", url: `${emulator().localUrl}/` }], { payload: sharedProfile() }));
      assert.deepEqual(
        (forRoot.payload as Array<{ name: string }>).map((cookie) => cookie.name),
        ["visited"],
        "lang is only sent to /demo",
      );
    });

    it("closePage: closes the tab it opened and drops msg.morelogin.page; the profile's other tab stays", async () => {
      const envId = sharedProfile();
      const msg = passed(await chain([open(), { action: "closePage" }], { payload: envId }));
      assert.equal(infoOf(msg).page, undefined, "no tab on the message");
      const running = emulator()
        .running()
        .find((profile) => profile.envId === envId);
      const tabs = await tabsOf(String(running?.debugPort));
      assert.deepEqual(
        tabs.map((tab) => tab.url),
        ["about:blank"],
        "the demo tab is gone, the first tab is still there",
      );
    });

    it("closePage on the browser's last tab empties it instead, so the browser stays up", async () => {
      const envId = sharedProfile();
      const { debugPort, webSocketDebuggerUrl } = await startOutside(envId);
      // The browser's own first tab, named as the tab to act on: once the demo page is in it, it is the only tab.
      const [first] = await tabsOf(debugPort);
      const page = { targetId: first?.id, webSocketDebuggerUrl };
      const msg = passed(await chain([{ action: "open", url: demoUrl() }, { action: "closePage" }], { payload: { webSocketDebuggerUrl }, morelogin: { page } }, { start: false }));
      assert.equal(infoOf(msg).page, undefined);
      assert.deepEqual(
        (await tabsOf(debugPort)).map((tab) => tab.url),
        ["about:blank"],
      );
      assert.ok(isRunning(await browserPid(emulator(), envId)), "the browser is still running");
    });
  });

  describe("finding the browser", () => {
    it("uses msg.payload's webSocketDebuggerUrl before msg.morelogin.profile, and the node's endpoint (a debug port) last", async () => {
      const [one, two] = [sharedProfile(0), sharedProfile(1)];
      const first = await startOutside(one);
      const second = await startOutside(two);
      const titleOf = async (debugPort: string): Promise<string[]> => (await tabsOf(debugPort)).map((tab: Tab) => tab.title).filter((title) => title === "MoreLogin emulator demo");
      passed(
        await chain(
          [{ action: "open", url: demoUrl() }],
          { payload: { webSocketDebuggerUrl: first.webSocketDebuggerUrl }, morelogin: { profile: { envId: two, debugPort: second.debugPort, webSocketDebuggerUrl: second.webSocketDebuggerUrl } } },
          { start: false },
        ),
      );
      assert.deepEqual(await titleOf(first.debugPort), ["MoreLogin emulator demo"], "msg.payload's browser opened the page");
      assert.deepEqual(await titleOf(second.debugPort), [], "not the carried profile's");
      passed(await chain([{ action: "open", url: demoUrl(), endpoint: second.debugPort }], { payload: "" }, { start: false }));
      assert.deepEqual(await titleOf(second.debugPort), ["MoreLogin emulator demo"], "the node's endpoint, a debug port on this machine");
    });

    it("says what it expected when no browser is named, and when nothing answers at the address", async () => {
      const none = failedAt(await chain([{ action: "open", url: demoUrl() }], { payload: { webSocketDebuggerUrl: "" } }, { start: false }), "b1");
      assert.equal(none.kind, "input");
      assert.match(none.text, /no browser given: put a start profile node before this one/);
      const nothing = failedAt(await chain([{ action: "open", url: demoUrl() }], { payload: { cdpUrl: "http://127.0.0.1:9" } }, { start: false }), "b1");
      assert.equal(nothing.kind, "network");
      assert.equal(nothing.text, "browser failed: no browser answers at http://127.0.0.1:9/json/version: is the profile running?");
    });

    it("a page that does not load is a page error naming the URL, and the tab it opened for it is closed again", async () => {
      const envId = sharedProfile();
      const url = `http://127.0.0.1:${await closedPort()}/nothing-here`;
      const error = failedAt(await chain([{ action: "open", url }], { payload: envId }), "b1");
      assert.equal(error.kind, "page");
      assert.equal(error.text, `browser failed: the page did not load: net::ERR_CONNECTION_REFUSED at ${url}`);
      const running = emulator()
        .running()
        .find((profile) => profile.envId === envId);
      assert.deepEqual(
        (await tabsOf(String(running?.debugPort))).map((tab) => tab.url),
        ["about:blank"],
      );
    });

    it("refuses a URL it should not open (file:, javascript:) before touching the browser", async () => {
      for (const url of ["file:///etc/passwd", "javascript:alert(1)", "example.com"]) {
        // A browser address nothing answers at: the URL is refused before the node looks for it.
        const error = failedAt(await chain([{ action: "open", url }], { payload: { webSocketDebuggerUrl: "ws://127.0.0.1:9/devtools/browser/none" } }, { start: false }), "b1");
        assert.equal(error.kind, "input", url);
        assert.match(error.text, /url must be an http:\/\/ or https:\/\/ address/);
      }
    });
  });

  describe("flows", () => {
    it("five browser nodes in a row act on one tab", async () => {
      const envId = sharedProfile();
      const msg = passed(
        await chain(
          [
            open(),
            { action: "type", selector: "#name", text: "Grace" },
            { action: "click", selector: "#greet" },
            { action: "waitFor", selector: "#greeting" },
            { action: "evaluate", expression: "document.querySelector('#greeting').textContent" },
          ],
          { payload: envId },
        ),
      );
      assert.equal(msg.payload, "Hello, Grace!");
      const running = emulator()
        .running()
        .find((profile) => profile.envId === envId);
      const tabs = await tabsOf(String(running?.debugPort));
      assert.equal(tabs.filter((tab) => tab.url === demoUrl()).length, 1, "one tab was opened, and every step acted on it");
    });

    it("two profiles at once: each message's steps act on its own profile's tab", async () => {
      const ids = [sharedProfile(0), sharedProfile(1)];
      const flow: FlowNode[] = [
        { id: TAB, type: "tab", label: "two" },
        configNode(emulator(), NO_PACING),
        { id: "start", type: "morelogin-start-profile", z: TAB, server: CONFIG_ID, wires: [["b1"]] },
        browserNode("b1", open(), "b2"),
        browserNode("b2", { action: "type", selector: "#name", text: "name", textType: "msg" }, "b3"),
        browserNode("b3", { action: "click", selector: "#greet" }, "b4"),
        browserNode("b4", { action: "evaluate", expression: "document.querySelector('#greeting').textContent" }, "out"),
        { id: "out", type: "helper", z: TAB },
        { id: "catch1", type: "catch", z: TAB, scope: null, uncaught: false, wires: [["caught"]] },
        { id: "caught", type: "helper", z: TAB },
      ];
      await helper.load([...NODE_MODULES, catchNode, completeNode] as never, flow as never, credentialsFor(emulator()) as never);
      const out = new Collector("out");
      const caught = new Collector("caught");
      const start = helper.getNode("start");
      start.receive({ payload: ids[0], name: "Ada" } as NodeMessage);
      start.receive({ payload: ids[1], name: "Linus" } as NodeMessage);
      await out.next(2, OUTCOME_MS);
      await drainDeliveries();
      assert.deepEqual(caught.messages, []);
      const greeted = Object.fromEntries((out.messages as Msg[]).map((msg) => [String(msg.topic), msg.payload]));
      assert.deepEqual(greeted, { [ids[0] as string]: "Hello, Ada!", [ids[1] as string]: "Hello, Linus!" });
    });

    it("the browser killed mid-flow: a clear network error, and the next message after a restart connects again", async () => {
      const envId = freshProfile();
      const { webSocketDebuggerUrl } = await startOutside(envId);
      const flow: FlowNode[] = [
        { id: TAB, type: "tab", label: "killed" },
        browserNode("b1", open(), "b2"),
        browserNode("b2", { action: "evaluate", expression: "document.title" }, "out"),
        { id: "out", type: "helper", z: TAB },
        { id: "catch1", type: "catch", z: TAB, scope: null, uncaught: false, wires: [["caught"]] },
        { id: "caught", type: "helper", z: TAB },
      ];
      await helper.load([...NODE_MODULES, catchNode, completeNode] as never, flow as never);
      const out = new Collector("out");
      const caught = new Collector("caught");
      helper.getNode("b1").receive({ payload: { webSocketDebuggerUrl } } as NodeMessage);
      await waitUntil(() => out.messages.length + caught.messages.length > 0, "the first message came out");
      assert.equal(caught.messages.length, 0, "the first message went through");

      process.kill(await browserPid(emulator(), envId), "SIGKILL");
      helper.getNode("b2").receive({ payload: { webSocketDebuggerUrl } } as NodeMessage);
      await caught.next(1, OUTCOME_MS);
      const error = (caught.messages[0] as Msg).error as { message: string };
      assert.equal(infoOf(caught.messages[0] as Msg).error?.kind, "network");
      assert.match(error.message, /^browser failed: (the browser or its tab went away \(closed or crashed\) during evaluate|no browser (at|answers at) .*: is the profile running\?)$/);

      await call(emulator().localUrl, "/api/env/close", { body: { envId } });
      const restarted = await startOutside(envId);
      helper.getNode("b1").receive({ payload: { webSocketDebuggerUrl: restarted.webSocketDebuggerUrl } } as NodeMessage);
      await out.next(2, OUTCOME_MS);
      assert.equal((out.messages[1] as Msg).payload, "MoreLogin emulator demo", "the restarted browser opened the page and read its title");
      assert.equal(caught.messages.length, 1, "only the message sent while the browser was gone failed");
    });

    it("a redeploy during an action ends that message once, at once, and the browser stays usable", async () => {
      const envId = sharedProfile();
      const { webSocketDebuggerUrl } = await startOutside(envId);
      const flow: FlowNode[] = [
        { id: TAB, type: "tab", label: "redeploy" },
        browserNode("n1", { action: "waitFor", selector: "#never-there", timeout: "120" }, "out"),
        { id: "out", type: "helper", z: TAB },
      ];
      await helper.load([...NODE_MODULES] as never, flow as never);
      const node = helper.getNode("n1") as Node;
      const ended: string[] = [];
      node.error = (error: unknown): void => {
        ended.push(error instanceof Error ? error.message : String(error));
      };
      node.receive({ payload: { webSocketDebuggerUrl } } as NodeMessage);
      await waitUntil(() => statusCalls(node).some((status) => status.fill === "blue"), "the step is under way");
      await waitUntil(
        async () =>
          (
            await tabsOf(
              String(
                emulator()
                  .running()
                  .find((profile) => profile.envId === envId)?.debugPort,
              ),
            )
          ).length > 0,
        "the browser is reached",
      );
      await helper.unload();
      // The stop reaches the message through the step's abort: wait for that outcome, then make sure it is the only one.
      await waitUntil(() => ended.length > 0, "the redeploy has ended the message");
      await new Promise((resolve) => setImmediate(resolve));
      assert.equal(ended.length, 1, "the redeploy has ended the message once");
      assert.match(ended[0] as string, /stopped/);

      passed(await chain([{ action: "open", url: demoUrl(), endpoint: webSocketDebuggerUrl }], { payload: "" }, { start: false }));
      assert.ok(isRunning(await browserPid(emulator(), envId)), "the browser was not closed by the node");
    });
  });
  describe("a cloud browser (where: cloud), driven as a local profile", () => {
    it("start in the cloud → open → title, then on the same connection the URL; a wrong token refused; close: the steps work through its cdpUrl, and its token is in no status, log or error", async () => {
      // A cloud browser needs a proxy: a profile with one, from the end of the list (freshProfile takes from the start).
      const envId = [...emulator().data.profiles].reverse().find((profile) => profile.proxy !== null)?.id;
      assert.ok(envId, "a profile with a proxy");
      const first = passed(await chain([open(), { action: "content", format: "title" }], { payload: envId }, { where: "cloud" }));
      assert.equal(first.payload, "MoreLogin emulator demo");
      const info = infoOf(first) as { profile?: { where?: string; cdpUrl?: string; webSocketDebuggerUrl?: string } };
      assert.equal(info.profile?.where, "cloud");
      const token = new URL(String(info.profile?.cdpUrl)).searchParams.get("token");
      assert.match(String(token), /^[0-9a-f]{32}$/, "the start carries the cloud browser's cdpUrl, token and all");
      assert.equal(new URL(String(info.profile?.webSocketDebuggerUrl)).searchParams.get("token"), token, "its WebSocket URL, through the gateway");
      assert.equal(
        emulator()
          .running()
          .some((profile) => profile.envId === envId),
        false,
        "nothing started on this machine",
      );

      const second = passed(await chain([{ action: "content", format: "url" }], { payload: "", morelogin: first.morelogin }, { start: false }));
      assert.equal(second.payload, demoUrl(), "the tab the first message opened");
      // A cdpUrl whose token is not its run's: the gateway refuses it, and the error says so without the token.
      const wrong = new URL(String(info.profile?.cdpUrl));
      wrong.searchParams.set("token", "0123456789abcdef".repeat(2));
      const refused = failedAt(await chain([{ action: "content", format: "title" }], { payload: { envId, cdpUrl: wrong.toString(), where: "cloud" } }, { start: false }), "b1");
      assert.equal(refused.kind, "auth");
      assert.match(refused.text, /^browser failed: the browser at http:\/\/127\.0\.0\.1:\d+\/json\/version\?token=\*\*\* refused its token \(HTTP 401\): /);
      assert.ok(!refused.text.includes("0123456789abcdef") && !refused.text.includes(String(token)), "no token in the error");
      const closed = passed(await chain([{ action: "content", format: "title" }], { payload: "", morelogin: second.morelogin }, { start: false, close: true }));
      assert.deepEqual(closed.payload, { envId, where: "cloud" }, "a close node left on local closes the cloud browser the message carries");
      const row = async (): Promise<Record<string, unknown>> =>
        dataOf<{ dataList: Array<Record<string, unknown>> }>(await call(emulator().localUrl, "/api/cloudbrowser/page", { body: { pageNo: 1, pageSize: 10, envId } })).dataList[0] ?? {};
      await waitUntil(row, (seen) => seen.cloudBrowserStatus === "CLOSED" && seen.cloudBrowserArchiveStatus === "COMPLETED", "the close stopped the cloud browser, its archive completed");

      const scanner = new SecretScanner([String(token)]);
      scanner.scanRuntime(helper.getNode("close"));
      assert.ok(scanner.scanned > 0, "status and log calls were read");
      assert.deepEqual(scanner.findings, []);
    });
  });
});
