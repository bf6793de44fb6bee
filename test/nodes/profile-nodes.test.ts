import assert from "node:assert/strict";
import { getJson } from "../support/http";
import type { NodeMessage } from "node-red";
import { Collector, credentialsFor, flowWith, helper, loadFlow, sendTo, type Msg, useNodeRed } from "../support/node-red";
import { useEmulator } from "../support/emulator";
import { failed, requestsAt, run } from "../support/outcome";
import { startWiretap } from "../support/wiretap";

describe("nodes: start and close profile", () => {
  const { emulator } = useEmulator({ profiles: 5 });
  useNodeRed(emulator);

  const profileId = (index: number): string => {
    const id = emulator().data.profiles[index]?.id;
    assert.ok(id);
    return id;
  };

  /** Sends one message to `node` and returns the one message it sent on. */
  async function send(node: Record<string, unknown>, input: Record<string, unknown>): Promise<Msg> {
    const { out, caught, completed } = await sendTo(emulator(), node, input);
    assert.deepEqual(
      caught.map((msg) => msg.error),
      [],
    );
    assert.equal(completed.length, 1, "the message is ended once");
    assert.equal(out.length, 1);
    const [msg] = out;
    assert.ok(msg);
    return msg;
  }

  it("starts the profile named by the node, with cdpUrl and the browser's webSocketDebuggerUrl", async () => {
    const msg = await send({ type: "morelogin-start-profile", envId: profileId(0), envIdType: "str", isHeadless: true }, { payload: 1 });
    const payload = msg.payload as Record<string, string>;
    assert.equal(payload.envId, profileId(0));
    assert.match(payload.debugPort ?? "", /^\d+$/);
    assert.equal(payload.cdpUrl, `http://127.0.0.1:${payload.debugPort}`);
    const version = await getJson(`${payload.cdpUrl}/json/version`);
    assert.equal(payload.webSocketDebuggerUrl, version.webSocketDebuggerUrl);
    assert.deepEqual(emulator().requestLog.at(-1)?.body, { envId: profileId(0), isHeadless: true });
    assert.deepEqual(msg.morelogin, {
      api: "local",
      path: "/api/env/start",
      requestId: (msg.morelogin as { requestId: string }).requestId,
      profile: { envId: profileId(0), debugPort: payload.debugPort, cdpUrl: payload.cdpUrl, webSocketDebuggerUrl: payload.webSocketDebuggerUrl },
    });
    assert.equal(msg.topic, profileId(0));
  });

  it("takes the profile ID from a string msg.payload, which wins over the node's", async () => {
    const msg = await send({ type: "morelogin-start-profile", envId: profileId(0), envIdType: "str" }, { payload: profileId(1) });
    assert.equal((msg.payload as { envId: string }).envId, profileId(1));
  });

  it("takes a profile item from list profiles straight in, sending only its id", async () => {
    const item = emulator().data.profiles[2];
    await send({ type: "morelogin-start-profile", envId: "", envIdType: "str" }, { payload: item });
    assert.deepEqual(emulator().requestLog.at(-1)?.body, { envId: item?.id });
  });

  it("lays an object payload over the node's fields, extra fields included", async () => {
    await send({ type: "morelogin-start-profile", envId: profileId(0), envIdType: "str", cdpEvasion: true }, { payload: { envId: profileId(3), closeCheckIPPage: true } });
    assert.deepEqual(emulator().requestLog.at(-1)?.body, { envId: profileId(3), cdpEvasion: true, closeCheckIPPage: true });
  });

  it("a start MoreLogin refuses says so when lock/query reports the profile locked; other refusals stay as they were", async () => {
    const envId = profileId(4);
    // No source publishes the code of this refusal: the wiretap answers every start with one, the emulator the rest.
    const refusal = { code: 19143, msg: "Environment is locked", data: null, requestId: "0".repeat(32) };
    const tap = await startWiretap(emulator().localUrl, () => true, { answer: (path) => (path === "/api/env/start" ? { status: 200, body: refusal } : undefined) });
    const start = (id: string) => run(emulator(), { type: "morelogin-start-profile", envId: id, envIdType: "str" }, { payload: "" }, { config: { localUrl: tap.url } });
    try {
      assert.ok(emulator().happen.profileLocks(envId));
      const locked = failed(await start(envId));
      assert.equal(
        locked.text,
        "start profile failed: Environment is locked (code 19143). MoreLogin reports this profile locked (its security lock is on): unlock it in MoreLogin, then start it again",
      );
      assert.deepEqual([locked.error.kind, locked.error.code, locked.error.msg], ["api", 19143, "Environment is locked"]);
      assert.deepEqual(
        tap.requests.map((request) => [request.path, request.body]),
        [
          ["/api/env/start", { envId }],
          ["/api/env/lock/query", { envId }],
        ],
      );
      await helper.unload();
      tap.clear();
      emulator().happen.profileUnlocks(envId);
      assert.equal(failed(await start(envId)).text, "start profile failed: Environment is locked (code 19143)", "not locked: the refusal as MoreLogin gave it");
    } finally {
      emulator().happen.profileUnlocks(envId);
      await tap.close();
    }
    await helper.unload();
    emulator().resetStats();
    // A refusal whose published meaning is no lock (101, no such profile) asks nothing more.
    const unknown = await sendTo(emulator(), { type: "morelogin-start-profile", envId: "1000000000000000009", envIdType: "str" }, { payload: "" });
    assert.match(String((unknown.caught[0]?.error as { message?: string } | undefined)?.message), /^start profile failed: Profile not found \(code 101\)$/);
    assert.deepEqual(requestsAt(emulator(), "/api/env/lock/query"), []);
  });

  it("closes the profile given in msg.payload", async () => {
    await send({ type: "morelogin-start-profile", envId: profileId(4), envIdType: "str" }, { payload: "" });
    await helper.unload();
    const msg = await send({ type: "morelogin-close-profile", envId: "", envIdType: "str" }, { payload: profileId(4) });
    assert.deepEqual(msg.payload, { envId: profileId(4), debugPort: "" });
    assert.equal(
      emulator()
        .running()
        .some((profile) => profile.envId === profileId(4)),
      false,
    );
  });

  it("chains list profiles (split) into start and close", async () => {
    const flow = flowWith(emulator(), { type: "morelogin-list-profiles", all: true, output: "split", wires: [["start1"]] });
    flow.push(
      { id: "start1", z: "tab1", type: "morelogin-start-profile", server: "config1", envId: "", envIdType: "str", wires: [["close1"]] },
      { id: "close1", z: "tab1", type: "morelogin-close-profile", server: "config1", envId: "", envIdType: "str", wires: [["closed"]] },
      { id: "closed", z: "tab1", type: "helper" },
    );
    await loadFlow(flow, credentialsFor(emulator()));
    const closed = new Collector("closed");
    helper.getNode("n1").receive({ payload: "" } as NodeMessage);
    const messages = (await closed.next(5)) as Msg[];
    assert.deepEqual(
      messages.map((msg) => (msg.payload as { envId: string }).envId).sort(),
      emulator()
        .data.profiles.map((profile) => profile.id)
        .sort(),
    );
    assert.equal(emulator().stats.requests["local POST /api/env/start"], 5);
    assert.equal(emulator().stats.requests["local POST /api/env/close"], 5);
    assert.deepEqual(emulator().running(), []);
  });
});
