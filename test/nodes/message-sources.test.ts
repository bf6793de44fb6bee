import assert from "node:assert/strict";
import type { NodeMessage } from "node-red";
import { chromium, type Browser, type BrowserContext } from "playwright-core";
import type { Emulator, EmulatorOptions } from "../../src/emulator";
import { CHROMIUM, browserSkipReason } from "../support/chromium";
import { useEmulator } from "../support/emulator";
import { call, dataOf } from "../support/http";
import { HTTP_RESPONSE_ID, HttpNodeServer, SOURCE_IDS, SOURCE_MODULES, SOURCES, sourceNodes, type Source } from "../support/message-sources";
import { CONFIG_ID, NODE_MODULES, TAB, catchNode, configNode, credentialsFor, helper, useNodeRed, type FlowNode, type Msg } from "../support/node-red";
import { OUTCOME_MS } from "../support/wait-until";

/**
 * Issue 37: the same msg.payload, built the five ways users build one, must make every node send the same
 * call to MoreLogin and give the same reply as the payload sent straight to the node. A function node's
 * objects come from its own vm context (another Object.prototype): a node that checks a payload's
 * prototype against its own refuses them.
 */
interface Case {
  type: string;
  /** What the test's title names besides the type, for a node type with more than one case. */
  what?: string;
  props: Record<string, unknown>;
  /** msg.payload as the node's help documents it (JSON, so every source can build it). */
  payload: (emulator: Emulator) => unknown;
  /** Runs once before the flow is deployed; gives more properties of the node under test. */
  setup?: (emulator: Emulator) => Promise<Record<string, unknown>>;
  /** What the reference reply must hold, beyond being the same every way. */
  reference?: (reply: unknown) => void;
  /** Runs once after the test, passed or not. */
  cleanup?: () => Promise<unknown>;
  /** Nodes after the node under test (on its tab). */
  after?: FlowNode[];
  /** Puts the emulator back as the payload needs it, before each message (a close needs a started profile). */
  prepare?: (emulator: Emulator) => Promise<unknown>;
  /** Reply fields that differ from one call to the next whatever the payload (a new debug port). */
  varying?: string[];
  /** Wires of the node under test; the default sends its output to "out" and to the HTTP Response node. */
  wires?: string[][];
  /** The message at "out" that ends the node's work (the default: the first one). */
  isReply?: (msg: Msg) => boolean;
  /**
   * The HTTP Response node answers with the node's reply (the node keeps msg.res). Not for a reply the
   * HTTP Response node cannot send (Express refuses a boolean body): the HTTP In node then answers at once.
   */
  answersHttp?: boolean;
}

const REPLY = ["out", HTTP_RESPONSE_ID];
/** The nodes that need no config node, and those that never call MoreLogin. */
const NO_CONFIG = ["morelogin-batch", "morelogin-browser"];
const NO_API = NO_CONFIG;
const LIST = { pageNo: "1", pageNoType: "num", pageSize: "100", pageSizeType: "num", all: false, output: "array" };
const profile = (index: number) => (e: Emulator) => e.data.profiles[index]?.id;
const close = (envId: string | undefined) => (e: Emulator) => call(e.localUrl, "/api/env/close", { body: { envId } });
const start = (envId: string | undefined) => (e: Emulator) => call(e.localUrl, "/api/env/start", { body: { envId } });

