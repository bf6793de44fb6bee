import assert from "node:assert/strict";
import type { NodeMessage } from "node-red";
import type { EmulatedProxy } from "../../src/emulator";
import { useChromiumProfiles } from "../support/browser-suite";
import { tabsOf } from "../support/chromium";
import { call, dataOf } from "../support/http";
import { Collector, catchNode, configNode, credentialsFor, functionNode, helper, NODE_MODULES, TAB, CONFIG_ID, type FlowNode, type Msg } from "../support/node-red";
import { infoOf, NO_PACING } from "../support/outcome";
import { waitUntil, OUTCOME_MS } from "../support/wait-until";
import { emulatedProxy } from "../support/emulated-proxy";

/**
 * The browser node's identity action (issue 52) in a real Node-RED, on the emulator's Chromium: each
 * profile's browser runs through its proxy (a real loopback proxy with a simulated exit) with the
 * profile's time zone and language, as MoreLogin's kernel does; the echo route says where it was seen.
 */
const BERLIN_ID = "1900000000030000004"; // env/base/list's time zone catalogue: Europe/Berlin

interface Identity {
  ok: boolean;
  exitIp: string;
  country: string;
  timezone: string;
  browserTimezone: string;
  languages: string[];
  webdriver: boolean;
  mismatches: Array<{ what: string; expected: string; seen: string }>;
}

describe("nodes: browser identity, behind the emulator's proxies", function () {
  this.timeout(OUTCOME_MS * 2);
  const emulator = useChromiumProfiles(4);

  const proxyOf = (protocol: EmulatedProxy["protocol"], withCredentials: boolean): EmulatedProxy => emulatedProxy(emulator(), protocol, withCredentials);

  /** The profile as a user sets it in MoreLogin: its proxy, and a time zone of its own or none (from the IP). */
  async function profileBehind(index: number, proxy: EmulatedProxy, advancedSetting: Record<string, unknown> = {}): Promise<string> {
    const envId = emulator().data.profiles[index]?.id;
    assert.ok(envId);
    dataOf(await call(emulator().localUrl, "/api/env/update", { body: { envId, proxyId: proxy.id, advancedSetting } }));
    return envId;
  }

  afterEach(async () => {
    for (const profile of emulator().running()) await call(emulator().localUrl, "/api/env/close", { body: { envId: profile.envId } });
    for (const proxy of emulator().emulatedProxies()) await emulator().setProxyCondition(proxy.id, {});
  });

  /** inject-like input → a function node (the user's code) → start profile → browser identity → out. */
  async function deploy(code: string, identity: Record<string, unknown>): Promise<{ out: Collector; caught: Collector }> {
    const flow: FlowNode[] = [
      { id: TAB, type: "tab", label: "identity" },
      configNode(emulator(), NO_PACING),
      { id: "user", type: "function", z: TAB, func: code, outputs: 1, wires: [["start"]] },
      { id: "start", type: "morelogin-start-profile", z: TAB, server: CONFIG_ID, envId: "envId", envIdType: "msg", wires: [["check"]] },
      { id: "check", type: "morelogin-browser", z: TAB, action: "identity", echoUrl: emulator().echoUrl, echoUrlType: "str", ...identity, wires: [["out"]] },
      { id: "out", type: "helper", z: TAB },
      { id: "catch1", type: "catch", z: TAB, scope: null, uncaught: false, wires: [["caught"]] },
      { id: "caught", type: "helper", z: TAB },
    ];
    await helper.unload();
    await helper.load([...NODE_MODULES, catchNode, functionNode] as never, flow as never, credentialsFor(emulator()) as never);
    return { out: new Collector("out"), caught: new Collector("caught") };
  }

  async function checked(nodes: { out: Collector; caught: Collector }, msg: Record<string, unknown>): Promise<Msg & { payload: Identity }> {
    const before = nodes.out.messages.length;
    helper.getNode("user").receive(msg as NodeMessage);
    await waitUntil(() => nodes.out.messages.length > before || nodes.caught.messages.length > 0, "the identity came out");
    assert.deepEqual(
      nodes.caught.messages.map((caught) => (caught as { error?: { message?: string } }).error?.message),
      [],
      "no node failed",
    );
    return nodes.out.messages[before] as Msg & { payload: Identity };
  }

  it("a Berlin profile behind a US exit gets a timezone mismatch; with the exit moved to Germany it passes; the message keeps its tab", async () => {
    const proxy = proxyOf("http", false);
    await emulator().setProxyCondition(proxy.id, { exit: { ip: "198.51.100.50", country: "US", timezone: "America/New_York" } });
    const envId = await profileBehind(0, proxy, { time_zone: { switcher: 2, value: BERLIN_ID } });
    const nodes = await deploy(`msg.envId = ${JSON.stringify(envId)}; return msg;`, {});

    const first = await checked(nodes, { payload: "go" });
    assert.equal(first.payload.ok, false);
    assert.deepEqual(first.payload.mismatches, [{ what: "timezone", expected: "America/New_York", seen: "Europe/Berlin" }]);
    assert.equal(first.payload.exitIp, "198.51.100.50", "seen through the profile's proxy, not from 127.0.0.1");
    assert.equal(first.payload.country, "US");
    assert.equal(first.payload.browserTimezone, "Europe/Berlin");
    assert.equal(first.payload.webdriver, false);

    const port = infoOf(first).profile?.debugPort;
    assert.ok(port);
    const tabsBefore = (await tabsOf(port)).length;
    await emulator().setProxyCondition(proxy.id, { exit: { ip: "198.51.100.51", country: "DE", timezone: "Europe/Berlin" } });
    const second = await checked(nodes, { payload: "again" });
    assert.equal(second.payload.ok, true, JSON.stringify(second.payload.mismatches));
    assert.deepEqual(second.payload.mismatches, []);
    assert.equal(second.payload.exitIp, "198.51.100.51");
    assert.equal((await tabsOf(port)).length, tabsBefore, "the echo's tab was closed again");
  });

  it("behind a SOCKS5 proxy with credentials, time zone and language follow the exit; the country the flow expects (from msg) is checked", async () => {
    const proxy = proxyOf("socks5", true);
    const envId = await profileBehind(1, proxy);
    const exit = proxy.exit;
    const nodes = await deploy(`msg.envId = ${JSON.stringify(envId)}; msg.plan = { country: msg.payload }; return msg;`, {
      expectCountry: "plan.country",
      expectCountryType: "msg",
      rules: "timezone, language, country, webrtc, webdriver, platform",
      rulesType: "str",
    });

    const matching = await checked(nodes, { payload: exit.country });
    assert.equal(matching.payload.exitIp, exit.ip);
    assert.equal(matching.payload.browserTimezone, exit.timezone, "the time zone follows the IP");
    assert.match(matching.payload.languages[0] ?? "", new RegExp(`-${exit.country}$`), "the language follows the IP");
    assert.deepEqual(matching.payload.mismatches, []);

    const elsewhere = exit.country === "JP" ? "FR" : "JP";
    const planned = await checked(nodes, { payload: elsewhere });
    assert.deepEqual(planned.payload.mismatches, [{ what: "country", expected: elsewhere, seen: exit.country }]);
    assert.equal(planned.payload.ok, false);
  });
});
