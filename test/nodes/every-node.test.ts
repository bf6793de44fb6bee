import assert from "node:assert/strict";
import type { Emulator } from "../../src/emulator";
import { sendTo, statusCalls, useNodeRed, type Outcome } from "../support/node-red";
import { freePort } from "../../tools/sandbox";
import { useEmulator, type EmulatorReset } from "../support/emulator";
import { call } from "../support/http";

interface Case {
  type: string;
  label: string;
  props: Record<string, unknown>;
  input: (emulator: Emulator) => unknown;
  expected: (emulator: Emulator) => unknown;
  /** A payload that makes the API answer with a business error, and the text it gives. */
  businessError: { payload: (emulator: Emulator) => unknown; text: RegExp };
  /** Brings the emulator into the state the input needs (closing needs a running profile). */
  setup?: (emulator: Emulator) => Promise<unknown>;
  /** Input the node refuses before sending, when the node takes any. */
  badInput?: { payload: unknown; text: RegExp };
  api: "local" | "open";
  /** msg.topic after the node: the ID of the profile or phone it worked on (upstream's otherwise). */
  topic?: (emulator: Emulator) => string | undefined;
}

const LIST = { pageNo: "1", pageNoType: "num", pageSize: "100", pageSizeType: "num", all: false, output: "array" };
const page = <T>(items: T[]) => ({ total: String(items.length), current: "1", pages: items.length ? "1" : "0", dataList: items });
const typeError = (field: string) => ({ payload: () => ({ [field]: 42 }), text: /\(code 99001\)/ });

/** What a batch node (and a flow) put in msg.morelogin before the node under test. */
const CARRIED = { batch: { id: "b1", item: "p1", index: 0, total: 1, attempt: 1 }, note: "kept" };

