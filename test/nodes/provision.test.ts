import assert from "node:assert/strict";
import type { NodeMessage } from "node-red";
import type { Profile } from "../../src/emulator";
import { useEmulator } from "../support/emulator";
import { call, dataOf, type PageShape } from "../support/http";
import {
  CONFIG_ID,
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
  statusCalls,
  useNodeRed,
  type FlowNode,
  type Msg,
  type Outcome,
} from "../support/node-red";
import { NO_PACING, failed, onlyBodyAt, refused, requestsAt, run, succeeded } from "../support/outcome";
import { SecretScanner } from "../support/secrets";
import { waitUntil } from "../support/wait-until";

const PROFILE = "morelogin-profile";
const PASSWORD = "Acc0unt-pa55word";
const OTP = "JBSWY3DPEHPK3PXPQZ7A";

/** The node's settings as a user types them in the dialog (a fixed JSON value). */
const SETTINGS = {
  browserTypeId: 1,
  operatorSystemId: 2,
  envRemark: "from the node",
  uaVersion: 141,
  startupParams: ["--lang=de-DE"],
  disableVideo: 1,
  imgLimitSize: 200,
  afterStartupConfig: { afterStartup: 2, autoOpenUrls: ["https://example.com/start"] },
  advancedSetting: { hardware_concurrency: 8, web_rtc: { switcher: 4 }, canvas: { switcher: 1 } },
  accountInfo: { platformId: "9999", customerUrl: "https://shop.example" },
};

/** The function node's code: builds the payload a CSV row would give. */
const FUNCTION_CODE = `msg.payload = {
  envName: "Shop " + msg.row,
  tagIds: [msg.tagId],
  proxyId: msg.proxyId,
  accountInfo: { username: "buyer" + msg.row },
  advancedSetting: { time_zone: { switcher: 2, value: msg.zone }, canvas: { switcher: 2 } },
  cookies: [{ name: "sid", value: "row" + msg.row, domain: ".example.com", path: "/", expires: 1900000000, secure: true, httpOnly: true, sameSite: "Lax" }]
};
return msg;`;

/** The cookies every format below describes: session cookies of example.com, as a header can give them. */
const COOKIE_FORMATS: Record<string, { cookies: unknown; cookieDomain?: string }> = {
  array: {
    cookies: [
      { name: "a", value: "1", domain: "example.com", path: "/" },
      { name: "b", value: "two", domain: "example.com", path: "/" },
    ],
  },
  json: { cookies: '[{"name":"a","value":"1","domain":"example.com","path":"/"},{"name":"b","value":"two","domain":"example.com","path":"/"}]' },
  netscape: { cookies: "# Netscape HTTP Cookie File\nexample.com\tFALSE\t/\tFALSE\t0\ta\t1\nexample.com\tFALSE\t/\tFALSE\t0\tb\ttwo\n" },
  header: { cookies: "a=1; b=two", cookieDomain: "example.com" },
};

