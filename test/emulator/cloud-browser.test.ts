import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import type { Emulator } from "../../src/emulator";
import { isRunning, killAll } from "../../tools/processes";
import { browserSkipReason, CHROMIUM } from "../support/chromium";
import { useEmulator } from "../support/emulator";
import { call, dataOf, expectError, getJson, refused, type PageShape } from "../support/http";
import { childrenWith, userDataDirOf } from "../support/processes";
import { waitUntil } from "../support/wait-until";

/**
 * A cloud runtime's own Chromium (`--browser`) behind its gateway: the cdpUrl MoreLogin hands out, with its
 * token. Two Chromium starts in all: they are what this file costs.
 */

/** The provisioning time: a runtime starts in it and archives in it. The clock is manual: states change when a test moves it. */
const BOOT_MS = 1_000;
const DEMO_TITLE = "MoreLogin emulator demo";

interface Row {
  cloudBrowserStatus: string;
  cloudBrowserArchiveStatus: string | null;
  startDate: string | null;
}

interface Connected {
  cdpUrl: string;
  accessUrl: string;
  /** http://127.0.0.1:<port> */
  gateway: string;
  token: string;
}

/** The browsers the emulators of this process run now. */
const ourBrowsers = (): number[] => childrenWith("--remote-debugging-pipe");

function api(emulator: () => Emulator) {
  const post = (path: string, body: unknown) => call(emulator().localUrl, `/api/cloudbrowser${path}`, { body });
  /** The runtime's state in `/page`, without the profile's own fields. */
  const row = async (envId: string): Promise<Row | undefined> => {
    const item = dataOf<PageShape<Row>>(await post("/page", { pageNo: 1, pageSize: 1, envId })).dataList[0];
    return item && { cloudBrowserStatus: item.cloudBrowserStatus, cloudBrowserArchiveStatus: item.cloudBrowserArchiveStatus, startDate: item.startDate };
  };
  const connect = async (envId: string): Promise<Connected> => {
    const { cdpUrl, accessUrl } = dataOf<{ cdpUrl: string; accessUrl: string }>(await post("/connect", { envId }));
    const [, gateway, token] = /^(http:\/\/127\.0\.0\.1:\d+)\?token=([0-9a-f]{32})$/.exec(cdpUrl) ?? [];
    assert.ok(gateway && token, `cdpUrl ${cdpUrl} is not http://127.0.0.1:<port>?token=<32 hex>`);
    return { cdpUrl, accessUrl, gateway, token };
  };
  /** Starts the profile's runtime and moves the clock past its provisioning: RUNNING once its Chromium is up. */
  const run = async (envId: string): Promise<Row | undefined> => {
    assert.equal(dataOf(await post("/start", { envId })), null);
    emulator().advanceClock(BOOT_MS);
    return waitUntil(
      () => row(envId),
      (item) => item?.cloudBrowserStatus === "RUNNING",
      "the cloud runtime runs once its Chromium is up",
    );
  };
  return { post, row, connect, run };
}

/** A WebSocket upgrade of `url` (http:// or ws://): the status it got (101 when accepted) and the `msg` of a refusal's JSON body. */
function upgrade(url: string): Promise<{ status: number; msg?: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url.replace(/^ws:/, "http:"), {
      agent: false,
      headers: { Connection: "Upgrade", Upgrade: "websocket", "Sec-WebSocket-Version": "13", "Sec-WebSocket-Key": randomBytes(16).toString("base64") },
    });
    req.on("upgrade", (res, socket) => {
      socket.destroy();
      resolve({ status: res.statusCode ?? 0 });
    });
    req.on("response", (res) => {
      let body = "";
      res.on("data", (chunk: Buffer) => (body += chunk.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, msg: (JSON.parse(body) as { msg?: string }).msg }));
    });
    req.on("error", reject);
    req.end();
  });
}

function profileWithProxy(emulator: Emulator, index: number): string {
  const id = emulator.data.profiles.filter((profile) => profile.proxy !== null)[index]?.id;
  assert.ok(id, `profile ${index} with a proxy`);
  return id;
}

