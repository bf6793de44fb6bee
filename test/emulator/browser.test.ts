import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readFileSync, readlinkSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { chromium } from "playwright-core";
import { startEmulator, type Emulator } from "../../src/emulator";
import { BrowserStartError, launchChromium } from "../../src/emulator/chromium";
import { browserSkipReason, DEBIAN_CHROMIUM } from "../support/chromium";

/** The emulator's own browser tests run the Chromium a user gives it (`npm start` finds Debian's), not the tests' headless shell. */
const CHROMIUM = DEBIAN_CHROMIUM;
import { exitOf, exitUnlessStarted, runCli, waitFor } from "../support/cli";
import { rejection, useEmulator } from "../support/emulator";
import { call, dataOf, expectError, refused } from "../support/http";
import { commandLineOf, isRunning, killAll } from "../../tools/processes";
import { waitUntil } from "../support/wait-until";
import { childrenWith, processesNaming, userDataDirOf } from "../support/processes";

const FOLDER_PREFIX = "morelogin-emulator-chromium-";
/** The pace of this file's waits: they read /proc or the disk, which costs more than reading a variable. */
const SCAN = { everyMs: 100 };

interface Started {
  envId: string;
  port: string;
  pid: number;
  folder: string;
}

interface DebugInfo {
  envId: string;
  debugPort: string;
  pid: number;
}

/** The browsers the emulators of this process run now (their helper processes are not children of ours). */
const ourBrowsers = (): number[] => childrenWith("--remote-debugging-pipe");

async function versionOf(port: string): Promise<Record<string, string>> {
  return (await (await fetch(`http://127.0.0.1:${port}/json/version`)).json()) as Record<string, string>;
}

/** A file that pretends to be a browser: `body` is its shell script. */
function fakeBrowser(body: string): string {
  const folder = mkdtempSync(join(tmpdir(), "morelogin-fake-browser-"));
  const path = join(folder, "chromium");
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
  return path;
}

