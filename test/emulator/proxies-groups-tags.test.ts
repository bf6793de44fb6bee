import assert from "node:assert/strict";
import type { Group, Profile, ProxyInfo, Tag } from "../../src/emulator";
import { bearer, useEmulator } from "../support/emulator";
import { call, dataOf, expectError, type PageShape } from "../support/http";
import { waitUntil } from "../support/wait-until";

/** Proxy, group and tag management, the cloud cache clean and the cloud-phone actions of issue 24. */
describe("emulator: proxies, groups, tags and the CLI's other writes", () => {
  const { emulator } = useEmulator({ profiles: 4, proxies: 8, groups: 2, tags: 3, cloudPhones: 2, phoneBootMs: 50, appInstallMs: 0 });
  const local = (path: string, body: unknown) => call(emulator().localUrl, path, { body });
  const missing = (field: string): string => `Request parameter error: ${field} is required`;
  const proxies = async (): Promise<ProxyInfo[]> => dataOf<PageShape<ProxyInfo>>(await local("/api/proxyInfo/page", { pageNo: 1, pageSize: 100 })).dataList;
  const groups = async (): Promise<Group[]> => dataOf<PageShape<Group>>(await local("/api/envgroup/page", { groupName: "", pageNo: 1, pageSize: 100 })).dataList;
  const tags = async (): Promise<Tag[]> => dataOf<Tag[]>(await call(emulator().localUrl, "/api/envtag/all", { method: "GET" }));
  const detail = async (envId: string): Promise<Profile> => dataOf<Profile>(await local("/api/env/detail", { envId }));
  const profile = (index: number): Profile => {
    const found = emulator().data.profiles[index];
    assert.ok(found);
    return found;
  };
  const ADDED = { proxyIp: "203.0.113.200", proxyPort: 8080, proxyProvider: 0, proxyName: "Rotated", username: "u", password: "secret-pw" };

  it("proxyInfo/add replies the new ID as a bare JSON integer; the proxy lists, binds with setProxy/batch and shows in the detail", async () => {
    const answer = await local("/api/proxyInfo/add", ADDED);
    const id = /"data":(\d{19}),/.exec(answer.text)?.[1];
    assert.ok(id, answer.text);
    const listed = (await proxies()).find((proxy) => proxy.id === id);
    assert.equal(listed?.proxyName, "Rotated");
    assert.equal(listed?.password, null, "lists withhold the password");
    assert.ok(!JSON.stringify(await proxies()).includes("secret-pw"));
    dataOf(await local("/api/env/setProxy/batch", { envIds: [profile(0).id], proxy: { proxyId: id } }));
    const bound = await detail(profile(0).id);
    assert.equal(bound.proxyId, id);
    assert.equal(bound.proxy?.proxyIp, "203.0.113.200");
  });

  it("proxyInfo/add and update check the spec's required fields and rules", async () => {
    for (const field of ["proxyIp", "proxyPort", "proxyProvider"] as const) {
      const { [field]: _, ...body } = ADDED;
      expectError(await local("/api/proxyInfo/add", body), 200, 99001, missing(field));
    }
    expectError(await local("/api/proxyInfo/add", { ...ADDED, proxyPort: 70000 }), 200, 99001);
    expectError(await local("/api/proxyInfo/add", { ...ADDED, proxyProvider: 7 }), 200, 99001, "Request parameter error: proxyType is required for this proxyProvider");
    expectError(await local("/api/proxyInfo/update", ADDED), 200, 99001, missing("id"));
    expectError(await local("/api/proxyInfo/update", { ...ADDED, id: "1" }), 200, 14024);
    // encryptionType: 1 to 14 for add; update's own example sends 0 ("usually 0 for plain").
    expectError(await local("/api/proxyInfo/add", { ...ADDED, encryptionType: 0 }), 200, 99001);
    const id = (await proxies()).find((proxy) => proxy.proxyName === "Rotated")?.id;
    assert.ok(id);
    dataOf(await local("/api/proxyInfo/update", { ...ADDED, id, encryptionType: 0 }));
  });

  it("proxyInfo/update overwrites the whole record: fields left out fall back, bound profiles show the new details", async () => {
    const id = (await proxies()).find((proxy) => proxy.proxyName === "Rotated")?.id;
    assert.ok(id);
    dataOf(await local("/api/proxyInfo/update", { id, proxyIp: "198.51.100.7", proxyPort: 3128, proxyProvider: 2 }));
    const updated = (await proxies()).find((proxy) => proxy.id === id);
    assert.equal(updated?.proxyIp, "198.51.100.7");
    assert.equal(updated?.username, "", "a full overwrite: the username left out is gone");
    assert.match(updated?.proxyName ?? "", /^Proxy /, "the name left out falls back to a default");
    assert.equal((await detail(profile(0).id)).proxy?.proxyIp, "198.51.100.7");
  });

  it("proxyInfo/delete takes a bare array; unknown IDs are ignored; profiles keep pointing at the deleted proxy", async () => {
    const id = (await proxies()).find((proxy) => proxy.proxyIp === "198.51.100.7")?.id;
    assert.ok(id);
    expectError(await local("/api/proxyInfo/delete", { ids: [id] }), 200, 99001);
    expectError(await local("/api/proxyInfo/delete", ["1"]), 200, 14024);
    dataOf(await local("/api/proxyInfo/delete", [id, "1"]));
    assert.ok(!(await proxies()).some((proxy) => proxy.id === id));
    assert.equal((await detail(profile(0).id)).proxyId, id, "the spec: bound profiles are neither blocked nor unbound");
    const platform = emulator().data.proxies.find((proxy) => proxy.proxyCategoryType === 1 && proxy.proxyStatus !== 3);
    assert.ok(platform);
    expectError(await local("/api/proxyInfo/delete", [platform.id]), 200, 14017);
  });

  it("proxyInfo/delete takes the IDs as JSON int64 numbers too, digit for digit, as the official CLI sends them", async () => {
    const id = /"data":(\d{19}),/.exec((await local("/api/proxyInfo/add", ADDED)).text)?.[1];
    assert.ok(id && !Number.isSafeInteger(Number(id)), "a 19-digit ID that a JavaScript number would round");
    dataOf(await local("/api/proxyInfo/delete", `[${id}]`));
    assert.ok(!(await proxies()).some((proxy) => proxy.id === id));
  });

  it("groups: create (duplicate names 15001), edit renames for members, delete ungroups them or moves them to the recycle bin", async () => {
    const created = dataOf<Group>(await local("/api/envgroup/create", { groupName: "Rotation" }));
    assert.match(created.id, /^\d{19}$/);
    assert.equal(created.groupName, "Rotation");
    expectError(await local("/api/envgroup/create", { groupName: "Rotation" }), 200, 15001);
    expectError(await local("/api/envgroup/create", {}), 200, 99001, missing("groupName"));
    dataOf(await local("/api/env/setGroup/batch", { envIds: [profile(1).id, profile(2).id], groupName: "Rotation" }));
    assert.equal(dataOf<boolean>(await local("/api/envgroup/edit", { id: created.id, groupName: "Renamed" })), true);
    assert.equal((await detail(profile(1).id)).groupName, "Renamed");
    const other = (await groups()).find((group) => group.id !== created.id);
    assert.ok(other);
    expectError(await local("/api/envgroup/edit", { id: created.id, groupName: other.groupName }), 200, 15001);
    assert.equal(dataOf<boolean>(await local("/api/envgroup/delete", { ids: [created.id] })), true);
    assert.ok(!(await groups()).some((group) => group.id === created.id));
    const ungrouped = await detail(profile(1).id);
    assert.deepEqual([ungrouped.groupId, ungrouped.groupName], ["0", null]);

    const binned = dataOf<Group>(await local("/api/envgroup/create", { groupName: "Bin" }));
    const envId = profile(2).id;
    dataOf(await local("/api/env/setGroup/batch", { envIds: [envId], groupName: "Bin" }));
    dataOf(await local("/api/envgroup/delete", { ids: [binned.id], isDeleteAllEnv: true }));
    expectError(await local("/api/env/detail", { envId }), 200, 101);
  });

  it("tags: create (duplicate names 15002), edit renames on profiles, delete removes them; a repeat delete reports them invalid", async () => {
    const created = dataOf<Tag>(await local("/api/envtag/create", { tagName: "Rotated" }));
    assert.match(created.id, /^\d+$/);
    expectError(await local("/api/envtag/create", { tagName: "Rotated" }), 200, 15002);
    dataOf(await local("/api/env/update", { envId: profile(0).id, tagIds: [created.id] }));
    dataOf(await local("/api/envtag/edit", { id: created.id, tagName: "Fresh" }));
    assert.deepEqual((await detail(profile(0).id)).tagInfos, [{ id: created.id, tagName: "Fresh" }]);
    assert.ok((await tags()).some((tag) => tag.tagName === "Fresh"));
    const phoneId = emulator().data.cloudPhones[0]?.id;
    dataOf(await local("/api/cloudphone/edit/batch", { id: [phoneId], tags: ["Fresh"] }));
    const phoneTags = async (): Promise<Tag[]> => dataOf<{ tagInfos: Tag[] }>(await local("/api/cloudphone/info", { id: phoneId })).tagInfos;
    assert.ok((await phoneTags()).some((tag) => tag.id === created.id));
    dataOf(await local("/api/envtag/delete", { ids: [created.id] }));
    assert.deepEqual((await detail(profile(0).id)).tagInfos, []);
    assert.ok(!(await phoneTags()).some((tag) => tag.id === created.id), "cloud-phone profiles lose it too");
    expectError(await local("/api/envtag/delete", { ids: [created.id] }), 200, 19105);
    expectError(await local("/api/envtag/edit", { id: created.id }), 200, 99001, missing("tagName"));
  });

  it("the Open API serves the same management paths without /api", async () => {
    const headers = await bearer(emulator());
    const openGroups = async (): Promise<Group[]> =>
      dataOf<PageShape<Group>>(await call(emulator().openUrl, "/envgroup/page", { body: { groupName: "", pageNo: 1, pageSize: 100 }, headers })).dataList;
    const created = dataOf<Group>(await call(emulator().openUrl, "/envgroup/create", { body: { groupName: "Open group" }, headers }));
    assert.deepEqual(
      (await openGroups()).filter((group) => group.id === created.id).map((group) => group.groupName),
      ["Open group"],
      "the group the Open API created is listed, on the Open API",
    );
    assert.ok(
      (await groups()).some((group) => group.id === created.id),
      "and on the Local API: one account",
    );
    dataOf(await call(emulator().openUrl, "/envgroup/delete", { body: { ids: [created.id] }, headers }));
    assert.ok(!(await openGroups()).some((group) => group.id === created.id), "the deleted group is gone");
  });

  it("env/cache/cleanCloud needs a profile and cookie or others", async () => {
    assert.equal(dataOf<null>(await local("/api/env/cache/cleanCloud", { envId: profile(0).id, cookie: true })), null);
    expectError(await local("/api/env/cache/cleanCloud", { envId: profile(0).id }), 200, 99001, "Request parameter error: select cookie, others or both");
    expectError(await local("/api/env/cache/cleanCloud", { envId: "1", others: true }), 200, 101);
  });
});