describe("emulator: a cloud runtime's Chromium behind its gateway (--browser)", () => {
  /** Every browser a test saw: SIGKILLed after it if still running, so a failed test leaves none behind. */
  const seen = new Set<number>();

  before(function () {
    const skipped = browserSkipReason(process.env, CHROMIUM);
    if (skipped) {
      console.log(`    browser tests skipped on purpose (${skipped}): the cloud runtime's browser was not tested`);
      this.skip();
    }
  });

  afterEach(() => {
    killAll([...seen].filter(isRunning));
    seen.clear();
  });

  const { emulator } = useEmulator({ profiles: 12, browser: CHROMIUM, phoneBootMs: BOOT_MS, manualClock: true });
  const { post, row, connect, run } = api(emulator);

  /** The one Chromium the emulator runs now: the runtime's. */
  const theBrowser = (): number => {
    const browsers = ourBrowsers();
    assert.equal(browsers.length, 1, `one Chromium runs, not ${browsers.length}`);
    const [pid] = browsers as [number];
    seen.add(pid);
    return pid;
  };

  it("runs a Chromium Playwright drives through the gateway with the token, refuses a wrong or missing one, and on stop ends it, closes the gateway and archives", async () => {
    const envId = profileWithProxy(emulator(), 0);
    assert.equal(dataOf(await post("/start", { envId })), null);
    assert.deepEqual(await row(envId), { cloudBrowserStatus: "STARTING", cloudBrowserArchiveStatus: null, startDate: null });
    expectError(await post("/connect", { envId }), 200, 99001);
    emulator().advanceClock(BOOT_MS);
    const running = await waitUntil(
      () => row(envId),
      (item) => item?.cloudBrowserStatus === "RUNNING",
      "the cloud runtime runs once its Chromium is up",
    );
    const pid = theBrowser();
    const folder = userDataDirOf(pid);
    assert.ok(folder && existsSync(folder), `Chromium ${pid} has its own user data folder`);

    const { cdpUrl, accessUrl, gateway, token } = await connect(envId);
    assert.equal((await connect(envId)).cdpUrl, cdpUrl, "every connect answers the same cdpUrl while it runs");
    assert.match(accessUrl, new RegExp(`^${gateway}/browser-remote\\?token=[0-9a-f]{32}&envName=[^&]+&lang=en-US$`));

    const version = await getJson(`${gateway}/json/version?token=${token}`);
    const wsUrl = String(version.webSocketDebuggerUrl);
    assert.match(wsUrl, new RegExp(`^${gateway.replace("http", "ws")}/devtools/browser/[0-9a-f-]+\\?token=${token}$`), "the WebSocket address is the gateway's, with the token");
    // Before any page is opened (a page's own URL would name the emulator's port): every address in the list is the gateway's.
    const list = (await call(gateway, `/json/list?token=${token}`, { method: "GET" })).text;
    assert.deepEqual([...new Set(list.match(/127\.0\.0\.1:\d+/g))], [new URL(gateway).host], `the addresses of ${list}`);
    assert.match(list, new RegExp(`"webSocketDebuggerUrl": ?"${gateway.replace("http", "ws")}/devtools/page/[0-9A-F]+\\?token=${token}"`));
    assert.match(list, new RegExp(`"devtoolsFrontendUrl": ?"[^"]*[?&]ws=${new URL(gateway).host}/devtools/page/[0-9A-F]+%3Ftoken%3D${token}"`));
    const missing = await call(gateway, "/json/version", { method: "GET" });
    expectError(missing, 401, 401, "Unauthorized: the token is missing");
    const wrong = await call(gateway, `/json/version?token=${"0".repeat(32)}`, { method: "GET" });
    expectError(wrong, 401, 401, "Unauthorized: the token is wrong");
    assert.deepEqual(await upgrade(wsUrl.replace(/\?token=.*$/, "")), { status: 401, msg: "Unauthorized: the token is missing" });
    assert.deepEqual(await upgrade(wsUrl.replace(token, "f".repeat(32))), { status: 401, msg: "Unauthorized: the token is wrong" });

    const browser = await chromium.connectOverCDP(wsUrl);
    try {
      const context = browser.contexts()[0];
      assert.ok(context, "the browser has its default context");
      const page = await context.newPage();
      await page.goto(emulator().demoUrl);
      assert.equal(await page.title(), DEMO_TITLE);
      // Playwright also finds the WebSocket by itself from the cdpUrl (it keeps the query: /json/version/?token=).
      const direct = await chromium.connectOverCDP(cdpUrl);
      const titles = await Promise.all((direct.contexts()[0]?.pages() ?? []).map((open) => open.title()));
      await direct.close();
      assert.ok(titles.includes(DEMO_TITLE), `the pages seen through the cdpUrl: ${JSON.stringify(titles)}`);
      assert.match(await (await fetch(accessUrl)).text(), new RegExp(DEMO_TITLE), "the access page lists the open pages");
    } finally {
      await browser.close();
    }
    assert.ok(!JSON.stringify([emulator().requestLog, emulator().stats]).includes(token), "the token is in no request log or statistics of the emulator");

    assert.equal(dataOf(await post("/stop", { envId, force: false })), null);
    assert.equal(isRunning(pid), false, `Chromium ${pid} still runs after stop`);
    assert.equal(existsSync(folder), false, `${folder} is still there`);
    assert.equal(await refused(`${gateway}/json/version?token=${token}`), true, "the gateway still listens after stop");
    const states = [await row(envId)];
    expectError(await post("/connect", { envId }), 200, 99001);
    emulator().advanceClock(BOOT_MS / 2);
    states.push(await row(envId));
    emulator().advanceClock(BOOT_MS / 2);
    states.push(await row(envId));
    assert.deepEqual(
      states.map((item) => [item?.cloudBrowserStatus, item?.cloudBrowserArchiveStatus, item?.startDate]),
      [
        ["RUNNING", "PENDING", running?.startDate],
        ["RUNNING", "ARCHIVING", running?.startDate],
        ["CLOSED", "COMPLETED", null],
      ],
    );
  });

  it("ends a running runtime's Chromium and closes its gateway when the emulator closes", async () => {
    const envId = profileWithProxy(emulator(), 1);
    await run(envId);
    const pid = theBrowser();
    const { gateway, token } = await connect(envId);
    await emulator().close();
    assert.equal(isRunning(pid), false, `Chromium ${pid} still runs after the emulator closed`);
    assert.equal(await refused(`${gateway}/json/version?token=${token}`), true, "the gateway still listens after the emulator closed");
  });
});

