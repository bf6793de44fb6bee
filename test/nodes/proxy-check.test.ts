import assert from "node:assert/strict";
import type { NodeMessage } from "node-red";
import type { EmulatedProxy, ProxyInfo } from "../../src/emulator";
import { useEmulator } from "../support/emulator";
import {
  CONFIG_ID,
  Collector,
  TAB,
  catchNode,
  completeNode,
  credentialsFor,
  drainDeliveries,
  flowWith,
  functionNode,
  helper,
  injectNode,
  NODE_MODULES,
  ownStatusCalls,
  useNodeRed,
  type FlowNode,
  type Msg,
  type Outcome,
} from "../support/node-red";
import { NO_PACING, refused, succeeded } from "../support/outcome";
import { scaled } from "../../tools/test-limits";
import { OUTCOME_MS, waitUntil } from "../support/wait-until";

const PROXY = "morelogin-proxy";
/** Each proxy's timeout in these tests: every outcome here comes well within it. */
const TIMEOUT_S = 8;
const WRONG_PASSWORD = "Wrong-Proxy-Pw-42";

type Source = { type: string } & Record<string, unknown>;

/** A function node that sets msg.payload as a user's code does. */
const fromFunction = (payload: unknown): Source => ({
  type: "function",
  name: "proxies",
  func: `msg.payload = ${JSON.stringify(payload)};\nreturn msg;`,
  outputs: 1,
  noerr: 0,
  initialize: "",
  finalize: "",
  libs: [],
});
/** An inject node as dropped into a flow: its payload the timestamp. */
const INJECT: Source = { type: "inject", props: [{ p: "payload" }], payload: "", payloadType: "date", repeat: "", crontab: "", once: false, topic: "" };
const LIST_PROXIES: Source = { type: "morelogin-list-proxies", server: CONFIG_ID, all: true };