/**
 * The phone actions, on an emulator whose phones take 2 s to boot and to reset: the refusal while a new
 * device is being made must be asked for while it is (50 ms, as above, is gone on a busy machine).
 */
describe("emulator: the CLI's cloud-phone writes", () => {
  const { emulator } = useEmulator({ cloudPhones: 2, phoneBootMs: 2_000, appInstallMs: 0 });
  const local = (path: string, body: unknown) => call(emulator().localUrl, path, { body });
  const missing = (field: string): string => `Request parameter error: ${field} is required`;

  it("cloud phones: app restart and uninstall, newMachine resets (5) then is on again (4), updateAdb takes a batch", async () => {
    const ids = emulator().data.cloudPhones.map((phone) => phone.id);
    const [id] = ids;
    assert.ok(id);
    for (const phone of ids) await local("/api/cloudphone/powerOff", { id: phone });
    expectError(await local("/api/cloudphone/newMachine", { id }), 200, 33301);
    dataOf(await local("/api/cloudphone/powerOn", { id }));
    const status = async (): Promise<number> => dataOf<{ envStatus: number }>(await local("/api/cloudphone/info", { id })).envStatus;
    await waitUntil(status, (value) => value === 4, "the phone is on", 15_000);
    const app = emulator().data.apps[0];
    const version = app?.appVersionList[0];
    assert.ok(app && version);
    dataOf(await local("/api/cloudphone/app/install", { id, appVersionId: version.id }));
    assert.equal(dataOf<boolean>(await local("/api/cloudphone/app/restart", { id, packageName: app.packageName })), true);
    expectError(await local("/api/cloudphone/app/restart", { id }), 200, 99001, missing("packageName"));
    assert.equal(dataOf<boolean>(await local("/api/cloudphone/app/uninstall", { id, packageName: app.packageName })), true);
    const installed = dataOf<{ packageName: string }[]>(await local("/api/cloudphone/app/installedList", { id }));
    assert.ok(!installed.some((row) => row.packageName === app.packageName));
    dataOf(await local("/api/cloudphone/updateAdb", { ids, enableAdb: true }));
    for (const row of dataOf<{ enableAdb: boolean }[]>(await local("/api/cloudphone/batchAdbInfo", { envIds: ids }))) assert.equal(row.enableAdb, true);
    dataOf(await local("/api/cloudphone/newMachine", { id, brand: "google", modelId: 1 }));
    assert.equal(await status(), 5);
    expectError(await local("/api/cloudphone/powerOff", { id }), 200, 33331);
    await waitUntil(status, (value) => value === 4, "the new device is on", 15_000);
  });
});
