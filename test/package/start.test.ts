import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { waitUntil } from "../support/wait-until";
import { untilPrinted } from "../support/processes";
import { CHROMIUM } from "../support/chromium";

const ROOT = join(__dirname, "..", "..");

/**
 * `npm start` as a user runs it (tools/start.ts, after the build): Node-RED's log reaches the terminal
 * and a file, and the emulator is a process of its own that can die and be started again while
 * Node-RED runs on. In a folder and on ports of its own (MORELOGIN_DEMO_DIR, MORELOGIN_DEMO_PORTS=any).
 */
describe("npm start: Node-RED's log, and the emulator as a process of its own", function () {
  this.timeout(600_000);
  let work: string;
  let launcher: ChildProcess;
  let output = "";

  /** Waits until the launcher's output, from `from` on, matches `pattern`; returns the match. */
  function waitForOutput(pattern: RegExp, from = 0, timeoutMs = 300_000): Promise<RegExpMatchArray> {
    return untilPrinted(launcher, () => output.slice(from), pattern, timeoutMs).catch((error: Error) => assert.fail(`npm start ${error.message}`));
  }

  const answers = async (url: string, init?: RequestInit): Promise<boolean> => {
    try {
      return (await fetch(url, init)).ok;
    } catch {
      return false;
    }
  };

  before(async () => {
    work = mkdtempSync(join(tmpdir(), "morelogin-start-"));
    launcher = spawn(process.execPath, ["--require", "tsx/cjs", join(ROOT, "tools", "start.ts")], {
      cwd: ROOT,
      stdio: ["pipe", "pipe", "pipe"],
      env: { ...process.env, MORELOGIN_DEMO_DIR: work, MORELOGIN_DEMO_PORTS: "any", MORELOGIN_LOCAL_URL: "", NODE_OPTIONS: "" },
    });
    launcher.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    launcher.stderr?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
  });

  after(async () => {
    if (launcher && launcher.exitCode === null) {
      const exited = new Promise((resolve) => launcher.once("exit", resolve));
      launcher.kill("SIGTERM");
      await exited;
    }
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it("shows Node-RED's log prefixed and keeps it in the file it names; the emulator dies, Node-RED runs on and logs the outage; r starts the emulator again; Ctrl-C stops both", async () => {
    const [, editor] = await waitForOutput(/Node-RED with node-red-contrib-morelogin is running: (http:\/\/127\.0\.0\.1:\d+)\//);
    const [, logFile] = await waitForOutput(/Node-RED's log: below, each line starting with \[node-red\], and kept in (\S+)\n/);
    const [, pid, localUrl] = await waitForOutput(/MoreLogin emulator \(its own process, pid (\d+)\): Local API (http:\/\/127\.0\.0\.1:\d+)/);
    assert.equal(logFile, join(work, "node-red.log"));
    await waitForOutput(/^\[node-red\] .*Started flows/m);
    assert.match(readFileSync(String(logFile), "utf8"), /Started flows/, "the file holds the log");
    assert.doesNotMatch(readFileSync(String(logFile), "utf8"), /^\[node-red\]/m, "the file holds Node-RED's own lines");

    // The emulator goes away as a crash would: Node-RED runs on, and its log shows the watches failing
    // (the examples' "error" Debug nodes also write to the log: a caught error is not logged otherwise).
    const killedAt = output.length;
    process.kill(Number(pid), "SIGKILL");
    await waitForOutput(/\[emulator\] was killed \(SIGKILL\): the flows now see an outage \(Node-RED runs on\)\. Type r and Enter to start it again\./, killedAt);
    await waitForOutput(/^\[node-red\] .*\[debug:error\][\s\S]*?^\[node-red\] .*cannot reach the Local API/m, killedAt, 60_000);
    assert.equal(await answers(`${editor}/flows`), true, "Node-RED still answers");
    assert.match(readFileSync(String(logFile), "utf8").slice(0), /cannot reach the Local API/, "the outage is in the log file too");

    const restartAt = output.length;
    launcher.stdin?.write("r\n");
    const [, newPid] = await waitForOutput(/\[emulator\] started again \(pid (\d+)\): http:\/\/127\.0\.0\.1:\d+/, restartAt);
    assert.notEqual(newPid, pid);
    assert.equal(
      await answers(`${localUrl}/api/env/page`, { method: "POST", headers: { "content-type": "application/json" }, body: '{"pageNo":1,"pageSize":1}' }),
      true,
      "the emulator answers on its port again",
    );

    const exited = new Promise<number | null>((resolve) => launcher.once("exit", (code) => resolve(code)));
    launcher.kill("SIGINT");
    assert.equal(await exited, 0);
    assert.equal(await answers(`${editor}/flows`), false, "Node-RED stopped");
    assert.equal(await answers(`${localUrl}/api/env/page`, { method: "POST", body: "{}" }), false, "the emulator stopped");
    assert.equal(existsSync(String(logFile)), true);
  });
});

/** One `npm start -- <args>` in `demoDir`, as far as its banner: its editor and emulator, its output, and how to stop it. */
async function launch(demoDir: string, args: string[]) {
  const child = spawn(process.execPath, ["--require", "tsx/cjs", join(ROOT, "tools", "start.ts"), ...args], {
    cwd: ROOT,
    stdio: ["pipe", "pipe", "pipe"],
    // The profile a test starts gets the tests' Chromium (the headless shell, a third of chromium's CPU a start), as a user's MORELOGIN_BROWSER would give it.
    env: { ...process.env, MORELOGIN_DEMO_DIR: demoDir, MORELOGIN_DEMO_PORTS: "any", MORELOGIN_LOCAL_URL: "", MORELOGIN_BROWSER: CHROMIUM, NODE_OPTIONS: "" },
  });
  let output = "";
  // "close": the launcher has exited and its output has all arrived.
  const exited = new Promise<number | null>((resolve) => child.once("close", (code) => resolve(code)));
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  /** Ends it as Ctrl-C would (its emulator and Node-RED with it); SIGKILL only if it has not ended 30 s later. */
  const end = async (): Promise<void> => {
    if (child.exitCode !== null) return;
    child.kill("SIGTERM");
    const bound = setTimeout(() => child.kill("SIGKILL"), 30_000);
    await exited;
    clearTimeout(bound);
  };
  // The banner's last line: every line before it has been printed.
  await untilPrinted(child, () => output, /Ctrl-C stops Node-RED/, 300_000).catch(async (error: Error) => {
    await end();
    assert.fail(`npm start ${args.join(" ")} did not print its banner: ${error.message}`);
  });
  const editor = /is running: (http:\/\/127\.0\.0\.1:\d+)\//.exec(output)?.[1] ?? "";
  const localUrl = /Local API (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1] ?? "";
  const stop = async (): Promise<void> => {
    child.kill("SIGINT");
    assert.equal(await exited, 0, output);
  };
  return { editor, localUrl, banner: () => output, stop, end };
}

describe("npm start: the user folder is kept between starts; --fresh starts over; emulator options pass through", function () {
  this.timeout(900_000);
  let work: string;
  const running: Array<() => Promise<void>> = [];

  before(() => {
    work = mkdtempSync(join(tmpdir(), "morelogin-start-kept-"));
  });

  after(async () => {
    for (const end of running) await end();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  const json = async <T>(url: string, init?: RequestInit): Promise<T> => {
    const response = await fetch(url, init);
    assert.equal(response.ok, true, `${url}: HTTP ${response.status} ${await response.clone().text()}`);
    return (await response.json()) as T;
  };
  const tabs = async (editor: string): Promise<string[]> =>
    (await json<Array<{ type: string; label?: string }>>(`${editor}/flows`, { headers: { "Node-RED-API-Version": "v1" } })).filter((node) => node.type === "tab").map((node) => String(node.label));
  const profileCount = async (localUrl: string): Promise<string> =>
    (await json<{ data: { total: string } }>(`${localUrl}/api/env/page`, { method: "POST", headers: { "content-type": "application/json" }, body: '{"pageNo":1,"pageSize":1}' })).data.total;
  /** The envStatus of every cloud phone of the emulator. */
  const phoneStates = async (localUrl: string): Promise<number[]> =>
    (
      await json<{ data: { dataList: Array<{ envStatus: number }> } }>(`${localUrl}/api/cloudphone/page`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: '{"pageNo":1,"pageSize":100}',
      })
    ).data.dataList.map((phone) => phone.envStatus);
  const mark = async (editor: string): Promise<unknown> => (await json<{ msg?: string }>(`${editor}/context/global/userMark`)).msg;

  it("keeps a flow the user deployed, and its context, over a restart; --fresh removes them; --profiles 37 gives the emulator 37 profiles, and every cloud phone starts off", async () => {
    const first = await launch(work, ["--profiles", "37"]);
    running.push(first.end);
    assert.match(first.banner(), /A new user folder \S+, with the example flows deployed\./);
    assert.match(first.banner(), /Options: --profiles 37/);
    assert.equal(await profileCount(first.localUrl), "37");
    // The demo's data: every cloud phone off at start (the seed alone would have some on), whatever --profiles changes.
    assert.match(first.banner(), /The demo's data: --phones-on 0/);
    const phones = await phoneStates(first.localUrl);
    assert.ok(phones.length > 0);
    assert.deepEqual(
      phones,
      phones.map(() => 2),
      "every cloud phone off",
    );
    assert.ok((await tabs(first.editor)).includes("01 List profiles"), "the examples are deployed");
    // The user's own tab: an inject into a function that writes to global context, deployed as the editor does.
    const flow = {
      label: "My own flow",
      nodes: [
        { id: "user-inject", type: "inject", name: "mark", props: [{ p: "payload" }], payload: "kept", payloadType: "str", x: 120, y: 80, wires: [["user-function"]] },
        { id: "user-function", type: "function", name: "remember", func: 'global.set("userMark", msg.payload); return msg;', outputs: 1, x: 300, y: 80, wires: [[]] },
      ],
    };
    await json(`${first.editor}/flow`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(flow) });
    await waitUntil(() => fetch(`${first.editor}/inject/user-inject`, { method: "POST" }).then((response) => response.ok), "the user's inject node runs", 60_000);
    await waitUntil(
      () => mark(first.editor),
      (value) => value === "kept",
      "the function wrote the global context",
      60_000,
    );
    const post = (path: string, body: unknown) => json<{ data: unknown }>(`${first.localUrl}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    const [profile] = ((await post("/api/env/page", { pageNo: 37, pageSize: 1 })).data as { dataList: Array<{ id: string }> }).dataList;
    assert.ok(profile);
    await post("/api/env/start", { envId: profile.id });
    await post("/api/env/close", { envId: profile.id });
    await first.stop();
    assert.match(first.banner(), /\[emulator\] {3}Profiles: 1 started \(none more than once\), 1 closed; 0 calls refused/, "the emulator says what it served as it stops");

    const second = await launch(work, []);
    running.push(second.end);
    assert.match(second.banner(), /Kept your flows, credentials and context from the last npm start/);
    assert.ok((await tabs(second.editor)).includes("My own flow"), "the user's flow is still there");
    assert.ok((await tabs(second.editor)).includes("01 List profiles"), "so are the examples");
    assert.equal(await mark(second.editor), "kept", "the global context is still there");
    assert.equal(await profileCount(second.localUrl), "25", "the emulator's defaults, without --profiles");
    assert.deepEqual(new Set(await phoneStates(second.localUrl)), new Set([2]), "every cloud phone off, without options too");
    const flows = await json<Array<{ id: string; localUrl?: string }>>(`${second.editor}/flows`, { headers: { "Node-RED-API-Version": "v1" } });
    assert.notEqual(second.localUrl, first.localUrl, "MORELOGIN_DEMO_PORTS=any: the emulator moved");
    assert.equal(flows.find((node) => node.id === "morelogin-emulator-config")?.localUrl, second.localUrl, "the kept examples point at this start's emulator");
    await second.stop();

    const third = await launch(work, ["--fresh"]);
    running.push(third.end);
    assert.match(third.banner(), /Started over \(--fresh\): a new user folder/);
    assert.equal((await tabs(third.editor)).includes("My own flow"), false, "--fresh removed the user's flow");
    assert.ok((await tabs(third.editor)).includes("01 List profiles"), "the examples are deployed again");
    assert.notEqual(await mark(third.editor), "kept", "and the context");
    await third.stop();
  });
});