/** A file that pretends to be a Chromium: `body` is its shell script. */
function fakeBrowser(folder: string, body: string): string {
  const path = join(folder, `chromium-${randomBytes(4).toString("hex")}`);
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
  return path;
}

/** What Chromium writes once its DevTools port is open (the port itself is never asked here). */
const DEVTOOLS_LINE = 'echo "DevTools listening on ws://127.0.0.1:9/devtools/browser/fake" >&2';

describe("emulator: a cloud runtime whose browser fails or exits by itself", () => {
  const { emulator } = useEmulator({ profiles: 12, phoneBootMs: BOOT_MS, manualClock: true });
  const { post, row, run } = api(emulator);
  let folder = "";

  before(() => {
    folder = mkdtempSync(join(tmpdir(), "morelogin-fake-cloud-browser-"));
  });
  after(() => {
    rmSync(folder, { recursive: true, force: true });
  });

  it("is CLOSED, with nothing to archive, when its browser does not start", async () => {
    emulator().setBrowser(fakeBrowser(folder, "exit 3"));
    const envId = profileWithProxy(emulator(), 0);
    assert.equal(dataOf(await post("/start", { envId })), null, "a start is accepted before the browser is tried");
    emulator().advanceClock(BOOT_MS);
    const failed = await waitUntil(
      () => row(envId),
      (item) => item?.cloudBrowserStatus !== "STARTING",
      "the start fails",
    );
    assert.deepEqual(failed, { cloudBrowserStatus: "CLOSED", cloudBrowserArchiveStatus: null, startDate: null });
  });

  it("archives as after a stop when its browser exits by itself", async () => {
    const flag = join(folder, "exit-now");
    emulator().setBrowser(fakeBrowser(folder, `${DEVTOOLS_LINE}\nwhile [ ! -e "${flag}" ]; do sleep 0.05; done`));
    const envId = profileWithProxy(emulator(), 1);
    const running = await run(envId);
    writeFileSync(flag, "");
    const archiving = await waitUntil(
      () => row(envId),
      (item) => item?.cloudBrowserArchiveStatus !== null,
      "the runtime archives",
    );
    assert.deepEqual(archiving, { cloudBrowserStatus: "RUNNING", cloudBrowserArchiveStatus: "PENDING", startDate: running?.startDate ?? "" });
    expectError(await post("/connect", { envId }), 200, 99001);
    emulator().advanceClock(BOOT_MS);
    assert.deepEqual(await row(envId), { cloudBrowserStatus: "CLOSED", cloudBrowserArchiveStatus: "COMPLETED", startDate: null });
  });
});
