import assert from "node:assert/strict";
import type { Node } from "node-red";
import type { Emulator } from "../../src/emulator";
import { CONFIG_ID, Collector, configNode, credentialsFor, flowWith, helper, loadFlow, useNodeRed, type Msg } from "../support/node-red";
import { useEmulator } from "../support/emulator";

const WRONG_KEY = "wrong-server-key-7731";
const LOGIN = "local POST /api/user/login";
const PAGE = "local POST /api/env/page";
const LIST = { type: "morelogin-list-profiles", pageNo: "1", pageNoType: "num", pageSize: "5", pageSizeType: "num", output: "array" };

const logins = (emulator: Emulator): number => emulator.stats.requests[LOGIN] ?? 0;

/** Loads the list node on a config node with the server login, and collects what comes out and what is caught. */
async function deploy(emulator: Emulator, credentials: Record<string, string> = {}): Promise<{ out: Collector; caught: Collector; send: (count: number) => void }> {
  await loadFlow(flowWith(emulator, LIST, { localLogin: true }), credentialsFor(emulator, credentials));
  const node = helper.getNode("n1");
  return {
    out: new Collector("out"),
    caught: new Collector("caught"),
    send: (count) => {
      for (let i = 0; i < count; i++) node.receive({ payload: i } as never);
    },
  };
}

describe("nodes: MoreLogin's server edition (localLogin) against the emulator's --login mode", () => {
  const { emulator } = useEmulator({ login: true, profiles: 12 });
  useNodeRed(emulator, (e) => e.forgetLogin());

  it("logs in once for ten calls one after another, and once again, then answers, when the server forgot the login", async () => {
    const { out, caught, send } = await deploy(emulator());
    for (let i = 1; i <= 10; i++) {
      send(1);
      await out.next(i);
    }
    assert.equal(logins(emulator()), 1);
    assert.equal(emulator().stats.requests[PAGE], 10, "no call was refused, so none was sent twice");

    emulator().forgetLogin();
    send(1);
    const messages = await out.next(11);
    assert.equal((messages[10]?.payload as { total?: string } | undefined)?.total, "12", "the call answers");
    assert.equal(logins(emulator()), 2, "one new login");
    assert.equal(emulator().stats.requests[PAGE], 12, "the refused call, then the same call again");
    assert.equal(caught.messages.length, 0);
    const order = emulator()
      .requestLog.slice(-3)
      .map((entry) => entry.path);
    assert.deepEqual(order, ["/api/env/page", "/api/user/login", "/api/env/page"]);
    assert.ok(
      emulator().requestLog.every((entry) => entry.path === "/api/user/login" || entry.headers.authorization === undefined),
      "later calls carry no auth header",
    );
  });

  it("logs in once for ten calls at once from a fresh config node", async () => {
    const { out, caught, send } = await deploy(emulator());
    send(10);
    await out.next(10);
    assert.equal(logins(emulator()), 1);
    assert.equal(emulator().stats.requests[PAGE], 10);
    assert.equal(caught.messages.length, 0);
  });

  it("ends every call with an auth error that names no key when the login is refused, and sends nothing else", async () => {
    const { out, caught, send } = await deploy(emulator(), { apiKey: WRONG_KEY });
    send(3);
    const errors = await caught.next(3);
    assert.equal(out.messages.length, 0);
    for (const msg of errors as Msg[]) {
      const error = msg.error as { message: string };
      assert.equal((msg.morelogin as { error: { kind: string } }).error.kind, "auth");
      assert.match(error.message, /refused the login/);
      assert.doesNotMatch(JSON.stringify(msg), new RegExp(WRONG_KEY));
    }
    assert.ok(logins(emulator()) >= 1);
    assert.deepEqual(
      emulator().requestLog.filter((entry) => entry.path !== "/api/user/login"),
      [],
      "no other call went out",
    );
  });

  it("Test connection logs in and says whether it worked, and warns about clear text only over http:// to another machine", async () => {
    const post = (body: object) => helper.request().post("/morelogin/test").send(body).set("content-type", "application/json");
    await loadFlow(flowWith(emulator(), LIST, { localLogin: true }), credentialsFor(emulator()));
    const good = await post({ id: CONFIG_ID });
    assert.equal(good.status, 200);
    assert.equal(good.body.login.ok, true, JSON.stringify(good.body));
    assert.equal(good.body.local.ok, true, JSON.stringify(good.body));
    assert.equal(logins(emulator()), 1);

    await helper.unload();
    emulator().resetStats();
    await loadFlow(flowWith(emulator(), LIST, { localLogin: true }), credentialsFor(emulator(), { apiKey: WRONG_KEY }));
    const bad = await post({ id: CONFIG_ID });
    assert.equal(bad.body.login.ok, false);
    assert.match(bad.body.login.message, /refused the login/);
    assert.equal(bad.body.local.ok, null);
    assert.doesNotMatch(JSON.stringify(bad.body), new RegExp(WRONG_KEY));
    assert.deepEqual(
      emulator()
        .requestLog.filter((entry) => entry.api === "local")
        .map((entry) => entry.path),
      ["/api/user/login"],
      "the Local API is not called after a refused login",
    );

    // A stored API Key goes to the Local API only when the deployed config node sends it there.
    await helper.unload();
    emulator().resetStats();
    await loadFlow(flowWith(emulator(), LIST), credentialsFor(emulator()));
    const switched = await post({ id: CONFIG_ID, localLogin: true, credentials: { apiId: emulator().credentials.apiId, apiKey: "__PWRD__" } });
    assert.equal(switched.status, 400);
    assert.match(switched.body.error, /sent to the Local API only when the server login was deployed on/);
    assert.deepEqual(emulator().requestLog, []);

    // The warnings are given when the config node starts; nothing is sent to these addresses.
    const warningsFor = async (localUrl: string, localLogin: boolean): Promise<string[]> => {
      await helper.unload();
      await loadFlow([{ id: "tab1", type: "tab" }, configNode(emulator(), { localUrl, localLogin })], credentialsFor(emulator()));
      const config = helper.getNode(CONFIG_ID) as Node & { warn: { args: unknown[][] } };
      return config.warn.args.map((args) => String(args[0]));
    };
    const clear = await warningsFor("http://192.0.2.10:40000", true);
    assert.equal(clear.length, 1, clear.join("\n"));
    assert.match(clear[0] ?? "", /192\.0\.2\.10 over plain http:\/\/, in clear text/);
    assert.deepEqual(await warningsFor("https://192.0.2.10:40443", true), []);
    const remote = await warningsFor("http://192.0.2.10:40000", false);
    assert.match(remote.join("\n"), /does not point at this machine/);
  });
});