describe("emulator: --browser, a real Chromium behind each started profile", () => {
  /** Every browser a test saw: SIGKILLed after it if still running, so a failed test leaves none behind. */
  const seen = new Set<number>();
  const headers: Record<string, string> = {};

  before(function () {
    const skipped = browserSkipReason(process.env, CHROMIUM);
    if (skipped) {
      console.log(`    browser tests skipped on purpose (${skipped}): the emulator's --browser was not tested`);
      this.skip();
    }
  });

  afterEach(() => {
    killAll([...seen].filter(isRunning));
    seen.clear();
  });

  async function start(emulator: Emulator, envId: string): Promise<Started> {
    const port = dataOf<{ debugPort: string }>(await call(emulator.localUrl, "/api/env/start", { body: { envId }, headers })).debugPort;
    const info = dataOf<DebugInfo[]>(await call(emulator.localUrl, "/api/env/getAllDebugInfo", { body: {}, headers })).find((item) => item.envId === envId);
    assert.ok(info, `${envId} is not in getAllDebugInfo`);
    assert.equal(info.debugPort, port);
    seen.add(info.pid);
    const folder = userDataDirOf(info.pid);
    assert.ok(folder, `process ${info.pid} has no --user-data-dir`);
    return { envId, port, pid: info.pid, folder };
  }

  describe("profiles", () => {
    const { emulator } = useEmulator({ profiles: 4, browser: CHROMIUM });
    const profileId = (index: number): string => emulator().data.profiles[index]?.id ?? assert.fail(`no profile ${index}`);
    const statusOf = async (envId: string): Promise<{ status: unknown; debugPort: unknown }> => {
      const { status, debugPort } = dataOf(await call(emulator().localUrl, "/api/env/status", { body: { envId } }));
      return { status, debugPort };
    };

    it("starts a headless Chromium with its own temporary folder, whose DevTools answer on debugPort; close stops it and removes the folder", async () => {
      const browser = await start(emulator(), profileId(0));
      assert.ok(isRunning(browser.pid));
      assert.ok(commandLineOf(browser.pid).includes("--headless"));
      assert.ok(browser.folder.startsWith(join(tmpdir(), FOLDER_PREFIX)), browser.folder);
      assert.ok(existsSync(browser.folder));

      const version = await versionOf(browser.port);
      assert.match(version.Browser ?? "", /Chrome\/\d+/);
      assert.match(version.webSocketDebuggerUrl ?? "", new RegExp(`^ws://127\\.0\\.0\\.1:${browser.port}/devtools/browser/[0-9a-f-]{36}$`));
      // The stand-in debug port lists no targets; a real browser has its about:blank tab.
      const targets = (await (await fetch(`http://127.0.0.1:${browser.port}/json/list`)).json()) as { type: string; url: string }[];
      assert.ok(
        targets.some((target) => target.type === "page" && target.url === "about:blank"),
        JSON.stringify(targets),
      );
      assert.deepEqual(await statusOf(browser.envId), { status: "running", debugPort: browser.port });
      // Chromium's singleton socket lives in a folder of its own in the temporary folder.
      const singleton = dirname(readlinkSync(join(browser.folder, "SingletonSocket")));
      assert.equal(dirname(singleton), tmpdir());

      assert.deepEqual(dataOf(await call(emulator().localUrl, "/api/env/close", { body: { envId: browser.envId } })), { envId: browser.envId, debugPort: "" });
      assert.equal(isRunning(browser.pid), false, "the browser still runs");
      assert.equal(existsSync(browser.folder), false, "its folder is still there");
      assert.equal(existsSync(singleton), false, `its singleton socket's folder ${singleton} is still there`);
      assert.equal(await refused(`http://127.0.0.1:${browser.port}/json/version`), true);
      assert.equal((await statusOf(browser.envId)).status, "stopped");
    });

    it("starts one Chromium for concurrent starts of one profile, and another for another profile; closeAll stops both", async () => {
      const before = ourBrowsers().length;
      const envId = profileId(1);
      const answers = await Promise.all([1, 2, 3].map(() => call(emulator().localUrl, "/api/env/start", { body: { envId } })));
      assert.equal(new Set(answers.map((answer) => dataOf<{ debugPort: string }>(answer).debugPort)).size, 1);
      const first = await start(emulator(), envId);
      assert.equal(ourBrowsers().length, before + 1);

      const second = await start(emulator(), profileId(2));
      assert.equal(ourBrowsers().length, before + 2);
      assert.notEqual(second.port, first.port);
      assert.notEqual(second.pid, first.pid);
      assert.notEqual(second.folder, first.folder);
      assert.notEqual((await versionOf(second.port)).webSocketDebuggerUrl, (await versionOf(first.port)).webSocketDebuggerUrl);

      dataOf(await call(emulator().localUrl, "/api/env/closeAll", { body: {} }));
      for (const browser of [first, second]) {
        assert.equal(isRunning(browser.pid), false, `browser ${browser.pid} still runs`);
        assert.equal(existsSync(browser.folder), false, `${browser.folder} is still there`);
      }
      assert.deepEqual(emulator().running(), []);
    });

    it("shows a profile whose browser exits by itself as stopped", async () => {
      const browser = await start(emulator(), profileId(3));
      process.kill(browser.pid, "SIGKILL");
      await waitUntil(() => emulator().running().length === 0, "the profile no longer counts as running", 10_000, SCAN);
      assert.equal((await statusOf(browser.envId)).status, "stopped");
      expectError(await call(emulator().localUrl, "/api/env/close", { body: { envId: browser.envId } }), 200, -1, "Profile is not running");
      await waitUntil(() => !existsSync(browser.folder), "its folder is removed", 10_000, SCAN);
    });
  });

  it("stops every browser on emulator close()", async () => {
    const emulator = await startEmulator({ profiles: 2, browser: CHROMIUM });
    let browsers: Started[] = [];
    try {
      browsers = [await start(emulator, emulator.data.profiles[0]?.id ?? ""), await start(emulator, emulator.data.profiles[1]?.id ?? "")];
    } finally {
      await emulator.close();
    }
    for (const browser of browsers) {
      assert.equal(isRunning(browser.pid), false, `browser ${browser.pid} still runs`);
      assert.equal(existsSync(browser.folder), false, `${browser.folder} is still there`);
    }
  });

  it("setBrowser changes what profiles started later get; a running one keeps its browser, and a path that is no executable is refused", async () => {
    const emulator = await startEmulator({ profiles: 3 });
    const [first, second, third] = emulator.data.profiles.map((profile) => profile.id);
    assert.ok(first && second && third);
    try {
      emulator.setBrowser(CHROMIUM);
      const real = await start(emulator, first);
      assert.ok(ourBrowsers().includes(real.pid), "a Chromium runs behind the profile started with a browser");

      emulator.setBrowser(undefined);
      const port = dataOf<{ debugPort: string }>(await call(emulator.localUrl, "/api/env/start", { body: { envId: second } })).debugPort;
      assert.deepEqual(ourBrowsers(), [real.pid], "the profile started without a browser runs no Chromium");
      assert.ok((await versionOf(port)).webSocketDebuggerUrl, "its stand-in debug port answers");
      assert.ok(isRunning(real.pid), "the profile started before keeps its Chromium");

      assert.throws(
        () => emulator.setBrowser(join(tmpdir(), "no-such-chromium")),
        (error: Error) => error instanceof RangeError && /browser must be the path of an executable file: .*does not exist/.test(error.message),
      );
      await call(emulator.localUrl, "/api/env/start", { body: { envId: third } });
      assert.deepEqual(ourBrowsers(), [real.pid], "a refused path changes nothing");
    } finally {
      await emulator.close();
    }
  });

  it("answers a start whose Chromium fails with 99000 and the reason, at once, and leaves no folder behind", async () => {
    const record = join(mkdtempSync(join(tmpdir(), "morelogin-fake-record-")), "folder");
    const broken = fakeBrowser(`for arg in "$@"; do case "$arg" in --user-data-dir=*) echo "\${arg#--user-data-dir=}" > ${record};; esac; done
echo "error while loading shared libraries: libnss3.so" >&2
exit 127`);
    const emulator = await startEmulator({ profiles: 1, browser: broken });
    try {
      const envId = emulator.data.profiles[0]?.id;
      const answer = await call(emulator.localUrl, "/api/env/start", { body: { envId } });
      expectError(answer, 500, 99000);
      assert.match((answer.json as { msg: string }).msg, /^The browser failed to start: .*exited \(code 127\) before it opened its DevTools port.*libnss3\.so/);
      assert.deepEqual(emulator.running(), []);
      assert.equal(dataOf<{ status: string }>(await call(emulator.localUrl, "/api/env/status", { body: { envId } })).status, "stopped");
      const folder = readFileSync(record, "utf8").trim();
      assert.ok(folder.startsWith(join(tmpdir(), FOLDER_PREFIX)), folder);
      assert.equal(existsSync(folder), false, `${folder} is still there`);
    } finally {
      await emulator.close();
      rmSync(join(broken, ".."), { recursive: true, force: true });
      rmSync(join(record, ".."), { recursive: true, force: true });
    }
  });

  it("gives up on a Chromium that never reports its port, and kills it even when it ignores SIGTERM", async () => {
    const record = join(mkdtempSync(join(tmpdir(), "morelogin-fake-record-")), "pid");
    const silent = fakeBrowser(`for arg in "$@"; do case "$arg" in --user-data-dir=*) folder="\${arg#--user-data-dir=}";; esac; done
echo "$$ $folder" > ${record}
trap "" TERM
exec sleep 60`);
    try {
      // Long enough for the fake browser, a shell script, to start and write its record on a busy machine.
      const launching = rejection(launchChromium(silent, { startTimeoutMs: 3_000 }));
      await waitUntil(() => existsSync(record), "the silent browser has started", 10_000, SCAN);
      const error = await launching;
      assert.ok(error instanceof BrowserStartError);
      assert.match(error.message, /did not report a DevTools port within 3 s/);
      const [pid, folder] = readFileSync(record, "utf8").trim().split(" ");
      assert.equal(isRunning(Number(pid)), false, "the silent browser still runs");
      assert.equal(existsSync(folder ?? ""), false, `${folder} is still there`);
    } finally {
      rmSync(join(silent, ".."), { recursive: true, force: true });
      rmSync(join(record, ".."), { recursive: true, force: true });
    }
  });

  it("leaves no Chromium behind when the emulator process is SIGKILLed", async () => {
    const child = runCli(["--browser", CHROMIUM, "--local-port", "0", "--open-port", "0", "--profiles", "1"]);
    let folder: string | undefined;
    try {
      const localUrl = /Local API:\s+(http:\/\/\S+)/.exec(await waitFor(child, /Press Ctrl\+C/))?.[1];
      assert.ok(localUrl);
      const envId = dataOf<{ dataList: { id: string }[] }>(await call(localUrl, "/api/env/page", { body: { pageNo: 1, pageSize: 1 } })).dataList[0]?.id;
      const port = dataOf<{ debugPort: string }>(await call(localUrl, "/api/env/start", { body: { envId } })).debugPort;
      const [info] = dataOf<DebugInfo[]>(await call(localUrl, "/api/env/getAllDebugInfo", { body: {} }));
      assert.ok(info);
      seen.add(info.pid);
      folder = userDataDirOf(info.pid);
      assert.ok(folder);
      assert.match((await versionOf(port)).webSocketDebuggerUrl ?? "", /^ws:/);

      const exited = exitOf(child);
      child.kill("SIGKILL");
      await exited;
      await waitUntil(() => !isRunning(info.pid), `the emulator's Chromium ${info.pid} has ended`, 10_000, SCAN);
      const inFolder = folder;
      await waitUntil(() => processesNaming(inFolder).length === 0, "every helper process of that Chromium has ended", 10_000, SCAN);
    } finally {
      child.kill("SIGKILL");
      // Nothing is left to remove the folder of a SIGKILLed emulator.
      if (folder) rmSync(folder, { recursive: true, force: true });
    }
  });

  it("kills the browsers a process left when it exits without closing the emulator", async () => {
    const script = `
      const { startEmulator } = require("./src/emulator");
      const { readFileSync, readlinkSync } = require("node:fs");
      startEmulator({ profiles: 1, browser: ${JSON.stringify(CHROMIUM)} }).then(async (emulator) => {
        const post = (path, body) => fetch(emulator.localUrl + path, { method: "POST", body: JSON.stringify(body) }).then((r) => r.json());
        await post("/api/env/start", { envId: emulator.data.profiles[0].id });
        const [info] = (await post("/api/env/getAllDebugInfo", {})).data;
        const folder = readFileSync("/proc/" + info.pid + "/cmdline", "utf8").split("\\0").find((arg) => arg.startsWith("--user-data-dir=")).slice("--user-data-dir=".length);
        console.log(JSON.stringify({ pid: info.pid, folder, socket: readlinkSync(folder + "/SingletonSocket") }));
        process.exit(0);
      });`;
    const child = spawn(process.execPath, ["--require", "tsx/cjs", "-e", script], { cwd: join(__dirname, "..", "..") });
    const { code, stdout, stderr } = await exitOf(child);
    assert.equal(code, 0, stderr);
    const left = JSON.parse(stdout) as { pid: number; folder: string; socket: string };
    seen.add(left.pid);
    await waitUntil(() => !isRunning(left.pid), `Chromium ${left.pid} has ended`, 10_000, SCAN);
    assert.equal(existsSync(left.folder), false, `${left.folder} is still there`);
    assert.equal(existsSync(dirname(left.socket)), false, `${dirname(left.socket)} (its singleton socket's) is still there`);
  });

  it("drives the demo page in a started profile's Chromium with Playwright", async () => {
    const emulator = await startEmulator({ profiles: 1, browser: CHROMIUM, localToken: "demo-token" });
    headers.Authorization = "demo-token";
    try {
      const started = await start(emulator, emulator.data.profiles[0]?.id ?? "");
      const browser = await chromium.connectOverCDP((await versionOf(started.port)).webSocketDebuggerUrl ?? "");
      try {
        const context = browser.contexts()[0] ?? (await browser.newContext());
        const page = await context.newPage();
        await page.goto(emulator.demoUrl);
        assert.equal(await page.title(), "MoreLogin emulator demo");
        await page.fill("#name", "Ada");
        await page.click("#greet");
        assert.equal(await page.textContent("#greeting"), "Hello, Ada!");
      } finally {
        await browser.close();
      }
    } finally {
      delete headers.Authorization;
      await emulator.close();
    }
  });
});