const CASES: Case[] = [
  {
    type: "morelogin-list-profiles",
    label: "list profiles",
    api: "local",
    props: LIST,
    input: () => ({}),
    expected: (e) => page(e.data.profiles),
    businessError: typeError("envName"),
    badInput: { payload: { pageSize: -1 }, text: /pageSize must be a positive integer/ },
  },
  {
    type: "morelogin-list-cloud-phones",
    label: "list cloud phones",
    api: "local",
    props: LIST,
    input: () => ({}),
    expected: (e) => page(e.data.cloudPhones),
    businessError: typeError("keyword"),
    badInput: { payload: { pageNo: "x" }, text: /pageNo must be a positive integer/ },
  },
  {
    type: "morelogin-list-proxies",
    label: "list proxies",
    api: "local",
    props: LIST,
    input: () => ({}),
    expected: (e) => page(e.data.proxies),
    businessError: typeError("proxyName"),
    badInput: { payload: { pageNo: 0 }, text: /pageNo must be a positive integer/ },
  },
  {
    type: "morelogin-list-groups",
    label: "list groups",
    api: "local",
    props: LIST,
    input: () => ({}),
    expected: (e) => page(e.data.groups),
    businessError: typeError("groupName"),
    badInput: { payload: { pageNo: 1.5 }, text: /pageNo must be a positive integer/ },
  },
  {
    type: "morelogin-list-apps",
    label: "list cloud-phone apps",
    api: "open",
    props: { ...LIST, pageNo: undefined, pageNum: "1", pageNumType: "num" },
    input: () => ({}),
    expected: (e) => ({ ...page(e.data.apps), total: String(e.data.apps.length) }),
    businessError: typeError("appName"),
    badInput: { payload: { pageNum: "first" }, text: /pageNum must be a positive integer/ },
  },
  {
    type: "morelogin-list-tags",
    label: "list tags",
    api: "local",
    props: { output: "array" },
    input: () => "",
    expected: (e) => e.data.tags,
    businessError: { payload: () => "", text: /API authentication failed \(code 35002\)/ },
  },
  {
    type: "morelogin-start-profile",
    label: "start profile",
    api: "local",
    props: { envId: "", envIdType: "str" },
    input: (e) => e.data.profiles[0]?.id,
    expected: (e) => ({ envId: e.data.profiles[0]?.id }),
    topic: (e) => e.data.profiles[0]?.id,
    businessError: { payload: () => "1000000000000000009", text: /Profile not found \(code 101\)/ },
    badInput: { payload: { envId: "abc" }, text: /envId must be a decimal ID/ },
  },
  {
    type: "morelogin-close-profile",
    label: "close profile",
    api: "local",
    props: { envId: "", envIdType: "str" },
    setup: (e) => call(e.localUrl, "/api/env/start", { body: { envId: e.data.profiles[1]?.id } }),
    input: (e) => e.data.profiles[1]?.id,
    expected: (e) => ({ envId: e.data.profiles[1]?.id, debugPort: "" }),
    topic: (e) => e.data.profiles[1]?.id,
    businessError: { payload: () => "1000000000000000009", text: /Profile not found \(code 101\)/ },
    badInput: { payload: { envId: 2 ** 60 }, text: /not a safe integer/ },
  },
  {
    type: "morelogin-request",
    label: "MoreLogin request",
    api: "local",
    props: { api: "local", method: "POST", path: "/api/env/detail", pathType: "str" },
    input: (e) => ({ envId: e.data.profiles[2]?.id }),
    expected: (e) => ({ id: e.data.profiles[2]?.id }),
    businessError: { payload: () => ({ envId: "1000000000000000009" }), text: /Profile not found \(code 101\)/ },
  },
  {
    type: "morelogin-profile-status",
    label: "profile status",
    api: "local",
    props: { envId: "", envIdType: "str", waitFor: "" },
    input: (e) => e.data.profiles[3]?.id,
    expected: (e) => ({ envId: e.data.profiles[3]?.id, status: "stopped", debugPort: "" }),
    topic: (e) => e.data.profiles[3]?.id,
    businessError: { payload: () => "1000000000000000009", text: /Profile not found \(code 101\)/ },
    badInput: { payload: { envId: "abc" }, text: /envId must be a decimal ID/ },
  },
  {
    type: "morelogin-profile",
    label: "profile",
    api: "local",
    props: { action: "detail", envId: "", envIdType: "str" },
    input: (e) => e.data.profiles[4]?.id,
    expected: (e) => ({ id: e.data.profiles[4]?.id, envName: e.data.profiles[4]?.envName }),
    topic: (e) => e.data.profiles[4]?.id,
    businessError: { payload: () => "1000000000000000009", text: /Profile not found \(code 101\)/ },
    badInput: { payload: { envId: 2 ** 60 }, text: /not a safe integer/ },
  },
  {
    type: "morelogin-cloud-phone",
    label: "cloud phone",
    api: "local",
    props: { api: "local", action: "info", phoneId: "", phoneIdType: "str" },
    input: (e) => e.data.cloudPhones[0]?.id,
    expected: (e) => ({ id: e.data.cloudPhones[0]?.id, envName: e.data.cloudPhones[0]?.envName }),
    topic: (e) => e.data.cloudPhones[0]?.id,
    businessError: { payload: () => "1000000000000009", text: /\(code \d+\)/ },
    badInput: { payload: { id: "12ab" }, text: /id must be a decimal ID/ },
  },
  {
    type: "morelogin-proxy",
    label: "proxy",
    api: "local",
    props: { action: "add", proxyIp: "203.0.113.9", proxyIpType: "str", proxyPort: "8080", proxyPortType: "num", proxyProvider: "0" },
    input: () => ({ proxyName: "Every node proxy" }),
    expected: (e) => e.data.proxies.find((proxy) => proxy.proxyName === "Every node proxy")?.id,
    topic: (e) => e.data.proxies.find((proxy) => proxy.proxyName === "Every node proxy")?.id,
    // The node checks the integer ranges itself (an input error); a flag that is not a boolean is the API's to refuse.
    businessError: { payload: () => ({ ipMonitor: "often" }), text: /\(code 99001\)/ },
    badInput: { payload: { proxyIp: "" }, text: /proxyIp is missing/ },
  },
  {
    type: "morelogin-group",
    label: "group",
    api: "local",
    props: { action: "create", groupName: "Every node group", groupNameType: "str" },
    input: () => ({}),
    expected: (e) => e.data.groups.find((group) => group.groupName === "Every node group"),
    topic: (e) => e.data.groups.find((group) => group.groupName === "Every node group")?.id,
    businessError: { payload: (e) => ({ groupName: e.data.groups[0]?.groupName }), text: /Group name already exists \(code 15001\)/ },
    badInput: { payload: { groupName: "" }, text: /groupName is missing/ },
  },
  {
    type: "morelogin-tag",
    label: "tag",
    api: "local",
    props: { action: "create", tagName: "Every node tag", tagNameType: "str" },
    input: () => ({}),
    expected: (e) => e.data.tags.find((tag) => tag.tagName === "Every node tag"),
    topic: (e) => e.data.tags.find((tag) => tag.tagName === "Every node tag")?.id,
    businessError: { payload: (e) => ({ tagName: e.data.tags[0]?.tagName }), text: /Tag name already exists \(code 15002\)/ },
    badInput: { payload: { tagName: "" }, text: /tagName is missing/ },
  },
  {
    type: "morelogin-automation",
    label: "automation",
    api: "local",
    props: { api: "local", action: "runs", taskId: "", taskIdType: "str" },
    input: () => ({}),
    expected: () => [],
    businessError: { payload: () => ({ taskState: "x" }), text: /taskState must be an integer/ },
    badInput: { payload: { taskId: "not an id" }, text: /taskId must be a decimal ID/ },
  },
];