/** The proxy node's action check against the emulator's real loopback proxies, in a real Node-RED. */
describe("nodes: proxy check (through the emulator's proxies)", () => {
  const { emulator } = useEmulator({ profiles: 1, cloudPhones: 0, proxies: 8 });
  useNodeRed(emulator);
  afterEach(async () => {
    for (const proxy of emulator().emulatedProxies()) await emulator().setProxyCondition(proxy.id, {});
  });

  const named = (name: string): EmulatedProxy => {
    const found = emulator()
      .emulatedProxies()
      .find((proxy) => proxy.proxyName === name);
    assert.ok(found, name);
    return found;
  };
  const rowOf = (id: string): ProxyInfo => {
    const row = emulator().data.proxies.find((candidate) => candidate.id === id);
    assert.ok(row);
    return row;
  };
  const passwordOf = (proxy: EmulatedProxy): string => {
    assert.ok(proxy.credentials, `${proxy.proxyName} asks for credentials`);
    return proxy.credentials.password;
  };

  /** Loads the proxy node (its password credential given) fed by `source`, triggers the source and waits for the node's one outcome. */
  async function check(node: Record<string, unknown>, source: Source, password: string): Promise<Outcome> {
    const flow: FlowNode[] = [
      ...flowWith(emulator(), { type: PROXY, action: "check", echoUrl: emulator().echoUrl, echoUrlType: "str", timeout: String(TIMEOUT_S), timeoutType: "num", ...node }, NO_PACING),
      { ...source, id: "src", z: TAB, wires: [["n1"]] },
    ];
    await helper.unload();
    await helper.load([...NODE_MODULES, catchNode, completeNode, functionNode, injectNode] as never, flow as never, { ...credentialsFor(emulator()), n1: { password } } as never);
    const collectors = ["out", "caught", "completed"].map((id) => new Collector(id));
    const [out, caught, completed] = collectors.map((collector) => collector.messages as Msg[]) as [Msg[], Msg[], Msg[]];
    helper.getNode("src").receive({} as NodeMessage);
    await waitUntil(() => caught.length + completed.length > 0, "the check's outcome (done or done(err))");
    await drainDeliveries();
    return { out, caught, completed, received: { out, caught, completed }, node: helper.getNode("n1") };
  }
  const lastStatus = (outcome: Outcome) => ownStatusCalls(outcome.node).at(-1);
  const alive = (proxy: EmulatedProxy) => ({ id: proxy.id, proxyName: proxy.proxyName, ok: true, exitIp: proxy.exit.ip, country: proxy.exit.country, timezone: proxy.exit.timezone, error: null });
  const dead = (id: string, proxyName: string, error: string) => ({ id, proxyName, ok: false, latencyMs: null, exitIp: null, country: null, timezone: null, error });
  /** The outcome without its latency, which must be a number of milliseconds when the proxy answered. */
  const withoutLatency = (outcome: unknown): unknown => {
    const { latencyMs, ...rest } = outcome as { latencyMs: unknown };
    if (rest && (rest as { ok?: boolean }).ok) {
      assert.ok(typeof latencyMs === "number" && latencyMs >= 0, `latencyMs ${String(latencyMs)}`);
      return rest;
    }
    return outcome;
  };
  const assertNoSecret = (outcome: Outcome, secret: string): void => {
    for (const shown of [JSON.stringify(outcome.out), JSON.stringify(outcome.caught), JSON.stringify(ownStatusCalls(outcome.node))]) assert.ok(!shown.includes(secret), shown);
  };

  it("a good HTTP proxy, the node's own (an inject's timestamp): its row read by ID, the node's password, its exit; status 1 of 1 alive, green", async () => {
    const proxy = named("Proxy 004");
    const outcome = await check({ proxyId: proxy.id, proxyIdType: "str" }, INJECT, passwordOf(proxy));
    const msg = succeeded(outcome);
    assert.deepEqual(withoutLatency(msg.payload), alive(proxy));
    assert.equal(msg.topic, proxy.id);
    assert.equal((msg.morelogin as { path?: string }).path, "/api/proxyInfo/page");
    assert.deepEqual(lastStatus(outcome), { fill: "green", shape: "dot", text: "1 of 1 alive" });
    assertNoSecret(outcome, passwordOf(proxy));
  });

  it("a dead proxy (given as proxyInfo/add's fields) is ok: false with the reason, not an error; status red", async () => {
    const proxy = named("Proxy 001");
    await emulator().setProxyCondition(proxy.id, { dead: true });
    const row = rowOf(proxy.id);
    const outcome = await check({}, fromFunction({ proxyIp: row.proxyIp, proxyPort: row.proxyPort, proxyProvider: 0 }), "");
    assert.deepEqual(succeeded(outcome).payload, { ok: false, latencyMs: null, exitIp: null, country: null, timezone: null, error: "the proxy refused the connection" });
    assert.deepEqual(lastStatus(outcome), { fill: "red", shape: "dot", text: "0 of 1 alive" });
  });

  it("a slow proxy gives up at the node's Timeout, each proxy's own, long before the proxy would answer", async () => {
    const proxy = named("Proxy 003");
    await emulator().setProxyCondition(proxy.id, { delayMs: scaled(2 * OUTCOME_MS) });
    const outcome = await check({ timeout: "1", timeoutType: "num" }, fromFunction([proxy.id]), "");
    assert.deepEqual(succeeded(outcome).payload, [dead(proxy.id, proxy.proxyName, "timed out after 1000 ms")]);
  });

  it("wrong credentials (the node's password) say authentication failed, without the password anywhere", async () => {
    const proxy = named("Proxy 006");
    const outcome = await check({}, fromFunction(proxy.id), WRONG_PASSWORD);
    assert.deepEqual(succeeded(outcome).payload, dead(proxy.id, proxy.proxyName, "authentication failed (HTTP 407)"));
    assertNoSecret(outcome, WRONG_PASSWORD);
  });

  it("a SOCKS5 proxy with credentials in msg.payload: its exit; the password nowhere in what comes out", async () => {
    const proxy = named("Proxy 002");
    const row = rowOf(proxy.id);
    const given = { proxyIp: row.proxyIp, proxyPort: String(row.proxyPort), proxyProvider: 2, username: row.username, password: passwordOf(proxy) };
    const outcome = await check({}, fromFunction(given), WRONG_PASSWORD);
    const { id: _id, proxyName: _name, ...exit } = alive(proxy);
    assert.deepEqual(withoutLatency(succeeded(outcome).payload), exit);
    assertNoSecret(outcome, passwordOf(proxy));
  });

  it("Echo fields read an echo reply whose fields have other names (here the emulator's, swapped on purpose)", async () => {
    const proxy = named("Proxy 003");
    const echoFields = { ip: "ip", country: "timezone", timezone: "country" };
    const outcome = await check({ echoFields: JSON.stringify(echoFields), echoFieldsType: "json" }, fromFunction(proxy.id), "");
    assert.deepEqual(withoutLatency(succeeded(outcome).payload), { ...alive(proxy), country: proxy.exit.timezone, timezone: proxy.exit.country });
  });

  it("the rows from list proxies, 2 at a time: an outcome for each in their order, the slow ones waited for in turn; status yellow", async () => {
    const delayMs = 400;
    for (const proxy of emulator().emulatedProxies()) await emulator().setProxyCondition(proxy.id, { delayMs });
    const password = passwordOf(named("Proxy 004"));
    const started = performance.now();
    const outcome = await check({ concurrency: "2", concurrencyType: "num" }, LIST_PROXIES, password);
    const took = performance.now() - started;
    const byName = (name: string) => rowOf(named(name).id);
    const expected = [
      alive(named("Proxy 001")),
      dead(byName("Proxy 002").id, "Proxy 002", "authentication failed (SOCKS5)"),
      alive(named("Proxy 003")),
      alive(named("Proxy 004")),
      alive(named("Proxy 005")),
      dead(byName("Proxy 006").id, "Proxy 006", "authentication failed (HTTP 407)"),
    ];
    const ssh = emulator().data.proxies.find((row) => row.proxyName === "Proxy 007");
    const noAddress = emulator().data.proxies.find((row) => row.proxyName === "Proxy 008");
    assert.ok(ssh && noAddress);
    expected.push(dead(ssh.id, "Proxy 007", "this proxy's protocol (SSH) cannot be checked: HTTP, HTTPS and SOCKS5 can"));
    expected.push(dead(noAddress.id, "Proxy 008", "the proxy has no address (proxyIp)"));
    const payload = succeeded(outcome).payload as unknown[];
    assert.ok(Array.isArray(payload));
    assert.deepEqual(payload.map(withoutLatency), expected);
    // Six proxies answer only after delayMs each: two at a time that is three rounds, never fewer.
    assert.ok(took >= 3 * delayMs - 50, `the six slow proxies took ${Math.round(took)} ms at 2 at a time`);
    assert.deepEqual(lastStatus(outcome), { fill: "yellow", shape: "dot", text: "4 of 8 alive" });
    assertNoSecret(outcome, password);
  });

  it("a payload that names no proxy, or a bad item, is an error of the message with a clear text", async () => {
    refused(await check({}, fromFunction({ hello: "world" }), ""), /^proxy failed: no proxy to check: set Proxy in the node/);
    refused(await check({}, fromFunction("not a proxy"), ""), /^proxy failed: msg\.payload must be a decimal ID/);
    refused(await check({}, fromFunction([named("Proxy 001").id, true]), ""), /^proxy failed: msg\.payload\[1\] is neither a proxy \(an object with proxyIp\) nor a proxy ID$/);
    refused(await check({ echoFields: '{"address": "data.ip"}', echoFieldsType: "json" }, fromFunction(named("Proxy 001").id), ""), /^proxy failed: Echo fields must be an object of dotted paths/);
    refused(await check({ echoUrl: "ftp://echo.example/?token=abc", echoUrlType: "str" }, fromFunction(named("Proxy 001").id), ""), /^proxy failed: IP echo must be an http:\/\/ or https:\/\/ URL$/);
  });
});
