import assert from "node:assert/strict";
import type { NodeMessage } from "node-red";
import { Collector, NODE_MODULES, catchNode, completeNode, credentialsFor, flowWith, helper, type FlowNode, type Msg, useNodeRed } from "../support/node-red";
import { useEmulator } from "../support/emulator";
import { call, dataOf, getJson } from "../support/http";
import { waitUntil } from "../support/wait-until";
import { NO_PACING, UNSAFE_ID, assertInfo, assertNothingSent, failed, infoOf, onlyBodyAt, redeployWhilePolling, refused, requestsAt, run, succeeded } from "../support/outcome";

const STATUS = "/api/env/status";
const changeNode = require(require.resolve("@node-red/nodes/core/function/15-change.js", { paths: [require.resolve("node-red/package.json")] })) as (RED: unknown) => void;

describe("nodes: profile status, and the profile a message carries", () => {
  const { emulator } = useEmulator({ profiles: 12 });
  const local = async <T = Record<string, unknown>>(path: string, body: unknown): Promise<T> => dataOf<T>(await call(emulator().localUrl, path, { body }));
  /** Each test takes its own profiles, so no test depends on another's. */
  let next = 0;
  const freshProfile = (): string => {
    const id = emulator().data.profiles[next++]?.id;
    assert.ok(id, "a free profile");
    return id;
  };
  /** Starts a profile as the desktop client would (not through a node); its debug port and the browser's address. */
  const startOutside = async (envId: string): Promise<{ debugPort: string; cdpUrl: string; webSocketDebuggerUrl: string }> => {
    const { debugPort } = await local<{ debugPort: string }>("/api/env/start", { envId });
    const cdpUrl = `http://127.0.0.1:${debugPort}`;
    const version = await getJson(`${cdpUrl}/json/version`);
    return { debugPort, cdpUrl, webSocketDebuggerUrl: String(version.webSocketDebuggerUrl) };
  };
  const isRunning = (envId: string): boolean =>
    emulator()
      .running()
      .some((profile) => profile.envId === envId);

  useNodeRed(emulator);

  it("replies a stopped profile's status, named by a string msg.payload, with msg.topic its ID and no profile carried", async () => {
    const envId = freshProfile();
    const msg = succeeded(await run(emulator(), { type: "morelogin-profile-status", envId: "", envIdType: "str" }, { payload: envId }));
    assert.deepEqual(msg.payload, { envId, status: "stopped", localStatus: "stopped", debugPort: "", webdriver: "" });
    assert.deepEqual(onlyBodyAt(emulator(), STATUS), { envId });
    assert.equal(msg.topic, envId);
    assertInfo(msg, { api: "local", path: STATUS });
  });

  it("replies a running profile's status with cdpUrl and webSocketDebuggerUrl, and sets msg.morelogin.profile", async () => {
    const envId = freshProfile();
    const browser = await startOutside(envId);
    emulator().resetStats();
    const msg = succeeded(await run(emulator(), { type: "morelogin-profile-status", envId, envIdType: "str" }, { payload: 1_700_000_000_000 }));
    assert.deepEqual(onlyBodyAt(emulator(), STATUS), { envId }, "an inject node's timestamp payload names no profile");
    const status = await local(STATUS, { envId });
    assert.deepEqual(msg.payload, { ...status, cdpUrl: browser.cdpUrl, webSocketDebuggerUrl: browser.webSocketDebuggerUrl });
    assert.equal(status.status, "running");
    assert.equal(msg.topic, envId);
    assertInfo(msg, { api: "local", path: STATUS, profile: { envId, ...browser } });
  });

  it("takes a profile item from list profiles, or an object whose fields are laid over the body", async () => {
    const item = emulator().data.profiles[next++];
    assert.ok(item);
    succeeded(await run(emulator(), { type: "morelogin-profile-status", envId: "", envIdType: "str" }, { payload: item }));
    assert.deepEqual(onlyBodyAt(emulator(), STATUS), { envId: item.id });
    await helper.unload();
    emulator().resetStats();
    const other = freshProfile();
    const msg = succeeded(await run(emulator(), { type: "morelogin-profile-status", envId: item.id, envIdType: "str" }, { payload: { envId: other } }));
    assert.deepEqual(onlyBodyAt(emulator(), STATUS), { envId: other });
    assert.equal(msg.topic, other);
  });

  it("falls back to the profile the message carries when msg.payload is a string that is not an ID, and drops it once stopped", async () => {
    const envId = freshProfile();
    const carried = { envId, debugPort: "9222", cdpUrl: "http://127.0.0.1:9222" };
    const msg = succeeded(
      await run(emulator(), { type: "morelogin-profile-status", envId: "", envIdType: "str" }, { payload: "Example Domain", morelogin: { api: "local", path: "/api/env/start", profile: carried } }),
    );
    assert.deepEqual(onlyBodyAt(emulator(), STATUS), { envId });
    assert.equal((msg.payload as { status: string }).status, "stopped");
    assert.equal(infoOf(msg).profile, undefined, "a stopped profile is no longer carried");
  });

  it("waitFor running polls until the profile runs, and replies it running", async () => {
    const envId = freshProfile();
    const pending = run(emulator(), { type: "morelogin-profile-status", envId, envIdType: "str", waitFor: "running", timeout: "60", timeoutType: "num" }, { payload: "" });
    await waitUntil(() => requestsAt(emulator(), STATUS).length >= 1, "the node has asked for the status");
    assert.ok(!isRunning(envId));
    const browser = await startOutside(envId);
    const msg = succeeded(await pending);
    assert.equal((msg.payload as { status: string }).status, "running");
    assert.ok(requestsAt(emulator(), STATUS).length >= 2, "it asked again");
    assert.ok(
      requestsAt(emulator(), STATUS).every((entry) => JSON.stringify(entry.body) === JSON.stringify({ envId })),
      "every status request names the profile",
    );
    assertInfo(msg, { api: "local", path: STATUS, profile: { envId, ...browser } });
  });

  it("waitFor stopped polls until the profile has stopped", async () => {
    const envId = freshProfile();
    await startOutside(envId);
    emulator().resetStats();
    const pending = run(emulator(), { type: "morelogin-profile-status", envId, envIdType: "str", waitFor: "stopped" }, { payload: "" });
    await waitUntil(() => requestsAt(emulator(), STATUS).length >= 1, "the node has asked for the status");
    await local("/api/env/close", { envId });
    const msg = succeeded(await pending);
    assert.deepEqual(msg.payload, { envId, status: "stopped", localStatus: "stopped", debugPort: "", webdriver: "" });
    assert.ok(requestsAt(emulator(), STATUS).length >= 2);
  });

  it("a wait that runs out of time is an error of kind timeout naming the last status seen", async () => {
    const envId = freshProfile();
    const { text, error } = failed(await run(emulator(), { type: "morelogin-profile-status", envId, envIdType: "str", waitFor: "running", timeout: "1.5", timeoutType: "num" }, { payload: "" }));
    assert.equal(text, `profile status failed: profile ${envId} was not running within 1.5 s; last status seen: "stopped"`);
    assert.equal(error.kind, "timeout");
    assert.ok(requestsAt(emulator(), STATUS).length >= 2, "it polled before giving up");
  });

  it("a redeploy during a wait ends the message once and stops polling", async () => {
    const envId = freshProfile();
    const flow = flowWith(emulator(), { type: "morelogin-profile-status", envId, envIdType: "str", waitFor: "running", timeout: "600", timeoutType: "num" }, NO_PACING);
    const ended = await redeployWhilePolling(emulator(), flow, STATUS, "status request");
    assert.deepEqual(ended, ["profile status failed: the node was stopped (a deploy or Node-RED shutting down) while the call was in flight"]);
  });

  it("refuses, before sending anything, no profile and a 64-bit ID given as a number", async () => {
    refused(
      await run(emulator(), { type: "morelogin-profile-status", envId: "", envIdType: "str" }, { payload: "Example Domain" }),
      /^profile status failed: msg.payload "Example Domain" is not a profile ID/,
    );
    await helper.unload();
    refused(
      await run(emulator(), { type: "morelogin-profile-status", envId: "", envIdType: "str" }, { payload: { envId: UNSAFE_ID } }),
      /^profile status failed: envId 1993244721490239500 is not a safe integer: pass MoreLogin IDs as strings/,
    );
    assertNothingSent(emulator());
  });

  describe("in a flow: start or status, then a node that changes msg.payload, then close", () => {
    /** n1 -> change (msg.payload = a page title) -> close -> out; Catch and Complete as in flowWith. */
    async function chain(first: Record<string, unknown>, input: Record<string, unknown>): Promise<{ closed: Msg; started: Msg }> {
      const flow: FlowNode[] = flowWith(emulator(), { ...first, wires: [["title", "seen"]] }, NO_PACING);
      flow.push(
        { id: "seen", z: "tab1", type: "helper" },
        { id: "title", z: "tab1", type: "change", rules: [{ t: "set", p: "payload", pt: "msg", to: "Example Domain", tot: "str" }], wires: [["close1"]] },
        { id: "close1", z: "tab1", type: "morelogin-close-profile", server: "config1", envId: "", envIdType: "str", wires: [["out"]] },
      );
      await helper.load([...NODE_MODULES, catchNode, completeNode, changeNode] as never, flow as never, credentialsFor(emulator()) as never);
      const out = new Collector("out");
      const seen = new Collector("seen");
      const caught = new Collector("caught");
      helper.getNode("n1").receive(input as NodeMessage);
      const [closed] = (await out.next(1, 60_000)) as Msg[];
      const [started] = (await seen.next(1)) as Msg[];
      assert.deepEqual(caught.messages, []);
      assert.ok(closed && started);
      return { closed, started };
    }

    it("start -> close with no ID closes the profile start carried, and the close's reply carries it no more", async () => {
      const envId = freshProfile();
      const { closed, started } = await chain({ type: "morelogin-start-profile", envId, envIdType: "str" }, { payload: "" });
      assert.equal(infoOf(started).profile?.envId, envId);
      assert.equal(started.topic, envId);
      assert.deepEqual(onlyBodyAt(emulator(), "/api/env/close"), { envId });
      assert.equal(isRunning(envId), false);
      assert.equal(closed.topic, envId);
      assert.deepEqual(closed.payload, { envId, debugPort: "" });
      assertInfo(closed, { api: "local", path: "/api/env/close" });
    });

    it("status (running) -> close with no ID closes the profile status carried", async () => {
      const envId = freshProfile();
      await startOutside(envId);
      emulator().resetStats();
      const { started } = await chain({ type: "morelogin-profile-status", envId: "", envIdType: "str" }, { payload: envId });
      assert.equal(infoOf(started).profile?.envId, envId);
      assert.deepEqual(onlyBodyAt(emulator(), "/api/env/close"), { envId });
      assert.equal(isRunning(envId), false);
    });
  });
});
