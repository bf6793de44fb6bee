import assert from "node:assert/strict";
import { credentialsFor, flowWith, helper, sendAndCollect, sendTo, useNodeRed, type Msg } from "../support/node-red";
import { useEmulator } from "../support/emulator";

describe("nodes: list nodes", () => {
  const { emulator } = useEmulator({ profiles: 235, cloudPhones: 12, proxies: 8, groups: 5, tags: 6, apps: 30 });
  useNodeRed(emulator);

  /** Sends one message to `node` and returns every message it sent on, which must be `count`. */
  async function run(node: Record<string, unknown>, input: Record<string, unknown> = { payload: "" }, count = 1): Promise<Msg[]> {
    const { out, caught, completed } = await sendTo(emulator(), node, input);
    assert.deepEqual(
      caught.map((msg) => msg.error),
      [],
    );
    assert.equal(completed.length, 1, "the message is ended once");
    assert.equal(out.length, count, `${count} message(s) expected`);
    return out;
  }

  it("list profiles sends the page as the API gives it, keeping the message's other properties", async () => {
    const [msg] = await run({ type: "morelogin-list-profiles", pageNo: "2", pageNoType: "num", pageSize: "10", pageSizeType: "num" }, { payload: 1700000000000, res: { keep: "me" }, topic: "t" });
    assert.deepEqual(msg?.payload, { total: "235", current: "2", pages: "24", dataList: emulator().data.profiles.slice(10, 20) });
    assert.deepEqual(msg?.res, { keep: "me" });
    assert.equal(msg?.topic, "t");
    const info = msg?.morelogin as { api: string; path: string; requestId: string };
    assert.equal(info.api, "local");
    assert.equal(info.path, "/api/env/page");
    assert.match(info.requestId, /^[0-9a-f]{32}$/);
  });

  it("msg.payload fields win over the node's, field by field, and unknown fields pass through", async () => {
    await run(
      { type: "morelogin-list-profiles", pageNo: "1", pageNoType: "num", envName: "Profile 01", envNameType: "str", groupId: "", groupIdType: "str" },
      { payload: { envName: "Profile 02", futureFilter: "x" } },
    );
    assert.deepEqual(emulator().requestLog.at(-1)?.body, { pageNo: 1, envName: "Profile 02", futureFilter: "x" });
  });

  it("reads node fields from msg, flow and env", async () => {
    process.env.MORELOGIN_TEST_GROUP = emulator().data.groups[1]?.id;
    try {
      await run(
        { type: "morelogin-list-profiles", pageNo: "page", pageNoType: "msg", groupId: "MORELOGIN_TEST_GROUP", groupIdType: "env", envName: "filter.name", envNameType: "msg" },
        { payload: "", page: 2, filter: { name: "Profile" } },
      );
      assert.deepEqual(emulator().requestLog.at(-1)?.body, { pageNo: 2, envName: "Profile", groupId: emulator().data.groups[1]?.id });
    } finally {
      delete process.env.MORELOGIN_TEST_GROUP;
    }
  });

  it("with all, collects every page into one array", async () => {
    const [msg] = await run({ type: "morelogin-list-profiles", all: true, output: "array", maxItems: 10000 });
    assert.deepEqual(msg?.payload, emulator().data.profiles);
    assert.equal((msg?.morelogin as { pages: number } | undefined)?.pages, 3);
    assert.equal(emulator().stats.requests["local POST /api/env/page"], 3);
  });

  it("stops at maxItems and says so", async () => {
    const [msg] = await run({ type: "morelogin-list-profiles", all: true, output: "array", maxItems: 150 });
    assert.deepEqual(msg?.payload, emulator().data.profiles.slice(0, 150));
    assert.equal((msg?.morelogin as { truncated: boolean } | undefined)?.truncated, true);
  });

  it("split sends one message per item with msg.parts, and a Join node rebuilds the same array", async () => {
    const flow = flowWith(emulator(), { type: "morelogin-list-profiles", all: true, output: "split", wires: [["out", "join1"]] });
    flow.push({ id: "join1", z: "tab1", type: "join", mode: "auto", build: "array", wires: [["joined"]] }, { id: "joined", z: "tab1", type: "helper" });
    const { out: messages, received } = await sendAndCollect(flow, { payload: "", res: "kept" }, credentialsFor(emulator()));
    assert.equal(messages.length, 235);
    assert.equal(received.joined?.length, 1);
    assert.deepEqual(received.joined?.[0]?.payload, emulator().data.profiles);
    messages.forEach((msg, index) => {
      const parts = msg.parts as { id: string; index: number; count: number };
      assert.equal(parts.index, index);
      assert.equal(parts.count, 235);
      assert.equal(parts.id, (messages[0]?.parts as { id: string } | undefined)?.id);
      assert.equal(msg.res, "kept");
      assert.deepEqual(msg.payload, emulator().data.profiles[index]);
    });
    assert.notEqual(messages[0], messages[1], "each item is its own message object");
  });

  it("split without all sends the items of one page", async () => {
    const { out, caught, completed } = await sendTo(emulator(), { type: "morelogin-list-profiles", pageSize: "5", pageSizeType: "num", output: "split" }, { payload: "" });
    assert.equal(caught.length, 0);
    assert.equal(completed.length, 1);
    // Every message that came out until the flow went quiet, not only the first five.
    assert.deepEqual(
      out.map((msg) => msg.payload),
      emulator().data.profiles.slice(0, 5),
    );
  });

  it("list cloud phones, proxies and groups return their pages", async () => {
    const [phones] = await run({ type: "morelogin-list-cloud-phones", pageSize: "100", pageSizeType: "num" });
    assert.deepEqual((phones?.payload as { dataList: unknown[] } | undefined)?.dataList, emulator().data.cloudPhones);
    await helper.unload();
    const [proxies] = await run({ type: "morelogin-list-proxies", all: true });
    assert.deepEqual(proxies?.payload, emulator().data.proxies);
    await helper.unload();
    const [groups] = await run({ type: "morelogin-list-groups", all: true, groupName: "", groupNameType: "str" });
    assert.deepEqual(groups?.payload, emulator().data.groups);
  });

  it("list proxies filters by part of the proxy name", async () => {
    const wanted = emulator().data.proxies[1]?.proxyName ?? "";
    assert.ok(wanted.length > 2);
    const part = wanted.slice(1).toUpperCase();
    const [proxies] = await run({ type: "morelogin-list-proxies", all: true, proxyName: part, proxyNameType: "str" });
    const expected = emulator().data.proxies.filter((proxy) => proxy.proxyName.toLowerCase().includes(part.toLowerCase()));
    assert.deepEqual(proxies?.payload, expected);
    assert.ok(expected.length < emulator().data.proxies.length, "the filter left some proxies out");
    assert.equal((emulator().requestLog.at(-1)?.body as { proxyName?: string } | undefined)?.proxyName, part);
  });

  it("list tags returns every tag with one GET, or one message per tag", async () => {
    const [tags] = await run({ type: "morelogin-list-tags", output: "array" });
    assert.deepEqual(tags?.payload, emulator().data.tags);
    await helper.unload();
    const split = await run({ type: "morelogin-list-tags", output: "split" }, { payload: "" }, emulator().data.tags.length);
    assert.deepEqual(
      split.map((msg) => msg.payload),
      emulator().data.tags,
    );
  });

  it("list cloud-phone apps pages with pageNum over the Open API", async () => {
    const [apps] = await run({ type: "morelogin-list-apps", all: true, pageSize: "7", pageSizeType: "num" });
    assert.deepEqual(apps?.payload, emulator().data.apps);
    const pageNums = emulator()
      .requestLog.filter((entry) => entry.path === "/cloudphone/app/page")
      .map((entry) => (entry.body as { pageNum: number }).pageNum);
    assert.deepEqual(pageNums, [1, 2, 3, 4, 5]);
  });
});