describe("emulator: --browser that is not a browser", () => {
  it("is a usage error on the command line (exit 2) and a RangeError from startEmulator", async function () {
    // Three cold `node --import tsx` starts, with coverage to write, on a possibly busy machine.
    this.timeout(120_000);
    const folder = mkdtempSync(join(tmpdir(), "morelogin-not-a-browser-"));
    const plain = join(folder, "chromium");
    writeFileSync(plain, "not a program");
    try {
      for (const [path, why] of [
        [join(folder, "missing"), /does not exist/],
        [plain, /is not executable/],
        [folder, /is not a file/],
      ] as const) {
        const { code, stderr, started } = await exitUnlessStarted(runCli(["--browser", path, "--local-port", "0", "--open-port", "0"]));
        assert.equal(started, false, "the CLI started with a --browser that is not a browser");
        assert.equal(code, 2, stderr);
        assert.match(stderr, /^morelogin-emulator: --browser must be the path of a Chromium binary: /);
        assert.match(stderr, why);
        await assert.rejects(startEmulator({ browser: path }), (error: Error) => error instanceof RangeError && why.test(error.message));
      }
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it("lists --browser in the help", async () => {
    const { stdout } = await exitOf(runCli(["--help"]));
    assert.match(stdout, /--browser <path>/);
  });
});

describe("emulator: the demo page", () => {
  const { emulator } = useEmulator({ profiles: 1, localToken: "page-token" });

  it("serves the demo page on the Local port without the Local token, while the API still wants it", async () => {
    const answer = await fetch(emulator().demoUrl);
    assert.equal(answer.status, 200);
    assert.match(answer.headers.get("content-type") ?? "", /^text\/html/);
    const html = await answer.text();
    assert.match(html, /<title>MoreLogin emulator demo<\/title>/);
    for (const id of ["name", "greet", "greeting"]) assert.match(html, new RegExp(`id="${id}"`));
    assert.match(html, /served by the MoreLogin emulator/);
    assert.equal(emulator().demoUrl, `${emulator().localUrl}/demo`);
    expectError(await call(emulator().localUrl, "/api/env/page", { body: {} }), 200, 35001);
  });
});
