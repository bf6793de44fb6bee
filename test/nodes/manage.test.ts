import assert from "node:assert/strict";
import type { Group, ProxyInfo, Tag } from "../../src/emulator";
import { useEmulator } from "../support/emulator";
import { call, dataOf, type PageShape } from "../support/http";
import type { Emulator } from "../../src/emulator";
import { credentialsFor, flowWith, helper, sendAndCollect, statusCalls, useNodeRed } from "../support/node-red";
import { waitUntil } from "../support/wait-until";
import { NO_PACING, assertNothingSent, failed, onlyBodyAt, refused, run as runOnce, succeeded } from "../support/outcome";

const PROXY = "morelogin-proxy";
const PASSWORD = "s3cret-proxy-pw";
const NEW_PROXY = { proxyIp: "203.0.113.50", proxyIpType: "str", proxyPort: "8080", proxyPortType: "num", proxyProvider: "2", proxyName: "Bought", proxyNameType: "str" };

/** runOnce on a fresh runtime: a test here sends several messages, each through its own flow. */
async function run(emulator: Emulator, node: Record<string, unknown>, input: Record<string, unknown>) {
  await helper.unload();
  return runOnce(emulator, node, input);
}

/** The proxy, group and tag nodes, and the profile and cloud-phone actions issue 24 adds, against the emulator. */
describe("nodes: proxy, group and tag management (and cleanCloud, newMachine, app restart and uninstall)", () => {
  const { emulator } = useEmulator({ profiles: 6, proxies: 6, groups: 3, tags: 3, cloudPhones: 2, phoneBootMs: 50, appInstallMs: 0 });
  const local = async <T>(path: string, body: unknown): Promise<T> => dataOf<T>(await call(emulator().localUrl, path, { body }));
  const proxies = (): Promise<PageShape<ProxyInfo>> => local("/api/proxyInfo/page", { pageNo: 1, pageSize: 100 });
  /** The proxy node with its password credential (what Node-RED keeps out of flows.json). */
  const proxyNode = async (node: Record<string, unknown>, input: Record<string, unknown>) => {
    await helper.unload();
    return sendAndCollect(flowWith(emulator(), { type: PROXY, ...node }, NO_PACING), input, { ...credentialsFor(emulator()), n1: { password: PASSWORD } });
  };
  useNodeRed(emulator);

  it("proxy add sends the node's fields and its password credential, replies the new ID (msg.topic too), and the proxy lists", async () => {
    const msg = succeeded(await proxyNode({ action: "add", ...NEW_PROXY, ipMonitor: true, ipChangeAction: "1" }, { payload: 1_700_000_000_000 }));
    assert.deepEqual(onlyBodyAt(emulator(), "/api/proxyInfo/add"), {
      proxyIp: "203.0.113.50",
      proxyPort: 8080,
      proxyProvider: 2,
      proxyName: "Bought",
      ipChangeAction: 1,
      ipMonitor: true,
      password: PASSWORD,
    });
    assert.equal(typeof msg.payload, "string");
    assert.match(String(msg.payload), /^\d{19}$/);
    assert.equal(msg.topic, msg.payload);
    assert.ok((await proxies()).dataList.some((proxy) => proxy.id === msg.payload && proxy.proxyName === "Bought"));
  });

  it("proxy add without a host is refused before anything is sent", async () => {
    refused(await run(emulator(), { type: PROXY, action: "add", proxyPort: "8080", proxyPortType: "num" }, { payload: "" }), /proxyIp is missing/);
    assertNothingSent(emulator());
  });

  it("proxy add and update refuse, before sending, what the shared spec does not allow; numeric texts go as integers", async () => {
    const add = { action: "add", ...NEW_PROXY };
    refused(await proxyNode(add, { payload: { proxyPort: 70000 } }), /proxyPort must be an integer from 1 to 65535/);
    refused(await proxyNode({ ...add, proxyProvider: "7" }, { payload: "" }), /proxyType \(the protocol\) is required for proxyProvider 7/);
    refused(await proxyNode(add, { payload: { proxyProvider: 17 } }), /country is required for proxyProvider 17/);
    refused(await proxyNode(add, { payload: { encryptionType: 0 } }), /encryptionType must be an integer from 1 to 14/);
    refused(await proxyNode({ action: "update", proxyId: "1", proxyIdType: "str", ...NEW_PROXY }, { payload: { proxyPort: "80a" } }), /proxyPort must be an integer/);
    assertNothingSent(emulator());
    succeeded(await proxyNode(add, { payload: { proxyPort: "3128", proxyProvider: "1", encryptionType: "14" } }));
    const body = onlyBodyAt(emulator(), "/api/proxyInfo/add") as Record<string, unknown>;
    assert.deepEqual([body.proxyPort, body.proxyProvider, body.encryptionType], [3128, 1, 14]);
  });

  it("group and tag names longer than the spec's 100 characters are refused before anything is sent", async () => {
    const long = "g".repeat(101);
    refused(await run(emulator(), { type: "morelogin-group", action: "create", groupName: long, groupNameType: "str" }, { payload: "" }), /groupName must be text of 1 to 100 characters/);
    refused(await run(emulator(), { type: "morelogin-tag", action: "edit", tagId: "1", tagIdType: "str" }, { payload: { tagName: long } }), /tagName must be text of 1 to 100/);
    assertNothingSent(emulator());
  });

  it("the proxy's password reaches neither the error text, msg.morelogin.error, the status nor the node's properties", async () => {
    emulator().script({ kind: "echo", api: "local", path: "/api/proxyInfo/add", times: 1 });
    const outcome = await proxyNode({ action: "add", ...NEW_PROXY }, { payload: { username: "buyer" } });
    const { text, error } = failed(outcome);
    assert.match(text, /^proxy failed: /);
    assert.match(text, /echo of POST/, "the fault did repeat the request");
    assert.ok(!text.includes(PASSWORD), text);
    assert.ok(!JSON.stringify(error).includes(PASSWORD));
    assert.ok(!JSON.stringify(statusCalls(outcome.node)).includes(PASSWORD));
    assert.ok(!JSON.stringify(outcome.caught[0]).includes(PASSWORD));
    assert.ok(!("password" in outcome.node), "the password is no node property, only a credential");
  });

  it("proxy update overwrites the proxy picked in the node; delete takes the proxies a list node sends, as one bare array", async () => {
    const [first, second] = (await proxies()).dataList.filter((proxy) => proxy.proxyCategoryType === 2);
    assert.ok(first && second);
    const updated = succeeded(await proxyNode({ action: "update", proxyId: first.id, proxyIdType: "str", ...NEW_PROXY, proxyIp: "198.51.100.20" }, { payload: "" }));
    assert.equal(updated.topic, first.id);
    assert.equal((onlyBodyAt(emulator(), "/api/proxyInfo/update") as { id: string }).id, first.id);
    assert.equal((await proxies()).dataList.find((proxy) => proxy.id === first.id)?.proxyIp, "198.51.100.20");

    const deleted = succeeded(await run(emulator(), { type: PROXY, action: "delete" }, { payload: [first, second] }));
    assert.deepEqual(onlyBodyAt(emulator(), "/api/proxyInfo/delete"), [first.id, second.id]);
    assert.equal(deleted.payload, null);
    const left = (await proxies()).dataList.map((proxy) => proxy.id);
    assert.ok(!left.includes(first.id) && !left.includes(second.id));
    refused(await run(emulator(), { type: PROXY, action: "delete" }, { payload: "" }), /no proxy given/);
  });

  it("group create, rename and delete (with its profiles, from list groups items); a duplicate name is the API's error 15001", async () => {
    const created = succeeded(await run(emulator(), { type: "morelogin-group", action: "create", groupName: "Rotation", groupNameType: "str" }, { payload: "" }));
    const group = created.payload as Group;
    assert.equal(group.groupName, "Rotation");
    assert.equal(created.topic, group.id);
    const { error } = failed(await run(emulator(), { type: "morelogin-group", action: "create" }, { payload: { groupName: "Rotation" } }));
    assert.equal(error.code, 15001);
    refused(await run(emulator(), { type: "morelogin-group", action: "edit", groupName: "Renamed", groupNameType: "str" }, { payload: "" }), /id is missing/);
    succeeded(await run(emulator(), { type: "morelogin-group", action: "edit", groupId: group.id, groupIdType: "str" }, { payload: { groupName: "Renamed" } }));
    const envId = emulator().data.profiles[0]?.id;
    await local("/api/env/setGroup/batch", { envIds: [envId], groupName: "Renamed" });
    const listed = await local<PageShape<Group>>("/api/envgroup/page", { groupName: "Renamed", pageNo: 1, pageSize: 10 });
    succeeded(await run(emulator(), { type: "morelogin-group", action: "delete", isDeleteAllEnv: true }, { payload: listed.dataList }));
    assert.deepEqual(onlyBodyAt(emulator(), "/api/envgroup/delete"), { ids: [group.id], isDeleteAllEnv: true });
    assert.ok(!emulator().data.profiles.some((profile) => profile.id === envId), "its profile went to the recycle bin");
  });

  it("tag create, rename and delete; rename without a name is refused before anything is sent", async () => {
    const created = succeeded(await run(emulator(), { type: "morelogin-tag", action: "create", tagName: "warm-up", tagNameType: "str" }, { payload: "" }));
    const tag = created.payload as Tag;
    assert.equal(created.topic, tag.id);
    refused(await run(emulator(), { type: "morelogin-tag", action: "edit", tagId: tag.id, tagIdType: "str" }, { payload: "" }), /tagName is missing/);
    succeeded(await run(emulator(), { type: "morelogin-tag", action: "edit", tagId: tag.id, tagIdType: "str", tagName: "ready", tagNameType: "str" }, { payload: "" }));
    assert.equal(emulator().data.tags.find((t) => t.id === tag.id)?.tagName, "ready");
    succeeded(await run(emulator(), { type: "morelogin-tag", action: "delete", tagId: tag.id, tagIdType: "str" }, { payload: "" }));
    assert.deepEqual(onlyBodyAt(emulator(), "/api/envtag/delete"), { ids: [tag.id] });
    assert.ok(!emulator().data.tags.some((t) => t.id === tag.id));
  });

  it("profile cleanCloud sends the ticked kinds as cookie and others; with none ticked it is refused before sending", async () => {
    const envId = emulator().data.profiles[1]?.id;
    const msg = succeeded(await run(emulator(), { type: "morelogin-profile", action: "cleanCloud", cloudOthers: true }, { payload: envId }));
    assert.deepEqual(onlyBodyAt(emulator(), "/api/env/cache/cleanCloud"), { envId, others: true });
    assert.equal(msg.topic, envId);
    refused(await run(emulator(), { type: "morelogin-profile", action: "cleanCloud" }, { payload: envId }), /nothing to clean/);
  });

  it("cloud phone restartApp, uninstallApp and newMachine send the phone, package, brand and model", async () => {
    const phone = emulator().data.cloudPhones[0];
    assert.ok(phone);
    await call(emulator().localUrl, "/api/cloudphone/powerOff", { body: { id: phone.id } });
    await local("/api/cloudphone/powerOn", { id: phone.id });
    const status = async (): Promise<number> => (await local<{ envStatus: number }>("/api/cloudphone/info", { id: phone.id })).envStatus;
    await waitUntil(status, (value) => value === 4, "the phone is on", 15_000);
    const app = emulator().data.apps[0];
    assert.ok(app);
    const node = { type: "morelogin-cloud-phone", api: "local", phoneId: phone.id, phoneIdType: "str", packageName: app.packageName, packageNameType: "str" };
    assert.equal(succeeded(await run(emulator(), { ...node, action: "restartApp" }, { payload: "" })).payload, true);
    assert.deepEqual(onlyBodyAt(emulator(), "/api/cloudphone/app/restart"), { id: phone.id, packageName: app.packageName });
    assert.equal(succeeded(await run(emulator(), { ...node, action: "uninstallApp" }, { payload: "" })).payload, true);
    assert.deepEqual(onlyBodyAt(emulator(), "/api/cloudphone/app/uninstall"), { id: phone.id, packageName: app.packageName });
    refused(await run(emulator(), { ...node, packageName: "", action: "restartApp" }, { payload: "" }), /packageName is missing/);
    const renewed = succeeded(await run(emulator(), { ...node, action: "newMachine", brand: "google", brandType: "str", modelId: "7", modelIdType: "num" }, { payload: "" }));
    assert.deepEqual(onlyBodyAt(emulator(), "/api/cloudphone/newMachine"), { id: phone.id, brand: "google", modelId: 7 });
    assert.equal(renewed.topic, phone.id);
  });
});
