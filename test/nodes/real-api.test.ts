import assert from "node:assert/strict";
import type { NodeMessage } from "node-red";
import { Collector, credentialsFor, flowWith, helper, loadFlow, sendTo, statusCalls, useNodeRed, type Msg } from "../support/node-red";
import { clearFaults, marker, requests, useEmulator } from "../support/emulator";
import { waitUntil } from "../support/wait-until";

const PAGE = "local POST /api/env/page";

describe("nodes: pacing, timeouts and whole replies (the real API's behaviour)", () => {
  const { emulator } = useEmulator({ profiles: 5, apps: 3 });
  useNodeRed(emulator, clearFaults);

  /** `msg.morelogin` of a message that must be there. */
  const infoOf = (msg: Msg | undefined): { api: string; path: string; requestId?: string; error: Record<string, unknown> } => {
    assert.ok(msg?.morelogin, "the message has msg.morelogin");
    return msg.morelogin as { api: string; path: string; requestId?: string; error: Record<string, unknown> };
  };
  const flowError = (msg: Msg | undefined): Record<string, unknown> => infoOf(msg).error;

  it("a node's timeout bounds each attempt's wait for an answer, and can come from msg", async () => {
    emulator().script({ kind: "hang", path: "/api/env/page", times: 2 });
    const fixed = await sendTo(emulator(), { type: "morelogin-list-profiles", timeout: "0.3", timeoutType: "num" }, { payload: "" });
    assert.deepEqual(
      fixed.caught.map((msg) => (msg.error as { message: string }).message),
      ["list profiles failed: no answer from the Local API within 0.3 s (POST /api/env/page)"],
    );
    assert.equal(flowError(fixed.caught[0]).kind, "timeout");
    await helper.unload();

    const fromMsg = await sendTo(emulator(), { type: "morelogin-list-profiles", timeout: "limit", timeoutType: "msg" }, { payload: "", limit: 0.2 });
    assert.deepEqual(
      fromMsg.caught.map((msg) => (msg.error as { message: string }).message),
      ["list profiles failed: no answer from the Local API within 0.2 s (POST /api/env/page)"],
    );
  });

  it("a timeout that is not a positive number of seconds is refused before anything is sent", async () => {
    const { caught, out } = await sendTo(emulator(), { type: "morelogin-start-profile", envId: "1", envIdType: "str", timeout: "limit", timeoutType: "msg" }, { payload: "", limit: "soon" });
    assert.equal(out.length, 0);
    assert.deepEqual(
      caught.map((msg) => (msg.error as { message: string }).message),
      ['start profile failed: timeout must be a number of seconds above 0 and at most 86400, got "soon"'],
    );
    assert.equal(flowError(caught[0]).kind, "input");
    assert.equal(requests(emulator(), "local POST /api/env/start"), 0);
  });

  it("messages over the config node's requests per minute wait, show as queued, and a redeploy ends each of them once", async () => {
    await loadFlow(flowWith(emulator(), { type: "morelogin-list-profiles" }, { localRpm: "2" }), credentialsFor(emulator()));
    const out = new Collector("out");
    const node = helper.getNode("n1");
    for (let i = 0; i < 4; i++) node.receive({ payload: "", topic: `m${i}` } as NodeMessage);
    await out.next(2);
    await waitUntil(() => statusCalls(node).at(-1)?.text === "2 queued", "the other two show as queued");
    await marker(emulator(), "marker");
    assert.equal(out.messages.length, 2, "two of four messages went through in this minute");
    assert.equal(requests(emulator(), PAGE), 3, "the other two were not sent (two and the marker)");
    assert.deepEqual(statusCalls(node).at(-1), { fill: "blue", shape: "ring", text: "2 queued" });

    const ended: string[] = [];
    // The helper drops its spies before it stops the flows: watch this node's own error() instead.
    node.error = (error: unknown): void => {
      ended.push(error instanceof Error ? error.message : String(error));
    };
    await helper.unload();
    assert.deepEqual(ended, [
      "list profiles failed: the node was stopped (a deploy or Node-RED shutting down) while the call was in flight",
      "list profiles failed: the node was stopped (a deploy or Node-RED shutting down) while the call was in flight",
    ]);
    await marker(emulator(), "after the redeploy");
    assert.equal(requests(emulator(), PAGE), 4, "nothing was sent for the messages the redeploy ended (two, and two markers)");
  });

  it("a config node with pacing set to 0 lets every message through at once", async () => {
    await loadFlow(flowWith(emulator(), { type: "morelogin-list-profiles" }, { localRpm: "0" }), credentialsFor(emulator()));
    const out = new Collector("out");
    const node = helper.getNode("n1");
    for (let i = 0; i < 150; i++) node.receive({ payload: "" } as NodeMessage);
    await out.next(150);
    assert.equal(requests(emulator(), PAGE), 150);
  });

  it("a config node with a pacing setting that is not a whole number says so on every message", async () => {
    const { caught } = await sendTo(emulator(), { type: "morelogin-list-profiles" }, { payload: "" }, { config: { openRpm: "fast" } });
    assert.deepEqual(
      caught.map((msg) => (msg.error as { message: string }).message),
      ['list profiles failed: the MoreLogin config node is not usable: openRpm must be a whole number, 0 or more (0 = no limit), got "fast"'],
    );
  });

  it("a rate-limit reply holds the message and sends it again; the flow sees one answer", async () => {
    emulator().script({ kind: "tooMany", path: "/api/env/page", retryAfterSeconds: 1 });
    const { out, caught } = await sendTo(emulator(), { type: "morelogin-list-profiles" }, { payload: "" });
    assert.deepEqual(caught, []);
    assert.equal(out.length, 1);
    assert.equal(requests(emulator(), PAGE), 2);
  });

  it("MoreLogin request with output 'reply' sends the whole reply, and a non-zero code as data", async () => {
    const ok = await sendTo(emulator(), { type: "morelogin-request", api: "local", method: "POST", path: "/api/env/page", output: "reply" }, { payload: { pageNo: 1, pageSize: 1 } });
    const reply = ok.out[0]?.payload as Record<string, unknown>;
    assert.deepEqual(Object.keys(reply).sort(), ["code", "data", "msg", "requestId"]);
    assert.equal(reply.code, 0);
    assert.equal((reply.data as { dataList: unknown[] }).dataList.length, 1);
    await helper.unload();

    const refused = await sendTo(emulator(), { type: "morelogin-request", api: "local", method: "POST", path: "/api/env/start", output: "reply" }, { payload: { envId: "1" } });
    assert.deepEqual(refused.caught, []);
    const failed = refused.out[0]?.payload as { code: number; data: unknown };
    assert.notEqual(failed.code, 0);
    assert.equal(failed.data, null);
  });

  it("MoreLogin request without output keeps sending the reply's data, and a non-zero code is an error", async () => {
    const { out, caught } = await sendTo(emulator(), { type: "morelogin-request", api: "local", method: "POST", path: "/api/env/start" }, { payload: { envId: "1" } });
    assert.equal(out.length, 0);
    assert.equal(caught.length, 1);
    assert.equal(flowError(caught[0]).kind, "api");
  });

  it("list cloud-phone apps uses the Local API when new, with no token, and the Open API when saved before 0.2", async () => {
    const local = await sendTo(emulator(), { type: "morelogin-list-apps", api: "local" }, { payload: "" });
    assert.equal(local.out.length, 1);
    assert.equal(infoOf(local.out[0]).api, "local");
    assert.equal(requests(emulator(), "local POST /api/cloudphone/app/page"), 1);
    assert.equal(emulator().stats.tokenRequests, 0, "no API key needed");
    await helper.unload();

    const saved = await sendTo(emulator(), { type: "morelogin-list-apps" }, { payload: "" });
    assert.equal(saved.out.length, 1);
    assert.deepEqual(saved.out[0]?.morelogin, { api: "open", path: "/cloudphone/app/page", requestId: infoOf(saved.out[0]).requestId });
    assert.equal(requests(emulator(), "open POST /cloudphone/app/page"), 1);
    await helper.unload();

    const all = await sendTo(emulator(), { type: "morelogin-list-apps", api: "local", all: true }, { payload: "" });
    assert.deepEqual(all.out[0]?.payload, emulator().data.apps);
    assert.equal(infoOf(all.out[0]).path, "/api/cloudphone/app/page");
  });

  it("list groups always sends groupName, pageNo and pageSize, which MoreLogin requires", async () => {
    const { out } = await sendTo(emulator(), { type: "morelogin-list-groups" }, { payload: "" });
    assert.equal(out.length, 1);
    assert.deepEqual(emulator().requestLog.at(-1)?.body, { groupName: "", pageNo: 1, pageSize: 10 });
  });
});
