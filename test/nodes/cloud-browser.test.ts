import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { LocalBatchWork } from "../../src/batch/local-work";
import { BatchRunner, type BatchTag } from "../../src/batch/runner";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Node, NodeMessage } from "node-red";
import type { Emulator } from "../../src/emulator";
import { useEmulator } from "../support/emulator";
import { call, closedPort, dataOf } from "../support/http";
import {
  Collector,
  NODE_MODULES,
  TAB,
  catchNode,
  completeNode,
  configNode,
  credentialsFor,
  flowWith,
  functionNode,
  helper,
  sendAndCollect,
  ownStatusCalls,
  useNodeRed,
  type Msg,
  type Outcome,
} from "../support/node-red";
import { NO_PACING, failed, infoOf, requestsAt, run, succeeded } from "../support/outcome";
import { translator } from "../support/catalog";
import { SecretScanner } from "../support/secrets";
import { refusal, startStubApi, type StubApi, type StubReply } from "../support/stub-api";
import { OUTCOME_MS, waitUntil } from "../support/wait-until";

const START = "/api/cloudbrowser/start";
const STOP = "/api/cloudbrowser/stop";
const PAGE = "/api/cloudbrowser/page";
const CONNECT = "/api/cloudbrowser/connect";

interface CloudPayload {
  envId: string;
  cdpUrl: string;
  accessUrl?: string | null;
  where: string;
  webSocketDebuggerUrl?: string;
}

/** The token a cloud browser's URL carries in its query. */
const tokenOf = (url: string): string => {
  const token = new URL(url).searchParams.get("token");
  assert.ok(token, `a token in ${url}`);
  return token;
};

