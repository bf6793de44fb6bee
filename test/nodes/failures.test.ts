import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { runInNewContext } from "node:vm";
import type { Node, NodeMessage } from "node-red";
import type { MoreLoginClient } from "../../src/client";
import { DEFAULT_RETRY } from "../../src/client/retry";
import type { ScriptedFault } from "../../src/emulator";
import { CONFIG_ID, Collector, credentialsFor, flowWith, helper, loadFlow, sendAndCollect, sendTo, statusCalls, useNodeRed, type FlowNode, type Msg } from "../support/node-red";
import { freePort } from "../../tools/sandbox";
import { clearFaults, useEmulator } from "../support/emulator";
import { OUTCOME_MS, waitUntil } from "../support/wait-until";
import { SecretScanner } from "../support/secrets";
import { BUSY_UPDATE_MS } from "../../src/nodes/lib/shell/status";

const LOCAL_TOKEN = "local-token-7f3a9c21e5";
const API_KEY = "open-api-key-do-not-leak-9921";

describe("nodes: errors, status, secrets and lifecycle", () => {
  const { emulator } = useEmulator({ profiles: 12, localToken: LOCAL_TOKEN, apiKey: API_KEY });
  useNodeRed(emulator, clearFaults);

  const errorOf = (msg: Msg | undefined): { message: string } => msg?.error as { message: string };

  it("a business error reaches the Catch node once, with the API's msg and code and msg.morelogin.error", async () => {
    // Quiet: the test is about the error reaching the Catch node once, and nothing after it.
    const { out, caught } = await sendTo(emulator(), { type: "morelogin-start-profile", envId: "1000000000000000001", envIdType: "str" }, { payload: "", res: "kept" }, { quiet: true });
    assert.equal(out.length, 0);
    assert.equal(caught.length, 1);
    assert.equal(errorOf(caught[0]).message, "start profile failed: Profile not found (code 101)");
    const info = caught[0]?.morelogin as { error: Record<string, unknown> };
    assert.equal(info.error.kind, "api");
    assert.equal(info.error.code, 101);
    assert.equal(info.error.msg, "Profile not found");
    assert.equal(info.error.status, 200);
    assert.equal(info.error.path, "/api/env/start");
    assert.match(String(info.error.requestId), /^[0-9a-f]{32}$/);
    assert.equal(caught[0]?.res, "kept");
  });

  it("a msg.morelogin that is not an object is replaced by the node's own, not spread into its characters", async () => {
    const { out, caught } = await sendTo(emulator(), { type: "morelogin-list-profiles" }, { payload: "", morelogin: "mine" });
    assert.equal(caught.length, 0);
    const info = out[0]?.morelogin as Record<string, unknown>;
    assert.equal(info.path, "/api/env/page");
    assert.equal("0" in info, false, `msg.morelogin has the string's characters: ${JSON.stringify(info)}`);
  });

  it("an unreachable desktop client is one clear error, and the runtime goes on", async () => {
    const port = await freePort();
    const flow = flowWith(emulator(), { type: "morelogin-list-profiles" }, { localUrl: `http://127.0.0.1:${port}` });
    const { out, caught, node } = await sendAndCollect(flow, { payload: "" }, credentialsFor(emulator()));
    assert.equal(out.length, 0);
    assert.equal(caught.length, 1);
    assert.match(errorOf(caught[0]).message, /^list profiles failed: cannot reach the Local API at http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\): is the MoreLogin desktop client running/);
    assert.deepEqual(statusCalls(node).at(-1), { fill: "red", shape: "ring", text: "unreachable" });
    const error = (caught[0]?.morelogin as { error?: { kind: string; path: string } } | undefined)?.error;
    assert.deepEqual({ kind: error?.kind, path: error?.path }, { kind: "network", path: "/api/env/page" });
  });

  it("bad input is refused before sending, with a text that names the field", async () => {
    const cases: Array<[Record<string, unknown>, Record<string, unknown>, RegExp]> = [
      [{ type: "morelogin-list-profiles" }, { payload: { pageNo: "abc" } }, /^list profiles failed: pageNo must be a positive integer, got "abc"$/],
      [{ type: "morelogin-list-profiles", pageNo: "0", pageNoType: "num" }, { payload: "" }, /^list profiles failed: pageNo must be a positive integer, got 0$/],
      // biome-ignore lint/correctness/noPrecisionLoss: a 19-digit ID that has lost digits as a number is what this case refuses
      [{ type: "morelogin-start-profile", envId: "", envIdType: "str" }, { payload: { envId: 1993244721490239488 } }, /^start profile failed: envId .* not a safe integer/],
      [{ type: "morelogin-start-profile", envId: "", envIdType: "str" }, { payload: "" }, /^start profile failed: no profile given: set the profile ID in the node/],
      // What was given and why it is no profile: a number that lost digits, a plain number, a name.
      [
        { type: "morelogin-start-profile", envId: "", envIdType: "str" },
        // biome-ignore lint/correctness/noPrecisionLoss: the rounded 19-digit ID is what this case refuses
        { payload: 1993244721490239488 },
        /^start profile failed: msg.payload 1993244721490239500 is a number beyond 2\^53, so its last digits are already lost and it names no profile: send the profile ID as a string/,
      ],
      [
        { type: "morelogin-start-profile", envId: "", envIdType: "str" },
        { payload: 42 },
        /^start profile failed: msg.payload 42 is a number, not a profile ID \(an inject node sends the time as a number\)/,
      ],
      [
        { type: "morelogin-start-profile", envId: "", envIdType: "str" },
        { payload: "Shop 3" },
        /^start profile failed: msg.payload "Shop 3" is not a profile ID \(IDs are decimal strings .*\): if it is a profile's name, pick the profile in the node's profile field .* or find its ID with list profiles$/,
      ],
      [{ type: "morelogin-start-profile", envId: "Shop 3", envIdType: "str" }, { payload: "" }, /^start profile failed: envId must be a decimal ID such as "\d+", got "Shop 3": a name is not an ID/],
      // Built in a function node (its own vm context): an object is named as one, never by what it holds.
      [
        { type: "morelogin-start-profile", envId: "", envIdType: "str" },
        { payload: runInNewContext('({ envName: "Shop 3", apiKey: "open-api-key-do-not-leak-9921" })') },
        /^start profile failed: msg\.payload is an object without `envId`, `uniqueId` or `id`, so it names no profile: add the profile ID as `envId`, or set it in the node$/,
      ],
      [
        { type: "morelogin-profile-status", envId: "", envIdType: "str" },
        { payload: runInNewContext("new Date(0)") },
        /^profile status failed: msg\.payload is neither a profile ID nor a plain object \(it is of type Date\)/,
      ],
      [{ type: "morelogin-close-profile", envId: "", envIdType: "str" }, { payload: Buffer.from("1") }, /^close profile failed: msg\.payload is a Buffer, not a profile ID/],
      [
        { type: "morelogin-profile", action: "delete", envId: "", envIdType: "str" },
        { payload: 42 },
        /^profile failed: msg.payload 42 is a number, not a profile ID .*send an ID, an array of IDs, or the profiles from list profiles$/,
      ],
      // A string that is not a decimal ID names no profile: nothing of it reaches a request.
      [{ type: "morelogin-close-profile", envId: "", envIdType: "str" }, { payload: "12ab\r\nHost: x" }, /^close profile failed: msg.payload "12ab\\r\\nHost: x" is not a profile ID/],
      [{ type: "morelogin-close-profile", envId: "12ab\r\nHost: x", envIdType: "str" }, { payload: 1 }, /^close profile failed: envId must be a decimal ID/],
      [{ type: "morelogin-request", api: "local", method: "POST", path: "http://evil.example.com/x", pathType: "str" }, { payload: {} }, /^MoreLogin request failed: request path must be relative/],
      [{ type: "morelogin-request", api: "local", method: "POST", path: "url", pathType: "msg" }, { payload: {}, url: "/api/%2e%2e/x" }, /^MoreLogin request failed: request path must not contain/],
    ];
    for (const [node, input, expected] of cases) {
      const { out, caught } = await sendTo(emulator(), node, input);
      assert.equal(out.length, 0, String(expected));
      assert.equal(caught.length, 1, String(expected));
      assert.match(errorOf(caught[0]).message, expected);
      assert.equal((caught[0]?.morelogin as { error?: { kind: string } } | undefined)?.error?.kind, "input", String(expected));
      await helper.unload();
    }
    assert.equal(emulator().requestLog.length, 0, "nothing was sent");
  });

  it("a missing config node is a clear error, not a crash", async () => {
    const noServer = flowWith(emulator(), { type: "morelogin-list-tags", server: "" });
    const first = await sendAndCollect(noServer, { payload: "" }, credentialsFor(emulator()));
    assert.equal(first.caught.length, 1);
    assert.equal(errorOf(first.caught[0]).message, "list tags failed: no MoreLogin config node is selected: open the node and choose one");
    await helper.unload();
    const deleted = flowWith(emulator(), { type: "morelogin-list-tags", server: "gone" });
    const second = await sendAndCollect(deleted, { payload: "" }, credentialsFor(emulator()));
    assert.equal(second.caught.length, 1);
    assert.match(errorOf(second.caught[0]).message, /^list tags failed: the selected MoreLogin config node does not exist/);
    assert.deepEqual(statusCalls(second.node).at(-1), { fill: "red", shape: "ring", text: "no config" });
  });

  it("a config node with an unusable URL makes its nodes fail clearly", async () => {
    const flow = flowWith(emulator(), { type: "morelogin-list-tags" }, { openUrl: "http://api.morelogin.com" });
    const { caught } = await sendAndCollect(flow, { payload: "" }, credentialsFor(emulator()));
    assert.equal(caught.length, 1);
    assert.match(errorOf(caught[0]).message, /^list tags failed: the MoreLogin config node is not usable: Open API URL must use https/);
  });

  it("sends the Local token exactly as configured, and a wrong one explains itself without showing it", async () => {
    await sendTo(emulator(), { type: "morelogin-list-tags" }, { payload: "" });
    assert.equal(emulator().requestLog.at(-1)?.headers.authorization, LOCAL_TOKEN);
    await helper.unload();
    const wrong = await sendTo(emulator(), { type: "morelogin-list-tags" }, { payload: "" }, { credentials: { localToken: "wrong-token-value" } });
    assert.equal(wrong.caught.length, 1);
    assert.match(errorOf(wrong.caught[0]).message, /^list tags failed: API authentication failed \(code 35002\)/);
    assert.doesNotMatch(JSON.stringify(wrong.caught[0]), /wrong-token-value|local-token-7f3a9c21e5/);
  });

  it("shows blue while requests are in flight, counted, then green with a summary", async () => {
    // Slower than the status's update interval, so the count has its turn while both are in flight.
    emulator().setFaults({ latencyMs: [BUSY_UPDATE_MS * 4, BUSY_UPDATE_MS * 4] });
    await loadFlow(flowWith(emulator(), { type: "morelogin-list-profiles", pageSize: "5", pageSizeType: "num" }), credentialsFor(emulator()));
    const out = new Collector("out");
    const node = helper.getNode("n1");
    node.receive({ payload: "" } as NodeMessage);
    node.receive({ payload: "" } as NodeMessage);
    await out.next(2);
    emulator().setFaults({});
    assert.deepEqual(statusCalls(node), [
      { fill: "blue", shape: "dot", text: "requesting…" },
      { fill: "blue", shape: "dot", text: "2 in flight" },
      { fill: "blue", shape: "dot", text: "requesting…" },
      { fill: "green", shape: "dot", text: "5 items, page 1/3" },
    ]);
  });

  it("under load the status changes a few times, not twice per message, and ends green", async () => {
    emulator().setFaults({ latencyMs: [50, 150] });
    // Pacing off: 200 messages at once must all be in flight together for this test.
    await loadFlow(flowWith(emulator(), { type: "morelogin-list-profiles", pageSize: "5", pageSizeType: "num" }, { localRpm: "0" }), credentialsFor(emulator()));
    const out = new Collector("out");
    const node = helper.getNode("n1");
    const began = performance.now();
    for (let i = 0; i < 200; i++) node.receive({ payload: "" } as NodeMessage);
    await out.next(200, OUTCOME_MS);
    const busyMs = performance.now() - began;
    emulator().setFaults({});
    const statuses = statusCalls(node);
    assert.deepEqual(statuses[0], { fill: "blue", shape: "dot", text: "requesting…" });
    assert.deepEqual(statuses.at(-1), { fill: "green", shape: "dot", text: "5 items, page 1/3" });
    // One blue at once, a count at most every BUSY_UPDATE_MS while they overlap, one green. A timer
    // never fires early, so however slow the machine, the counts cannot outnumber the intervals.
    // The slower the machine, the more intervals: the bound that does not depend on speed is "far
    // fewer than one per message". One more when an update lands with a single call left, which the
    // status calls "requesting…", as it does for one message.
    const most = 3 + Math.ceil(busyMs / BUSY_UPDATE_MS);
    assert.ok(statuses.length <= most, `${statuses.length} status updates for 200 messages in ${Math.round(busyMs)} ms (at most ${most}): ${JSON.stringify(statuses)}`);
    assert.ok(statuses.length < 200 / 4, `${statuses.length} status updates for 200 messages: not a few per message`);
    assert.ok(
      statuses.slice(1, -1).every((status) => status.fill === "blue" && /^(\d+ in flight|requesting…)$/.test(String(status.text))),
      JSON.stringify(statuses),
    );
  });

  it("a request that starts soon after another finished still turns blue while it waits", async () => {
    await loadFlow(flowWith(emulator(), { type: "morelogin-list-profiles", pageSize: "5", pageSizeType: "num" }), credentialsFor(emulator()));
    const out = new Collector("out");
    const node = helper.getNode("n1");
    node.receive({ payload: "" } as NodeMessage);
    await out.next(1);
    const before = statusCalls(node).length;
    emulator().setFaults({ latencyMs: [BUSY_UPDATE_MS * 3, BUSY_UPDATE_MS * 3] });
    node.receive({ payload: "" } as NodeMessage);
    await out.next(2);
    emulator().setFaults({});
    assert.deepEqual(
      statusCalls(node).slice(before),
      [
        { fill: "blue", shape: "dot", text: "requesting…" },
        { fill: "green", shape: "dot", text: "5 items, page 1/3" },
      ],
      "blue while it waits, then green",
    );
  });

  it("a later success clears an earlier red status", async () => {
    await loadFlow(flowWith(emulator(), { type: "morelogin-start-profile", envId: "", envIdType: "str" }), credentialsFor(emulator()));
    const out = new Collector("out");
    const caught = new Collector("caught");
    const node = helper.getNode("n1");
    node.receive({ payload: "1000000000000000001" } as NodeMessage);
    await caught.next(1);
    assert.deepEqual(statusCalls(node).at(-1), { fill: "red", shape: "ring", text: "error, code 101" });
    node.receive({ payload: emulator().data.profiles[0]?.id } as NodeMessage);
    await out.next(1);
    assert.match(String(statusCalls(node).at(-1)?.text), /^started, port \d+$/);
    assert.equal(statusCalls(node).at(-1)?.fill, "green");
  });

  it("two nodes on one config node share one client and one Open API token", async () => {
    const flow = flowWith(emulator(), { type: "morelogin-list-apps" });
    flow.push({ id: "n2", z: "tab1", type: "morelogin-request", server: CONFIG_ID, api: "open", method: "GET", path: "/envtag/all", pathType: "str", wires: [["out"]] });
    await loadFlow(flow, credentialsFor(emulator()));
    const out = new Collector("out");
    helper.getNode("n1").receive({ payload: "" } as NodeMessage);
    await out.next(1);
    helper.getNode("n2").receive({ payload: "" } as NodeMessage);
    const messages = (await out.next(2)) as Msg[];
    assert.deepEqual(messages[1]?.payload, emulator().data.tags);
    assert.equal(emulator().stats.tokensGranted, 1);
  });

  it("the request node calls any endpoint with msg.payload as the body", async () => {
    const envId = emulator().data.profiles[5]?.id;
    const { out } = await sendTo(emulator(), { type: "morelogin-request", api: "local", method: "POST", path: "/api/env/detail", pathType: "str" }, { payload: { envId } });
    assert.equal((out[0]?.payload as { id: string } | undefined)?.id, envId);
    assert.deepEqual(out[0]?.morelogin, { api: "local", path: "/api/env/detail", requestId: (out[0]?.morelogin as { requestId: string } | undefined)?.requestId });
    assert.deepEqual(emulator().requestLog.at(-1)?.body, { envId });
  });

  it("never puts a secret into messages, status, errors or logs, even when the API repeats the request", async () => {
    // The emulator's echo fault answers with an error whose msg repeats the request as received.
    const cases: Array<{ node: Record<string, unknown>; fault: ScriptedFault; shows: string }> = [
      { node: { type: "morelogin-list-tags" }, fault: { kind: "echo", api: "local", path: "/api/envtag/all" }, shows: '"authorization":"***"' },
      // A token request that fails is tried again: every attempt gets the echo.
      { node: { type: "morelogin-list-apps" }, fault: { kind: "echo", api: "open", path: "/oauth2/token", times: DEFAULT_RETRY.attempts }, shows: '"client_secret":"***"' },
      {
        node: { type: "morelogin-request", api: "open", method: "POST", path: "/envgroup/page", pathType: "str" },
        fault: { kind: "echo", api: "open", path: "/envgroup/page" },
        shows: '"authorization":"Bearer ***"',
      },
    ];
    for (const { node: type, fault, shows } of cases) {
      emulator().script(fault);
      const { out, caught, node } = await sendTo(emulator(), type, { payload: "" });
      assert.equal(out.length, 0);
      assert.equal(caught.length, 1);
      const text = errorOf(caught[0]).message;
      assert.ok(text.includes(` ${fault.path}: headers `), `the error text carries the echo: ${text}`);
      // Every Authorization value sent: the Local token, and "Bearer <token>" once a token was granted.
      const sent = emulator()
        .requestLog.map((entry) => entry.headers.authorization)
        .filter((value): value is string => typeof value === "string");
      const scanner = new SecretScanner([LOCAL_TOKEN, API_KEY, ...sent, ...sent.map((value) => value.replace(/^Bearer /, ""))]);
      scanner.scan(out);
      scanner.scan(caught);
      scanner.scan(statusCalls(node));
      scanner.scanRuntime(node);
      assert.deepEqual(scanner.findings, []);
      assert.ok(scanner.scanned > 3, "status and log calls were scanned");
      assert.ok(text.includes(shows), text);
      await helper.unload();
    }
  });

  it("redeploying closes the config node's client, aborting calls in flight", async () => {
    emulator().script({ kind: "hang", path: "/api/env/page" });
    await loadFlow(flowWith(emulator(), { type: "morelogin-list-profiles" }), credentialsFor(emulator()));
    const config = helper.getNode(CONFIG_ID) as Node & { client?: MoreLoginClient };
    const client = config.client;
    assert.ok(client);
    const node = helper.getNode("n1");
    // The helper removes its spies before it stops the flows, so the node's own error() is watched.
    const ended = new Promise<string>((resolve) => {
      node.error = (error: unknown): void => resolve(String(error));
    });
    node.receive({ payload: "" } as NodeMessage);
    await waitUntil(() => emulator().stats.faultsInjected.hang === 1, "the call is in flight (the emulator holds it)");
    await helper.unload();
    assert.equal(client.isClosed, true);
    assert.equal(await ended, "list profiles failed: the node was stopped (a deploy or Node-RED shutting down) while the call was in flight");
  });
});