describe("nodes: provisioning profiles (createAdvanced, exactly once by name, secrets, catalogue)", () => {
  const { emulator } = useEmulator({ profiles: 3, proxies: 3, groups: 2, tags: 3 });
  const local = async <T>(path: string, body: unknown): Promise<T> => dataOf<T>(await call(emulator().localUrl, path, { body }));
  const detail = (envId: string): Promise<Record<string, unknown>> => local("/api/env/detail", { envId });
  const named = async (envName: string): Promise<Profile[]> =>
    (await local<PageShape<Profile>>("/api/env/page", { pageNo: 1, pageSize: 100, envName })).dataList.filter((profile) => profile.envName === envName);
  const createNode = (extra: Record<string, unknown> = {}) => ({ type: PROFILE, action: "createAdvanced", settings: JSON.stringify(SETTINGS), settingsType: "json", ...extra });
  const withSecrets = { n1: { accountPassword: PASSWORD, otpSecret: OTP } };
  /** One message through a freshly loaded flow: a test here sends several. */
  const runFresh: typeof run = async (...args) => {
    await helper.unload();
    return run(...args);
  };
  useNodeRed(emulator);

  it("a function node's payload laid deeply over the node's settings creates one profile whose detail holds every field sent", async () => {
    const [tag] = emulator().data.tags;
    const proxy = emulator().data.proxies[1];
    assert.ok(tag && proxy);
    const flow: FlowNode[] = [
      { id: TAB, type: "tab", label: "test" },
      configNode(emulator(), NO_PACING),
      { id: "fn1", type: "function", z: TAB, func: FUNCTION_CODE, outputs: 1, wires: [["n1"]] },
      { id: "n1", z: TAB, server: CONFIG_ID, wires: [["out"]], ...createNode() },
      { id: "out", z: TAB, type: "helper" },
      { id: "catch1", z: TAB, type: "catch", scope: null, uncaught: false, wires: [["caught"]] },
      { id: "caught", z: TAB, type: "helper" },
    ];
    await helper.load([...NODE_MODULES, catchNode, completeNode, functionNode] as never, flow as never, { ...credentialsFor(emulator()), ...withSecrets } as never);
    const out = new Collector("out");
    const caught = new Collector("caught");
    helper.getNode("fn1").receive({ row: 7, tagId: tag.id, proxyId: proxy.id, zone: "1900000000030000002" } as NodeMessage);
    await waitUntil(() => out.messages.length + caught.messages.length > 0, "the create's outcome");
    assert.deepEqual(caught.messages, []);
    const msg = out.messages[0] as Msg;
    const envId = String(msg.payload);
    assert.match(envId, /^\d{19}$/);
    assert.equal(msg.topic, envId);
    assert.equal((msg.morelogin as { existed?: boolean }).existed, false);

    const sent = onlyBodyAt(emulator(), "/api/env/create/advanced") as Record<string, unknown>;
    assert.deepEqual(sent.advancedSetting, { hardware_concurrency: 8, web_rtc: { switcher: 4 }, canvas: { switcher: 2 }, time_zone: { switcher: 2, value: "1900000000030000002" } });
    assert.deepEqual(sent.accountInfo, { platformId: "9999", customerUrl: "https://shop.example", password: PASSWORD, otpSecret: OTP, username: "buyer7" });
    assert.equal(typeof sent.cookies, "string", "cookies go as MoreLogin's cookies string");

    const shown = await detail(envId);
    // detail shows every field sent; accountInfo and afterStartupConfig with the fields a profile always has beside them.
    const withDefaults: Record<string, object> = { afterStartupConfig: { platformUrl: null }, accountInfo: { siteId: "0" } };
    for (const [name, value] of Object.entries(sent)) assert.deepEqual(shown[name], name in withDefaults ? { ...withDefaults[name], ...(value as object) } : value, `detail's ${name}`);
    assert.deepEqual(JSON.parse(String(shown.cookies)), [
      { name: "sid", value: "row7", domain: ".example.com", hostOnly: false, path: "/", secure: true, httpOnly: true, sameSite: "lax", session: false, expirationDate: 1900000000 },
    ]);
  });

  it("each cookie format gives the same cookies string; a header needs its domain", async () => {
    const strings: Record<string, string> = {};
    for (const [format, input] of Object.entries(COOKIE_FORMATS)) {
      const msg = succeeded(await runFresh(emulator(), createNode(), { payload: { envName: `Cookies ${format}`, ...input } }));
      strings[format] = String((await detail(String(msg.payload))).cookies);
      assert.equal((onlyBodyAt(emulator(), "/api/env/create/advanced") as Record<string, unknown>).cookieDomain, undefined, "cookieDomain is ours, not sent");
      emulator().resetStats();
    }
    const expected = [
      { name: "a", value: "1", domain: "example.com", hostOnly: true, path: "/", secure: false, httpOnly: false, sameSite: "unspecified", session: true },
      { name: "b", value: "two", domain: "example.com", hostOnly: true, path: "/", secure: false, httpOnly: false, sameSite: "unspecified", session: true },
    ];
    for (const [format, text] of Object.entries(strings)) assert.deepEqual(JSON.parse(text), expected, format);
    refused(await runFresh(emulator(), createNode(), { payload: { envName: "Cookies headless", cookies: "a=1" } }), /set the node's Cookie domain/);
  });

  it("a malformed cookie line names its line number and nothing is created", async () => {
    const cookies = "# Netscape HTTP Cookie File\nexample.com\tFALSE\t/\tFALSE\t0\ta\t1\nexample.com\tFALSE\t/\tMAYBE\t0\tb\t2\n";
    refused(
      await runFresh(emulator(), createNode(), { payload: { envName: "Bad cookies", cookies } }),
      /line 3 of cookies \(a Netscape cookie file\): its fourth field \(secure\) must be TRUE or FALSE/,
    );
    assert.equal(requestsAt(emulator(), "/api/env/create/advanced").length, 0, "nothing was sent");
    assert.deepEqual(await named("Bad cookies"), []);
  });

  it("a second create with the same envName answers the first profile with msg.morelogin.existed true; one profile has that name", async () => {
    const first = succeeded(await runFresh(emulator(), createNode({ envName: "Exactly once", envNameType: "str" }), { payload: "" }));
    const second = succeeded(await runFresh(emulator(), createNode({ envName: "Exactly once", envNameType: "str" }), { payload: { envRemark: "again" } }));
    assert.equal(second.payload, first.payload);
    assert.equal(second.topic, first.payload);
    assert.equal((second.morelogin as { existed?: boolean }).existed, true);
    assert.equal((first.morelogin as { existed?: boolean }).existed, false);
    assert.equal(requestsAt(emulator(), "/api/env/create/advanced").length, 2, "the second create was sent, and refused");
    assert.deepEqual(
      (await named("Exactly once")).map((profile) => profile.id),
      [first.payload],
    );
    assert.equal((await detail(String(first.payload))).envRemark, "from the node", "the first profile is as it was");
  });

  it("without a name, a refusal stays an error; a create refused for another reason while the name is free too", async () => {
    const { error } = failed(await runFresh(emulator(), createNode(), { payload: { proxyId: "1234567890123456789" } }));
    assert.equal(error.code, 14024);
    const named404 = failed(await runFresh(emulator(), createNode(), { payload: { envName: "Never made", proxyId: "1234567890123456789" } }));
    assert.equal(named404.error.code, 14024);
    assert.deepEqual(await named("Never made"), []);
  });

  it("the account password and OTP secret reach MoreLogin, never the log, the status, an error or the saved flow", async () => {
    const scanner = new SecretScanner([PASSWORD, OTP, "m5g-pa55word", "MSGOTPSECRET77"]);
    emulator().script({ kind: "echo", api: "local", path: "/api/env/create/advanced", times: 2 });
    const check = (outcome: Outcome): void => {
      const { text, error } = failed(outcome);
      assert.match(text, /echo of POST/, "the fault echoed the request, secrets and all");
      assert.match(text, /"password":"\*\*\*","otpSecret":"\*\*\*"/, "masked where they were");
      scanner.scan(text);
      scanner.scan(error);
      scanner.scan(statusCalls(outcome.node));
      scanner.scan((helper.log() as unknown as { args: unknown[][] }).args);
      assert.ok(!("accountPassword" in outcome.node) && !("otpSecret" in outcome.node), "the secrets are credentials, no node properties");
    };
    const fromCredentials = await helperRun(withSecrets, {});
    check(fromCredentials);
    // The secrets in the node's credentials: the message never held them, so nothing the runtime saw does.
    scanner.scanRuntime(fromCredentials.node);
    // The secrets in msg.payload: the message that reaches the Catch node is the flow's own, still holding them.
    check(await helperRun({}, { accountInfo: { password: "m5g-pa55word", otpSecret: "MSGOTPSECRET77" } }));
    const red = (helper as unknown as { _RED: { nodes: { getFlows(): unknown } } })._RED;
    scanner.scan(red.nodes.getFlows());
    assert.deepEqual(scanner.findings, []);
    assert.ok(scanner.scanned > 5);

    refused(await runFresh(emulator(), createNode({ settings: JSON.stringify({ ...SETTINGS, accountInfo: { password: PASSWORD } }) }), { payload: "" }), /would be saved in flows.json/);

    async function helperRun(credentials: Record<string, Record<string, string>>, payload: Record<string, unknown>) {
      await helper.unload();
      return sendAndCollect(flowWith(emulator(), createNode(), NO_PACING), { payload }, { ...credentialsFor(emulator()), ...credentials });
    }
  });

  it("catalogue gives the lists a CSV row may name: kernels, each OS's time zones, languages and resolutions, platforms, mobile devices, groups, tags, proxies", async () => {
    const msg = succeeded(await runFresh(emulator(), { type: PROFILE, action: "catalogue" }, { payload: 1_700_000_000_000 }));
    const lists = msg.payload as Record<string, unknown> & { os: Record<string, { os: number; timeZones: unknown[]; languages: unknown[]; resolutions: Array<{ id: string; value: string }> }> };
    assert.deepEqual(Object.keys(lists), ["kernels", "os", "platforms", "mobileDevices", "groups", "tags", "proxies"]);
    assert.deepEqual(lists.kernels, dataOf(await call(emulator().localUrl, "/api/env/advanced/ua/versions", { method: "GET" })));
    assert.deepEqual(Object.keys(lists.os), ["windows", "macos", "android", "ios"]);
    assert.deepEqual(
      Object.values(lists.os).map((entry) => entry.os),
      [1, 2, 3, 4],
    );
    assert.deepEqual(lists.os.macos?.resolutions, await local("/api/env/base/resolution/list", { os: 2 }));
    assert.ok((lists.os.android?.timeZones.length ?? 0) > 0 && (lists.os.android?.languages.length ?? 0) > 0);
    assert.deepEqual(lists.mobileDevices, await local("/api/env/base/mobile/devices", {}));
    assert.ok(Array.isArray(lists.platforms) && (lists.platforms as Array<{ sites: unknown[] }>).every((platform) => Array.isArray(platform.sites)));
    assert.equal((lists.groups as unknown[]).length, emulator().data.groups.length);
    assert.equal((lists.tags as unknown[]).length, emulator().data.tags.length);
    assert.equal((lists.proxies as unknown[]).length, emulator().data.proxies.length);
    assert.ok(
      (lists.proxies as Array<Record<string, unknown>>).every((proxy) => !("password" in proxy)),
      "no proxy password",
    );

    const narrowed = succeeded(await runFresh(emulator(), { type: PROFILE, action: "catalogue" }, { payload: { os: [3], ua: "Mozilla/5.0 (Linux; Android 14)" } }));
    assert.deepEqual(Object.keys((narrowed.payload as { os: object }).os), ["android"]);
    assert.deepEqual(requestsAt(emulator(), "/api/env/base/resolution/list").at(-1)?.body, { os: 3, ua: "Mozilla/5.0 (Linux; Android 14)" });
    refused(await runFresh(emulator(), { type: PROFILE, action: "catalogue" }, { payload: { os: 9 } }), /os must be 1 \(Windows\)/);
  });
});