describe("nodes: cloud browsers (start, close and status with where: cloud)", () => {
  const { emulator } = useEmulator({ profiles: 30, phoneBootMs: 200 });
  /** A cloud browser that never gets past STARTING within a test: for the timeout. */
  const { emulator: slow } = useEmulator({ profiles: 8, phoneBootMs: 600_000 });
  /** A cloud browser whose states change only when the test moves the emulator's clock: to hold one while it stops. */
  const { emulator: manual } = useEmulator({ profiles: 8, phoneBootMs: 10_000, manualClock: true });
  const taken = new WeakMap<Emulator, Set<string>>();
  /** A profile with a proxy (a cloud browser needs one) or without, each test its own (two emulators seed the same IDs). */
  const freshProfile = (withProxy = true, on: Emulator = emulator()): string => {
    const used = taken.get(on) ?? new Set<string>();
    taken.set(on, used);
    const profile = on.data.profiles.find((item) => (item.proxy !== null) === withProxy && !used.has(item.id));
    assert.ok(profile, `a free profile ${withProxy ? "with" : "without"} a proxy`);
    used.add(profile.id);
    return profile.id;
  };
  const rowOf = async (envId: string): Promise<Record<string, unknown>> => {
    const page = dataOf<{ dataList: Array<Record<string, unknown>> }>(await call(emulator().localUrl, PAGE, { body: { pageNo: 1, pageSize: 10, envId } }));
    const row = page.dataList.find((item) => item.id === envId);
    assert.ok(row, `a row for ${envId}`);
    return row;
  };
  /** run, after unloading the flow an earlier run of the same test left (each run loads its own). */
  const runNext: typeof run = async (...args) => {
    await helper.unload();
    return run(...args);
  };
  const startCloud = async (envId: string): Promise<Msg> =>
    succeeded(await runNext(emulator(), { type: "morelogin-start-profile", envId, envIdType: "str", where: "cloud" }, { payload: 1_700_000_000_000 }));

  useNodeRed(emulator);

  it("start with where cloud: starts, waits until RUNNING, connects; msg.payload has cdpUrl with its token and where cloud", async () => {
    const envId = freshProfile();
    const msg = await startCloud(envId);
    const payload = msg.payload as CloudPayload;
    assert.equal(payload.envId, envId);
    assert.equal(payload.where, "cloud");
    assert.ok("accessUrl" in payload, "connect's accessUrl is there");
    assert.match(payload.cdpUrl, /\?token=[0-9a-f]{32}$/, "the real cdpUrl, token and all: the user needs it");
    assert.equal(msg.topic, envId);
    // The emulator's stand-in cdpUrl may or may not answer /json/version: the profile carries what the payload has.
    const webSocket = payload.webSocketDebuggerUrl === undefined ? {} : { webSocketDebuggerUrl: payload.webSocketDebuggerUrl };
    assert.deepEqual(infoOf(msg).profile, { envId, where: "cloud", cdpUrl: payload.cdpUrl, ...webSocket });
    assert.deepEqual(
      requestsAt(emulator(), START).map((entry) => entry.body),
      [{ envId }],
    );
    const polls = requestsAt(emulator(), PAGE);
    assert.ok(polls.length >= 2, "it polled the page until RUNNING");
    assert.ok(
      polls.every((entry) => (entry.body as { envId?: string }).envId === envId),
      "each poll asks for this profile",
    );
    assert.equal(requestsAt(emulator(), CONNECT).length, 1);
    assert.equal(requestsAt(emulator(), "/api/env/start").length, 0, "nothing started on this machine");
    assert.equal((await rowOf(envId)).cloudBrowserStatus, "RUNNING");

    const outcome = await runNext(emulator(), { type: "morelogin-profile-status", envId: "", envIdType: "str", where: "cloud" }, { payload: envId });
    const seen = succeeded(outcome).payload as Record<string, unknown>;
    assert.deepEqual({ ...seen, startDate: typeof seen.startDate }, { envId, where: "cloud", status: "RUNNING", archiveStatus: null, startDate: "string" });
    assert.equal(ownStatusCalls(outcome.node).at(-1)?.text, "RUNNING");
    assert.match(String(infoOf(succeeded(outcome)).requestId), /^[0-9a-f]{32}$/, "the page call's request ID");
  });

  it("starting a cloud browser that runs already connects to it: MoreLogin's refusal of the start is no failure", async () => {
    const envId = freshProfile();
    await startCloud(envId);
    const refusal = await call(emulator().localUrl, START, { body: { envId } });
    assert.notEqual((refusal.json as { code: number }).code, 0, "MoreLogin refuses to start a running cloud browser");
    emulator().resetStats();
    const again = await startCloud(envId);
    assert.equal(requestsAt(emulator(), START).length, 1, "the start was sent once, and refused");
    assert.equal((again.payload as CloudPayload).where, "cloud");
    assert.equal(requestsAt(emulator(), CONNECT).length, 1);
  });

  it("a flow saved without where starts on this machine, as before", async () => {
    const envId = freshProfile();
    const msg = succeeded(await runNext(emulator(), { type: "morelogin-start-profile", envId, envIdType: "str" }, { payload: "" }));
    assert.equal(requestsAt(emulator(), "/api/env/start").length, 1);
    assert.equal(requestsAt(emulator(), START).length, 0);
    assert.equal((msg.payload as { where?: string }).where, undefined);
    await call(emulator().localUrl, "/api/env/close", { body: { envId } });
  });

  it("a profile without a proxy: the start's refusal says a cloud browser needs one", async () => {
    const envId = freshProfile(false);
    const { text, error } = failed(await runNext(emulator(), { type: "morelogin-start-profile", envId, envIdType: "str", where: "cloud" }, { payload: "" }));
    assert.match(text, /^start profile failed: .*proxy.*\. The profile has no proxy, and a cloud browser needs one/);
    assert.equal(error.kind, "api");
    assert.equal(requestsAt(emulator(), CONNECT).length, 0);
  });

  it("a start that is not RUNNING in time fails with kind timeout, naming the last state seen", async () => {
    const envId = freshProfile(true, slow());
    slow().resetStats();
    const outcome = await runNext(slow(), { type: "morelogin-start-profile", envId, envIdType: "str", where: "cloud", timeout: "1.5", timeoutType: "num" }, { payload: "" });
    const { text, error } = failed(outcome);
    assert.equal(text, `start profile failed: the cloud browser of profile ${envId} was not running within 1.5 s; last state seen: "STARTING"`);
    assert.equal(error.kind, "timeout");
    assert.ok(requestsAt(slow(), PAGE).length >= 2, "it polled before giving up");
    assert.equal(requestsAt(slow(), CONNECT).length, 0);
    await call(slow().localUrl, STOP, { body: { envId } });
  });

  it("a cloud browser that closes while starting ends the wait at once, saying so", async () => {
    const envId = freshProfile(true, slow());
    slow().resetStats();
    const pending = runNext(slow(), { type: "morelogin-start-profile", envId, envIdType: "str", where: "cloud", timeout: "20", timeoutType: "num" }, { payload: "" });
    await waitUntil(() => requestsAt(slow(), PAGE).length >= 1, "the node is waiting for RUNNING");
    await call(slow().localUrl, STOP, { body: { envId } });
    const { text, error } = failed(await pending);
    assert.equal(text, `start profile failed: the cloud browser of profile ${envId} closed again before it ran; last state seen: "CLOSED"`);
    assert.equal(error.kind, "api");
    assert.equal(requestsAt(slow(), CONNECT).length, 0);
  });

  it("a start while the profile's cloud browser still stops (RUNNING, its archive PENDING) fails saying so, and connects to nothing", async () => {
    const envId = freshProfile(true, manual());
    const rowOn = async (): Promise<Record<string, unknown>> =>
      dataOf<{ dataList: Array<Record<string, unknown>> }>(await call(manual().localUrl, PAGE, { body: { pageNo: 1, pageSize: 10, envId } })).dataList[0] ?? {};
    await call(manual().localUrl, START, { body: { envId } });
    manual().advanceClock(10_000);
    await waitUntil(rowOn, (row) => row.cloudBrowserStatus === "RUNNING", "the cloud browser runs");
    await call(manual().localUrl, STOP, { body: { envId } });
    assert.deepEqual([(await rowOn()).cloudBrowserStatus, (await rowOn()).cloudBrowserArchiveStatus], ["RUNNING", "PENDING"], "stopping, as the spec shows it");
    manual().resetStats();
    const { text, error } = failed(await runNext(manual(), { type: "morelogin-start-profile", envId, envIdType: "str", where: "cloud" }, { payload: "" }));
    assert.match(text, /^start profile failed: .*\. It is still stopping \("RUNNING" \(archive PENDING\)\): start it again once it is CLOSED$/);
    assert.equal(error.kind, "api");
    assert.equal(requestsAt(manual(), CONNECT).length, 0);
    manual().advanceClock(10_000);
  });

  it("close with where cloud (and force) stops the cloud browser: its status is CLOSED after", async () => {
    const envId = freshProfile();
    await startCloud(envId);
    emulator().resetStats();
    const msg = succeeded(await runNext(emulator(), { type: "morelogin-close-profile", envId, envIdType: "str", where: "cloud", force: true }, { payload: "" }));
    assert.deepEqual(
      requestsAt(emulator(), STOP).map((entry) => entry.body),
      [{ envId, force: true }],
    );
    assert.equal(requestsAt(emulator(), "/api/env/close").length, 0);
    assert.deepEqual(msg.payload, { envId, where: "cloud" });
    assert.equal(msg.topic, envId);
    const status = succeeded(await runNext(emulator(), { type: "morelogin-profile-status", envId, envIdType: "str", where: "cloud", waitFor: "stopped" }, { payload: "" }));
    assert.equal((status.payload as { status: string }).status, "CLOSED");
    assert.equal((status.payload as { archiveStatus: string }).archiveStatus, "COMPLETED");
  });

  it("a close node left on local closes in the cloud the cloud browser the message carries from its start", async () => {
    const envId = freshProfile();
    const started = await startCloud(envId);
    emulator().resetStats();
    // What a browser node leaves in msg.payload: a page's result, naming no profile.
    const msg = succeeded(await runNext(emulator(), { type: "morelogin-close-profile", envId: "", envIdType: "str" }, { payload: "Example Domain", morelogin: started.morelogin }));
    assert.deepEqual(
      requestsAt(emulator(), STOP).map((entry) => entry.body),
      [{ envId, force: false }],
    );
    assert.equal(requestsAt(emulator(), "/api/env/close").length, 0, "not closed on this machine");
    assert.equal(infoOf(msg).profile, undefined, "the closed browser is no longer carried");
    // A stopped cloud browser archives (RUNNING with its archive PENDING, then ARCHIVING), then is CLOSED.
    await waitUntil(
      () => rowOf(envId),
      (row) => row.cloudBrowserStatus === "CLOSED" && row.cloudBrowserArchiveStatus === "COMPLETED",
      "the cloud browser closed, its archive completed",
    );
  });

  it("status waitFor running polls until the cloud browser runs", async () => {
    const envId = freshProfile();
    const pending = runNext(emulator(), { type: "morelogin-profile-status", envId, envIdType: "str", where: "cloud", waitFor: "running", timeout: "60", timeoutType: "num" }, { payload: "" });
    await waitUntil(() => requestsAt(emulator(), PAGE).length >= 1, "the node has asked for the row");
    await call(emulator().localUrl, START, { body: { envId } });
    const msg = succeeded(await pending);
    assert.equal((msg.payload as { status: string }).status, "RUNNING");
    assert.ok(requestsAt(emulator(), PAGE).length >= 2, "it asked again");
  });

  it("a message built in a function node (another realm) names the profile and where, on a start node left on local", async () => {
    const envId = freshProfile();
    const flow = flowWith(emulator(), { type: "morelogin-start-profile", envId: "", envIdType: "str" }, NO_PACING);
    flow.push({ id: "fn1", z: TAB, type: "function", func: `msg.payload = { envId: "${envId}", where: "cloud" }; return msg;`, outputs: 1, wires: [["n1"]] });
    await helper.load([...NODE_MODULES, catchNode, completeNode, functionNode] as never, flow as never, credentialsFor(emulator()) as never);
    const out = new Collector("out");
    const caught = new Collector("caught");
    helper.getNode("fn1").receive({ payload: "" } as NodeMessage);
    await waitUntil(() => out.messages.length + caught.messages.length > 0, "the start's outcome", OUTCOME_MS);
    assert.deepEqual(caught.messages, []);
    const payload = (out.messages[0] as Msg).payload as CloudPayload;
    assert.equal(payload.where, "cloud");
    assert.deepEqual(
      requestsAt(emulator(), START).map((entry) => entry.body),
      [{ envId }],
      "where is not sent",
    );
  });

  /**
   * Scans what a user sees of the flow's nodes: status texts, warnings and log lines, and the text of each
   * error a node reported (not the message it reported it with: msg.payload keeps the real cdpUrl).
   */
  function shown(scanner: SecretScanner, anyNode: Node): void {
    const prototype = Object.getPrototypeOf(anyNode) as Record<string, { args?: unknown[][]; resetHistory?: () => void }>;
    for (const method of ["status", "warn", "log", "error"]) {
      for (const args of prototype[method]?.args ?? []) scanner.scan(method === "error" ? args[0] : args);
      prototype[method]?.resetHistory?.();
    }
    const log = helper.log() as unknown as { args: unknown[][]; resetHistory: () => void };
    for (const args of log.args) scanner.scan(args);
    log.resetHistory();
  }

  let devtools: Server | undefined;
  afterEach(async () => {
    await new Promise<void>((resolve) => (devtools ? devtools.close(() => resolve()) : resolve()));
    devtools = undefined;
  });

  /**
   * A stand-in for a cloud browser's DevTools endpoint: answers `/runtime/json/version` only with the
   * right token in the query, naming a WebSocket URL (with the token) where nothing listens.
   */
  async function cloudDevtools(token: string): Promise<string> {
    const server = createServer((request, response) => {
      const url = new URL(request.url ?? "/", "http://127.0.0.1");
      if (url.pathname !== "/runtime/json/version" || url.searchParams.get("token") !== token) {
        response.writeHead(404).end();
        return;
      }
      response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ webSocketDebuggerUrl: `ws://127.0.0.1:1/devtools/browser/cloud?token=${token}` }));
    });
    devtools = server;
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/runtime?token=${token}`;
  }

  describe("replies the emulator does not make (a stub Local API)", () => {
    let stub: StubApi;
    before(async () => {
      stub = await startStubApi();
    });
    after(() => stub.close());
    beforeEach(() => stub.reset());
    const ENV_ID = "1993244721490239488";
    const row = (cloudBrowserStatus: string, cloudBrowserArchiveStatus: string | null): StubReply => ({
      body: {
        code: 0,
        msg: null,
        data: { total: "1", current: "1", pages: "1", dataList: [{ id: ENV_ID, envName: "Shop", proxyId: "7", cloudBrowserStatus, cloudBrowserArchiveStatus, startDate: null }] },
        requestId: "stub-page",
      },
    });
    const accepted: StubReply = { body: { code: 0, msg: null, data: null, requestId: "stub-start" } };
    const startOnStub = (): Promise<Outcome> =>
      runNext(emulator(), { type: "morelogin-start-profile", envId: ENV_ID, envIdType: "str", where: "cloud", timeout: "20", timeoutType: "num" }, { payload: "" }, { config: { localUrl: stub.url } });
    const paths = (): string[] => stub.requests.map((request) => request.path);

    it("a row CLOSED with its archive FAILED ends the wait at once, saying MoreLogin could not save the browser's data", async () => {
      stub.script(accepted, row("STARTING", null), row("CLOSED", "FAILED"));
      const { text, error } = failed(await startOnStub());
      assert.equal(
        text,
        `start profile failed: the cloud browser of profile ${ENV_ID} is CLOSED and its archive FAILED (MoreLogin could not save its data): see the profile in MoreLogin before starting it again`,
      );
      assert.equal(error.kind, "api");
      assert.deepEqual(paths(), [START, PAGE, PAGE], "no connect");
    });

    it("a refused start of a cloud browser CLOSED with its archive FAILED is MoreLogin's refusal, not a browser still stopping", async () => {
      stub.script(refusal(19099, "Cloud runtime start failed"), row("CLOSED", "FAILED"));
      const { text, error } = failed(await startOnStub());
      assert.equal(text, "start profile failed: Cloud runtime start failed (code 19099)");
      assert.equal(error.kind, "api");
      assert.deepEqual(paths(), [START, PAGE], "no wait, no connect");
    });

    it("webSocketDebuggerUrl comes from <cdpUrl's origin and path>/json/version?<cdpUrl's query>, token and all, and travels in msg.morelogin.profile", async () => {
      const token = "0123456789abcdef0123456789abcdef";
      const cdpUrl = await cloudDevtools(token);
      stub.script(accepted, row("RUNNING", null), { body: { code: 0, msg: null, data: { cdpUrl, accessUrl: `https://access.example/?token=${token}` }, requestId: "stub-connect" } });
      const msg = succeeded(await startOnStub());
      const webSocketDebuggerUrl = `ws://127.0.0.1:1/devtools/browser/cloud?token=${token}`;
      assert.deepEqual(msg.payload, { envId: ENV_ID, cdpUrl, accessUrl: `https://access.example/?token=${token}`, where: "cloud", webSocketDebuggerUrl });
      assert.deepEqual(infoOf(msg).profile, { envId: ENV_ID, where: "cloud", cdpUrl, webSocketDebuggerUrl });
      assert.deepEqual(paths(), [START, PAGE, CONNECT]);
    });
  });

  describe("the token is a secret", () => {
    it("appears in no status text, log line or error text of start, status, close and the browser node", async () => {
      const envId = freshProfile();
      const msg = await startCloud(envId);
      const { cdpUrl } = msg.payload as CloudPayload;
      const token = tokenOf(cdpUrl);
      const scanner = new SecretScanner([token]);
      shown(scanner, helper.getNode("n1"));
      await runNext(emulator(), { type: "morelogin-profile-status", envId, envIdType: "str", where: "cloud" }, { payload: "" });
      shown(scanner, helper.getNode("n1"));

      // The browser node asks the cloud browser's /json/version with its path and token, then fails to reach the WebSocket it names.
      const runtime = await cloudDevtools(token);
      const viaCdp = failed(await browserOutcome({ payload: { envId, cdpUrl: runtime, where: "cloud" } }));
      assert.equal(viaCdp.text, "browser failed: no browser at ws://127.0.0.1:1/devtools/browser/cloud?token=*** (nothing answers there): is the profile running?");
      scanner.scan(viaCdp.text);
      scanner.scan(viaCdp.error);
      shown(scanner, helper.getNode("n1"));
      // And where nothing answers /json/version (a cloud browser gone), the address it names is masked too.
      const gone = `http://127.0.0.1:${await closedPort()}/runtime?token=${token}`;
      const nothing = failed(await browserOutcome({ payload: "page title", morelogin: { api: "local", path: CONNECT, profile: { envId, where: "cloud", cdpUrl: gone } } }));
      assert.match(nothing.text, /^browser failed: no browser answers at http:\/\/127\.0\.0\.1:\d+\/runtime\/json\/version\?token=\*\*\*: is the profile running\?$/);
      scanner.scan(nothing.text);
      scanner.scan(nothing.error);
      shown(scanner, helper.getNode("n1"));

      await runNext(emulator(), { type: "morelogin-close-profile", envId: "", envIdType: "str" }, { payload: "", morelogin: msg.morelogin });
      shown(scanner, helper.getNode("n1"));
      assert.ok(scanner.scanned > 5, "something was scanned");
      assert.deepEqual(scanner.findings, []);
    });

    it("a batch item that failed naming a cloud browser's URL shows it with the token masked in progress and the done summary", async () => {
      const token = "5f0c1d2e3a4b5c6d7e8f90a1b2c3d4e5";
      const folder = mkdtempSync(join(tmpdir(), "morelogin-cloud-batch-"));
      const work = await LocalBatchWork.open(join(folder, "batch.jsonl"), { resend: false, onError: (error) => assert.fail(error) });
      const sent: Array<Record<string, unknown>> = [];
      const progress: unknown[] = [];
      let id = 0;
      const runner = new BatchRunner({ parallel: 1, retries: 0, itemTimeoutMs: 0, resend: false }, work, {
        sendItem: (item) => sent.push(item),
        sendProgress: (_topic, payload) => progress.push(payload),
        status: (status) => progress.push(status),
        failed: (error) => assert.fail(error),
        generateId: () => `id${++id}`,
        clone: (value) => structuredClone(value),
        now: () => Date.now(),
        t: translator("en-US"),
      });
      try {
        runner.begin();
        await runner.add(["a"], {});
        await waitUntil(() => sent.length === 1, "the item out");
        const [item] = sent;
        assert.ok(item, "the item went out");
        const tag = (item.morelogin as { batch: BatchTag }).batch;
        runner.back(tag, new Error(`my step failed at https://runtime1.morelogin.com:16167?token=${token}`));
        await waitUntil(() => JSON.stringify(progress).includes("my step failed"), "the failure in progress");
      } finally {
        runner.stop();
        await work.close();
        rmSync(folder, { recursive: true, force: true });
      }
      const shownText = JSON.stringify(progress);
      assert.ok(shownText.includes("https://runtime1.morelogin.com:16167?token=***"), shownText);
      assert.equal(shownText.includes(token), false);
    });

    /** A browser node (action evaluate) on its own, with a Catch node. */
    async function browserOutcome(input: Record<string, unknown>): ReturnType<typeof sendAndCollect> {
      await helper.unload();
      const flow = [
        { id: TAB, type: "tab", label: "test" },
        configNode(emulator(), NO_PACING),
        { id: "n1", type: "morelogin-browser", z: TAB, action: "evaluate", expression: "document.title", expressionType: "str", wires: [["out"]] },
        { id: "out", z: TAB, type: "helper" },
        { id: "catch1", z: TAB, type: "catch", scope: null, uncaught: false, wires: [["caught"]] },
        { id: "caught", z: TAB, type: "helper" },
        { id: "complete1", z: TAB, type: "complete", scope: ["n1"], uncaught: false, wires: [["completed"]] },
        { id: "completed", z: TAB, type: "helper" },
      ];
      return sendAndCollect(flow, input, credentialsFor(emulator()));
    }
  });
});