describe("nodes: a browser that does not answer on its debug port", () => {
  let server: Server;
  let localUrl = "";
  useNodeRed();
  before(async () => {
    const deadPort = await freePort();
    server = createServer((req, res) => {
      req.resume();
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ code: 0, msg: null, requestId: "r1", data: { envId: "42", debugPort: String(deadPort), type: "chrome", version: 142, webdriver: "" } }));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    localUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it("still succeeds, with cdpUrl and a warning instead of webSocketDebuggerUrl", async () => {
    const flow: FlowNode[] = [
      { id: "tab1", type: "tab" },
      { id: CONFIG_ID, type: "morelogin-config", localUrl, openUrl: "http://127.0.0.1:1" },
      { id: "n1", z: "tab1", type: "morelogin-start-profile", server: CONFIG_ID, envId: "42", envIdType: "str", wires: [["out"]] },
      { id: "out", z: "tab1", type: "helper" },
    ];
    await loadFlow(flow);
    const out = new Collector("out");
    const node = helper.getNode("n1");
    node.receive({ payload: "" } as NodeMessage);
    const [msg] = (await out.next(1)) as Msg[];
    const payload = msg?.payload as Record<string, unknown>;
    assert.match(String(payload.cdpUrl), /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.equal(payload.webSocketDebuggerUrl, undefined);
    const warnings = (node.warn as unknown as { args: unknown[][] }).args.map((args) => String(args[0]));
    assert.ok(
      warnings.some((text) => /did not answer at http:\/\/127\.0\.0\.1:\d+\/json\/version/.test(text)),
      warnings.join("\n"),
    );
  });
});