// morelogin-watch is not here: it takes no message (its editor definition has `inputs: 0`; it polls MoreLogin on
// its own, with the profiles or phones to watch set in the node), so no source can send it a payload.
const CASES: Case[] = [
  { type: "morelogin-list-profiles", props: LIST, payload: () => ({ pageNo: 2, pageSize: 3 }) },
  { type: "morelogin-list-cloud-phones", props: LIST, payload: () => ({ pageNo: 2, pageSize: 2 }) },
  { type: "morelogin-list-proxies", props: LIST, payload: () => ({ pageNo: 2, pageSize: 2 }) },
  { type: "morelogin-list-groups", props: LIST, payload: () => ({ pageNo: 2, pageSize: 2 }) },
  { type: "morelogin-list-apps", props: { ...LIST, pageNo: undefined, pageNum: "1", pageNumType: "num" }, payload: () => ({ pageNum: 2, pageSize: 3 }) },
  // Its help: "Any message triggers the call; its payload is not used."
  { type: "morelogin-list-tags", props: { output: "array" }, payload: () => ({}) },
  {
    type: "morelogin-start-profile",
    props: { envId: "", envIdType: "str" },
    payload: (e) => ({ envId: profile(0)(e), isHeadless: true }),
    prepare: (e) => close(profile(0)(e))(e),
    varying: ["debugPort", "cdpUrl", "webSocketDebuggerUrl"],
  },
  { type: "morelogin-close-profile", props: { envId: "", envIdType: "str" }, payload: (e) => ({ envId: profile(1)(e) }), prepare: (e) => start(profile(1)(e))(e) },
  { type: "morelogin-profile-status", props: { envId: "", envIdType: "str", waitFor: "" }, payload: (e) => ({ envId: profile(2)(e) }) },
  { type: "morelogin-profile", props: { action: "detail", envId: "", envIdType: "str" }, payload: (e) => ({ envId: profile(3)(e) }) },
  // The profile node's own checks of what an object payload holds: the names and numbers MoreLogin takes, the screens as numbers.
  { type: "morelogin-profile", what: "ua", props: { action: "ua", os: "1", vendor: "1" }, payload: () => ({ os: 2, osVersion: "macOS 14", vendor: 2 }) },
  {
    type: "morelogin-profile",
    what: "arrangeWindows",
    props: { action: "arrangeWindows", arrangeType: "tile", envId: "", envIdType: "str" },
    payload: (e) => ({ envIds: [profile(7)(e)], arrangeType: "stack", screenIds: [2528732444] }),
    // The reply is null, which the HTTP Response node sends as an empty body.
    answersHttp: false,
  },
  { type: "morelogin-request", props: { api: "local", method: "POST", path: "/api/env/detail", pathType: "str" }, payload: (e) => ({ envId: profile(4)(e) }) },
  { type: "morelogin-cloud-phone", props: { api: "local", action: "info", phoneId: "", phoneIdType: "str" }, payload: (e) => ({ id: e.data.cloudPhones[0]?.id }) },
  {
    type: "morelogin-proxy",
    props: { action: "update", proxyIp: "", proxyIpType: "str", proxyPort: "", proxyPortType: "num", proxyProvider: "0" },
    payload: (e) => ({ id: e.data.proxies[0]?.id, proxyIp: "203.0.113.7", proxyPort: 8080, proxyProvider: 0, username: "u", password: "p" }),
  },
  // A rename replies `true`, a body the HTTP Response node cannot send (Express refuses a boolean: ERR_INVALID_ARG_TYPE).
  { type: "morelogin-group", props: { action: "edit", groupName: "", groupNameType: "str" }, payload: (e) => ({ id: e.data.groups[0]?.id, groupName: "Shops EU" }), answersHttp: false },
  { type: "morelogin-tag", props: { action: "edit", tagName: "", tagNameType: "str" }, payload: (e) => ({ id: e.data.tags[0]?.id, tagName: "ready" }), answersHttp: false },
  { type: "morelogin-automation", props: { api: "local", action: "templates", source: "market", taskId: "", taskIdType: "str" }, payload: () => ({ searchKey: "like" }) },
  {
    type: "morelogin-batch",
    props: { parallel: "1" },
    payload: (e) => [{ id: profile(5)(e) }, { id: profile(6)(e) }],
    // Each item goes straight back as done; the progress output's last message is the reply.
    wires: [["n1"], REPLY],
    isReply: (msg) => msg.topic === "done",
    varying: ["id", "startedAt", "endedAt", "etaMs", "perMinute"],
    // The batch copies neither msg.req nor msg.res onto its messages (its help says so): no HTTP answer from it.
    answersHttp: false,
  },
];

/** What came of one message: what a user sees after the node, and what MoreLogin was sent. */
interface Outcome {
  reply?: unknown;
  error?: string;
  calls: Array<{ api: string; method: string; path: string; body: unknown }>;
}

function withoutVarying(value: unknown, varying: string[] = []): unknown {
  if (!value || typeof value !== "object" || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([key, field]) => [key, varying.includes(key) && field !== undefined ? "(varies)" : field]));
}

/** Messages arriving at the flow's "out" and "caught" helper nodes, waited for as they come. */
class Arrivals {
  private readonly messages: Array<{ at: string; msg: Msg }> = [];
  private readonly listeners = new Set<() => void>();

  constructor(ids: string[]) {
    for (const id of ids) {
      helper.getNode(id).on("input", (msg: NodeMessage) => {
        this.messages.push({ at: id, msg: msg as Msg });
        for (const listener of this.listeners) listener();
      });
    }
  }

  /** The first message from now on that `accept` takes. */
  next(accept: (at: string, msg: Msg) => boolean): Promise<{ at: string; msg: Msg }> {
    const from = this.messages.length;
    return new Promise((resolve, reject) => {
      const check = (): void => {
        const found = this.messages.slice(from).find(({ at, msg }) => accept(at, msg));
        if (!found) return;
        this.listeners.delete(check);
        clearTimeout(timer);
        resolve(found);
      };
      const timer = setTimeout(() => {
        this.listeners.delete(check);
        reject(new Error(`no reply and no error within ${OUTCOME_MS} ms`));
      }, OUTCOME_MS);
      this.listeners.add(check);
    });
  }
}