/** Deep-equal on the fields `expected` names (start and detail add fields the emulator decides). */
function assertContains(actual: unknown, expected: unknown): void {
  if (expected && typeof expected === "object" && !Array.isArray(expected) && !("dataList" in (expected as object))) {
    for (const [key, value] of Object.entries(expected)) assert.deepEqual((actual as Record<string, unknown>)[key], value, key);
    return;
  }
  assert.deepEqual(actual, expected);
}

/** Some cases set a Local API token on the emulator; the next test starts without one. */
const withoutLocalToken: EmulatorReset = (emulator) => emulator.setLocalToken(undefined);

describe("nodes: every operation node", () => {
  const { emulator } = useEmulator({ profiles: 20, apps: 12 });
  useNodeRed(emulator, withoutLocalToken);

  /** The case's node gets one message that carries upstream properties. */
  function send(testCase: Case, payload: unknown, config: Record<string, unknown> = {}, credentials: Record<string, string> = {}, quiet = false): Promise<Outcome> {
    return sendTo(
      emulator(),
      { type: testCase.type, ...testCase.props },
      { payload, res: { upstream: true }, topic: "kept", morelogin: { ...CARRIED, api: "earlier", requestId: "earlier" } },
      { config, credentials, quiet },
    );
  }

  for (const testCase of CASES) {
    describe(testCase.type, () => {
      it("sends the API's data, keeps upstream properties, and goes blue then green", async () => {
        await testCase.setup?.(emulator());
        const { out, caught, completed, node } = await send(testCase, testCase.input(emulator()));
        assert.equal(caught.length, 0, JSON.stringify(caught[0]?.error));
        assert.equal(completed.length, 1, "the message is ended once");
        assert.equal(out.length, 1);
        assertContains(out[0]?.payload, testCase.expected(emulator()));
        assert.deepEqual(out[0]?.res, { upstream: true });
        assert.equal(out[0]?.topic, testCase.topic?.(emulator()) ?? "kept", "msg.topic");
        const info = out[0]?.morelogin as Record<string, unknown> | undefined;
        assert.equal(info?.api, testCase.api);
        assert.notEqual(info?.requestId, "earlier", "the call's own fields are this call's");
        assert.deepEqual({ batch: info?.batch, note: info?.note }, CARRIED, "msg.morelogin.batch and the flow's own fields travel on");
        const statuses = statusCalls(node);
        assert.equal(statuses[0]?.fill, "blue");
        assert.equal(statuses.at(-1)?.fill, "green");
      });

      it("a business error reaches the Catch node once, with the API's text", async () => {
        const tagsNeedToken = testCase.type === "morelogin-list-tags";
        if (tagsNeedToken) emulator().setLocalToken("the-real-token");
        // Quiet: the test is about the error reaching the Catch node once, and nothing after it.
        const { out, caught, node } = await send(testCase, testCase.businessError.payload(emulator()), {}, tagsNeedToken ? { localToken: "a-wrong-token" } : {}, true);
        assert.equal(out.length, 0);
        assert.equal(caught.length, 1);
        const text = (caught[0]?.error as { message: string } | undefined)?.message ?? "";
        assert.ok(text.startsWith(`${testCase.label} failed: `), text);
        assert.match(text, testCase.businessError.text);
        assert.equal(typeof (caught[0]?.morelogin as { error: { code: number } } | undefined)?.error.code, "number");
        assert.deepEqual(caught[0]?.res, { upstream: true });
        assert.equal(statusCalls(node).at(-1)?.fill, "red");
      });

      it("an unreachable API is one clear error", async () => {
        const url = `http://127.0.0.1:${await freePort()}`;
        const config = testCase.api === "open" ? { openUrl: url } : { localUrl: url };
        const { out, caught } = await send(testCase, testCase.input(emulator()), config);
        assert.equal(out.length, 0);
        assert.equal(caught.length, 1);
        assert.match(
          (caught[0]?.error as { message: string } | undefined)?.message ?? "",
          new RegExp(`^${testCase.label} failed: .*cannot reach the ${testCase.api === "open" ? "Open" : "Local"} API at ${url} \\(ECONNREFUSED\\)`),
        );
      });

      if (testCase.badInput) {
        const bad = testCase.badInput;
        it("bad input is refused before anything is sent", async () => {
          const { out, caught } = await send(testCase, bad.payload);
          assert.equal(out.length, 0);
          assert.equal(caught.length, 1);
          assert.match((caught[0]?.error as { message: string } | undefined)?.message ?? "", bad.text);
          assert.equal(emulator().requestLog.filter((entry) => entry.path !== "/oauth2/token").length, 0);
        });
      }
    });
  }
});
