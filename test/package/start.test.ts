import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

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
  async function waitForOutput(pattern: RegExp, from = 0, timeoutMs = 300_000): Promise<RegExpMatchArray> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const match = output.slice(from).match(pattern);
      if (match) return match;
      if (launcher.exitCode !== null) assert.fail(`npm start exited (${launcher.exitCode}) before printing ${pattern}:\n${output}`);
      if (Date.now() > deadline) assert.fail(`npm start did not print ${pattern} in time:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
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