type Hook = (this: Mocha.Context) => void;

/**
 * One test per case, in one Node-RED runtime and against one emulator (started with `options`): the
 * case's node gets the payload straight (the reference), then from each of the five sources, in one
 * deployed flow. `first` runs before the emulator starts (a reason to skip the suite).
 */
function describeSources(title: string, options: EmulatorOptions, cases: Case[], first?: Hook): void {
  describe(title, function () {
    this.timeout(OUTCOME_MS * 2);
    const httpNode = new HttpNodeServer();
    // Before the emulator starts: a suite skipped on purpose starts nothing.
    before(async function () {
      first?.call(this);
      await httpNode.start();
    });
    const { emulator } = useEmulator(options);
    useNodeRed();
    after(() => httpNode.stop());

    function flowFor(testCase: Case, url: string, props: Record<string, unknown>): FlowNode[] {
      const e = emulator();
      const usesConfig = !NO_CONFIG.includes(testCase.type);
      const sources = sourceNodes(testCase.payload(e), "n1", url);
      if (testCase.answersHttp === false) {
        const httpIn = sources.find((node) => node.id === SOURCE_IDS["http in (JSON body)"]);
        if (httpIn) httpIn.wires = [["n1", HTTP_RESPONSE_ID]];
      }
      return [
        { id: TAB, type: "tab", label: "message sources" },
        ...(usesConfig ? [configNode(e)] : []),
        { id: "n1", type: testCase.type, z: TAB, ...(usesConfig ? { server: CONFIG_ID } : {}), ...testCase.props, ...props, wires: testCase.wires ?? [REPLY] },
        ...(testCase.after ?? []).map((node) => ({ z: TAB, ...node })),
        { id: "out", z: TAB, type: "helper" },
        // Every node of the tab: a source that fails shows too.
        { id: "catch1", z: TAB, type: "catch", scope: null, uncaught: false, wires: [["caught"]] },
        { id: "caught", z: TAB, type: "helper" },
        ...sources,
      ];
    }

    /** Sends one message the `way` given ("direct": the payload straight to the node) and waits for its reply or error. */
    async function outcomeOf(testCase: Case, way: Source | "direct", arrivals: Arrivals, url: string): Promise<Outcome & { http?: unknown }> {
      const e = emulator();
      await testCase.prepare?.(e);
      e.resetStats();
      const isReply = testCase.isReply ?? (() => true);
      const ended = arrivals.next((at, msg) => at === "caught" || isReply(msg));
      let http: Promise<unknown> | undefined;
      // A node that fails ends the message at the Catch node: the HTTP Response node never answers, so the request is given up.
      const giveUp = new AbortController();
      if (way === "direct") helper.getNode("n1").receive({ payload: JSON.parse(JSON.stringify(testCase.payload(e))) } as NodeMessage);
      else if (way === "http in (JSON body)") {
        const signal = AbortSignal.any([giveUp.signal, AbortSignal.timeout(OUTCOME_MS)]);
        http = fetch(`${httpNode.url}${url}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(testCase.payload(e)), signal }).then((answer) => answer.json());
      } else helper.getNode(SOURCE_IDS[way]).receive({} as NodeMessage);
      const { at, msg } = await ended;
      const calls = e.requestLog.filter((entry) => entry.path !== "/oauth2/token").map(({ api, method, path, body }) => ({ api, method, path, body }));
      const outcome: Outcome & { http?: unknown } =
        at === "caught" ? { error: (msg.error as { message?: string } | undefined)?.message ?? String(msg.error), calls } : { reply: withoutVarying(msg.payload, testCase.varying), calls };
      if (http && outcome.error === undefined && testCase.answersHttp !== false) outcome.http = withoutVarying(await http, testCase.varying);
      else if (http) {
        giveUp.abort();
        await http.catch(() => undefined);
      }
      return outcome;
    }

    for (const testCase of cases) {
      it(`${testCase.type}${testCase.what ? ` (${testCase.what})` : ""}: every way of building msg.payload gives the same call and the same reply`, async () => {
        const url = `/sources/${testCase.type}`;
        const props = (await testCase.setup?.(emulator())) ?? {};
        try {
          await check(testCase, url, props);
        } finally {
          await testCase.cleanup?.();
        }
      });
    }

    async function check(testCase: Case, url: string, props: Record<string, unknown>): Promise<void> {
      await helper.load([...NODE_MODULES, catchNode, ...SOURCE_MODULES, httpNode.httpInModule] as never, flowFor(testCase, url, props) as never, credentialsFor(emulator()) as never);
      const arrivals = new Arrivals(["out", "caught"]);
      const direct = await outcomeOf(testCase, "direct", arrivals, url);
      assert.equal(direct.error, undefined, "the payload sent straight to the node works");
      assert.equal(direct.calls.length > 0, !NO_API.includes(testCase.type), "the node calls MoreLogin");
      testCase.reference?.(direct.reply);
      const got: Record<string, Outcome> = {};
      const expected: Record<string, Outcome> = {};
      for (const way of SOURCES) {
        const { http, ...outcome } = await outcomeOf(testCase, way, arrivals, url);
        got[way] = outcome;
        expected[way] = direct;
        if (way === "http in (JSON body)" && testCase.answersHttp !== false && outcome.error === undefined) {
          got["http in: the HTTP answer"] = { reply: http, calls: [] };
          expected["http in: the HTTP answer"] = { reply: direct.reply, calls: [] };
        }
      }
      assert.deepEqual(got, expected);
    }
  });
}

describeSources("nodes: a payload built by a function, change, inject or HTTP In node (issue 37)", { profiles: 10, apps: 12 }, CASES);

/** The browser node with a started profile's real Chromium: cookies put back from msg.payload, then read back. */
const cookieJars: Array<{ browser: Browser; context: BrowserContext }> = [];
/** Chromium caps a cookie's life at 400 days, so a fixed date far ahead would come back as a different one each time. */
const IN_A_WEEK = Math.floor(Date.now() / 1000) + 7 * 24 * 3600;
const COOKIES = [
  { name: "visited", value: "yes", domain: "127.0.0.1", path: "/", expires: -1, httpOnly: false, secure: false, sameSite: "Lax" },
  { name: "session", value: "s-42", domain: "127.0.0.1", path: "/demo", expires: IN_A_WEEK, httpOnly: true, secure: false, sameSite: "Strict" },
];
/** The same cookies as a browser extension (EditThisCookie, Cookie-Editor) exports them (issue 50). */
const EXPORTED = [
  { domain: "127.0.0.1", hostOnly: true, httpOnly: false, name: "visited", path: "/", sameSite: "unspecified", secure: false, session: true, storeId: "0", value: "yes", id: 1 },
  {
    domain: "127.0.0.1",
    expirationDate: IN_A_WEEK + 0.5,
    hostOnly: true,
    httpOnly: true,
    name: "session",
    path: "/demo",
    sameSite: "strict",
    secure: false,
    session: false,
    storeId: "0",
    value: "s-42",
    id: 2,
  },
];

/** setCookies on the browser of the emulator's profile `profile`, its cookies read back by the next node. */
function cookieCase(what: string, profile: number, payload: unknown[]): Case {
  return {
    type: "morelogin-browser",
    what,
    props: { action: "setCookies" },
    // The profile's browser, started as the desktop client would, is the node's Browser field (its debug port).
    setup: async (e) => {
      const { debugPort } = dataOf<{ debugPort: string }>(await call(e.localUrl, "/api/env/start", { body: { envId: e.data.profiles[profile]?.id } }));
      const browser = await chromium.connectOverCDP(`http://127.0.0.1:${debugPort}`);
      const context = browser.contexts()[0];
      assert.ok(context, "the profile's browser has its default context");
      cookieJars[profile] = { browser, context };
      return { endpoint: debugPort, endpointType: "str" };
    },
    // Each message starts from a browser without cookies, so each must put them there itself.
    prepare: async () => cookieJars[profile]?.context.clearCookies(),
    cleanup: async () => cookieJars[profile]?.browser.close(),
    payload: () => payload,
    reference: (reply) =>
      assert.deepEqual(
        (reply as Array<{ name: string; expires: number; sameSite: string }>)
          .map(({ name, expires, sameSite }) => ({ name, expires: Math.trunc(expires), sameSite }))
          .sort((a, b) => a.name.localeCompare(b.name)),
        [
          { name: "session", expires: IN_A_WEEK, sameSite: "Strict" },
          { name: "visited", expires: -1, sameSite: "Lax" },
        ],
      ),
    wires: [["read"]],
    after: [{ id: "read", type: "morelogin-browser", action: "cookies", wires: [REPLY] }],
  };
}

describeSources(
  "nodes: browser cookies built by a function, change, inject or HTTP In node (issue 37)",
  { profiles: 2, browser: CHROMIUM },
  [cookieCase("read cookies' array", 0, COOKIES), cookieCase("a browser extension's export", 1, EXPORTED)],
  function () {
    const skipped = browserSkipReason();
    if (skipped) {
      console.log(`    browser cookie sources skipped on purpose (${skipped})`);
      this.skip();
    }
  },
);
