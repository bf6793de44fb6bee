import assert from "node:assert/strict";
import type { Profile, ProxyInfo } from "../../src/emulator";
import { call, dataOf, expectError, type PageShape } from "../support/http";
import { useEmulator } from "../support/emulator";

type Detail = Profile & Record<string, unknown>;

describe("emulator: profile management", () => {
  const { emulator } = useEmulator({ profiles: 6, proxies: 4, groups: 2, tags: 3 });
  const local = (path: string, body: unknown) => call(emulator().localUrl, path, { body });
  const page = async (): Promise<Profile[]> => dataOf<PageShape<Profile>>(await local("/api/env/page", { pageNo: 1, pageSize: 100 })).dataList;
  const detail = async (envId: string): Promise<Detail> => dataOf<Detail>(await local("/api/env/detail", { envId }));
  const profileId = (index: number): string => {
    const id = emulator().data.profiles[index]?.id;
    assert.ok(id);
    return id;
  };

  describe("/api/env/create/quick", () => {
    it("creates `quantity` profiles, replies their IDs as 19-digit strings in order, and lists them after the others", async () => {
      const before = await page();
      const ids = dataOf<string[]>(await local("/api/env/create/quick", { browserTypeId: 1, operatorSystemId: 2, quantity: 3 }));
      assert.equal(ids.length, 3);
      for (const id of ids) assert.match(id, /^\d{19}$/);
      assert.equal(new Set([...ids, ...before.map((p) => p.id)]).size, before.length + 3, "new IDs are unique");
      const after = await page();
      assert.deepEqual(
        after.slice(before.length).map((p) => p.id),
        ids,
      );
      // Serial numbers continue after the seeded profiles; new profiles are named P-<serial>.
      const serial = before.length + 1;
      assert.deepEqual(
        after.slice(before.length).map((p) => [p.envName, p.groupId, p.groupName, p.proxyId, p.proxy, p.tagInfos, p.envRemark]),
        [0, 1, 2].map((i) => [`P-${serial + i}`, "0", null, "0", null, [], null]),
      );
      const started = dataOf<{ envId: string }>(await local("/api/env/start", { uniqueId: serial + 1 }));
      assert.equal(started.envId, ids[1]);
      await local("/api/env/close", { envId: ids[1] });
      const created = await detail(ids[2] ?? "");
      assert.deepEqual([created.browserTypeId, created.operatorSystemId, created.isEncrypt, created.browserCore], [1, 2, 0, 0]);
    });

    it("puts new profiles into the group named, creating it once, and onto the proxy given", async () => {
      const proxy = emulator().data.proxies[1];
      assert.ok(proxy);
      const [first] = dataOf<string[]>(await local("/api/env/create/quick", { browserTypeId: 1, operatorSystemId: 1, quantity: 1, groupName: "Quick team", proxy: { proxyId: proxy.id } }));
      const [second] = dataOf<string[]>(await local("/api/env/create/quick", { browserTypeId: 2, operatorSystemId: 1, quantity: "1", groupName: "Quick team", browserCore: 130 }));
      const groups = emulator().data.groups.filter((g) => g.groupName === "Quick team");
      assert.equal(groups.length, 1, "the group is created once");
      const listed = await page();
      const a = listed.find((p) => p.id === first);
      const b = listed.find((p) => p.id === second);
      assert.deepEqual([a?.groupId, a?.groupName, a?.proxyId, a?.proxy], [groups[0]?.id, "Quick team", proxy.id, proxy]);
      assert.deepEqual([b?.groupId, b?.proxyId], [groups[0]?.id, "0"]);
      const firefox = await detail(second ?? "");
      assert.deepEqual([firefox.browserTypeId, firefox.browserCore, firefox.uaVersion], [2, 130, 130]);
      const groupPage = dataOf<PageShape<{ id: string; groupName: string }>>(await local("/api/envgroup/page", { groupName: "Quick", pageNo: 1, pageSize: 10 }));
      assert.deepEqual(groupPage.dataList, groups);
    });

    it("refuses a missing required field, a quantity out of 1 to 50, Firefox on a mobile OS and an unknown group with 99001", async () => {
      const base = { browserTypeId: 1, operatorSystemId: 1, quantity: 1 };
      const count = emulator().data.profiles.length;
      for (const field of ["browserTypeId", "operatorSystemId", "quantity"] as const) {
        const { [field]: _, ...body } = base;
        expectError(await local("/api/env/create/quick", body), 200, 99001, `Request parameter error: ${field} is required`);
      }
      for (const quantity of [0, 51]) expectError(await local("/api/env/create/quick", { ...base, quantity }), 200, 99001, "Request parameter error: quantity must be from 1 to 50");
      expectError(await local("/api/env/create/quick", { ...base, browserTypeId: 3 }), 200, 99001, "Request parameter error: browserTypeId must be one of 1, 2");
      expectError(await local("/api/env/create/quick", { ...base, browserTypeId: 2, operatorSystemId: 3 }), 200, 99001, "Request parameter error: Firefox is only available on Windows and macOS");
      expectError(await local("/api/env/create/quick", { ...base, groupId: "1234567890123456789" }), 200, 99001, "Request parameter error: group 1234567890123456789 does not exist");
      assert.equal(emulator().data.profiles.length, count, "nothing was created");
    });
  });

  describe("/api/env/update", () => {
    it("changes only the fields sent, in the list and in the detail", async () => {
      const envId = profileId(0);
      const before = await detail(envId);
      const tag = emulator().data.tags[2];
      assert.ok(tag);
      dataOf(await local("/api/env/update", { envId, envName: "Renamed", tagIds: [tag.id], advancedSetting: { hardware_concurrency: 8 }, uaVersion: 139 }));
      const after = await detail(envId);
      assert.deepEqual({ ...after, envName: before.envName, tagInfos: before.tagInfos, advancedSetting: {}, uaVersion: before.uaVersion }, { ...before, advancedSetting: {} }, "nothing else changed");
      assert.deepEqual([after.envName, after.tagInfos, after.advancedSetting, after.uaVersion], ["Renamed", [tag], { hardware_concurrency: 8 }, 139]);
      assert.equal((await page()).find((p) => p.id === envId)?.envName, "Renamed");

      dataOf(await local("/api/env/update", { envId, advancedSetting: { do_not_track: 1 }, envRemark: "hello", browserTypeId: 1 }));
      const merged = await detail(envId);
      assert.deepEqual(merged.advancedSetting, { hardware_concurrency: 8, do_not_track: 1 }, "advancedSetting is merged");
      assert.deepEqual([merged.envName, merged.envRemark], ["Renamed", "hello"]);
    });

    it("moves a profile between groups and proxies, and clears its proxy with proxyId 0", async () => {
      const envId = profileId(1);
      const group = emulator().data.groups[0];
      const proxy = emulator().data.proxies[2];
      assert.ok(group && proxy);
      dataOf(await local("/api/env/update", { envId, groupId: group.id, proxyId: proxy.id }));
      let listed = (await page()).find((p) => p.id === envId);
      assert.deepEqual([listed?.groupId, listed?.groupName, listed?.proxyId, listed?.proxy], [group.id, group.groupName, proxy.id, proxy]);
      dataOf(await local("/api/env/update", { envId, groupId: "0", proxyId: "0" }));
      listed = (await page()).find((p) => p.id === envId);
      assert.deepEqual([listed?.groupId, listed?.groupName, listed?.proxyId, listed?.proxy], ["0", null, "0", null]);
    });

    it("refuses an unknown profile (101), an unknown proxy (14024), a changed OS or browser type and an unknown tag (99001), changing nothing", async () => {
      const envId = profileId(2);
      const before = await detail(envId);
      expectError(await local("/api/env/update", { envId: "1234567890123456789", envName: "x" }), 200, 101, "Profile not found");
      expectError(await local("/api/env/update", { envName: "x" }), 200, 99001, "Request parameter error: envId is required");
      expectError(await local("/api/env/update", { envId, envName: "x", proxyId: "1234567890123456789" }), 200, 14024, "Proxy does not exist");
      expectError(await local("/api/env/update", { envId, envName: "x", operatorSystemId: 2 }), 200, 99001, "Request parameter error: operatorSystemId cannot be changed");
      expectError(await local("/api/env/update", { envId, envName: "x", browserTypeId: 2 }), 200, 99001, "Request parameter error: browserTypeId cannot be changed");
      expectError(await local("/api/env/update", { envId, envName: "x", tagIds: ["1234567890123456789"] }), 200, 99001, "Request parameter error: tagIds names a tag that does not exist");
      assert.deepEqual(await detail(envId), before);
    });
  });

  describe("/api/env/removeToRecycleBin/batch", () => {
    it("removes the profiles from the list, the detail and start; a second delete finds them gone", async () => {
      const ids = dataOf<string[]>(await local("/api/env/create/quick", { browserTypeId: 1, operatorSystemId: 1, quantity: 2 }));
      const serial = (await page()).length - 1;
      assert.equal(dataOf<boolean>(await local("/api/env/removeToRecycleBin/batch", { envIds: ids, removeEnvData: true })), true);
      const listed = await page();
      assert.ok(!listed.some((p) => ids.includes(p.id)));
      const total = dataOf<PageShape<Profile>>(await local("/api/env/page", { pageSize: 1 })).total;
      assert.equal(total, String(listed.length));
      for (const path of ["/api/env/detail", "/api/env/status", "/api/env/start"]) expectError(await local(path, { envId: ids[0] }), 200, 101, "Profile not found");
      expectError(await local("/api/env/start", { uniqueId: serial }), 200, 101, "Profile not found");
      expectError(await local("/api/env/removeToRecycleBin/batch", { envIds: ids }), 200, 101, "Profile not found");
    });

    it("refuses to delete a running profile (100) and deletes none of a batch that names an unknown one (101)", async () => {
      const [running, other] = [profileId(3), profileId(4)];
      dataOf(await local("/api/env/start", { envId: running }));
      expectError(await local("/api/env/removeToRecycleBin/batch", { envIds: [other, running] }), 200, 100, "Profile is running; close it first");
      expectError(await local("/api/env/removeToRecycleBin/batch", { envIds: [other, "1234567890123456789"] }), 200, 101, "Profile not found");
      const listed = (await page()).map((p) => p.id);
      assert.ok(listed.includes(running) && listed.includes(other), "both are still listed");
      await local("/api/env/close", { envId: running });
      for (const envIds of [undefined, []]) expectError(await local("/api/env/removeToRecycleBin/batch", { envIds }), 200, 99001, "Request parameter error: envIds is required");
    });
  });

  describe("fingerprint refresh and local cache", () => {
    it("/api/env/fingerprint/refresh takes the values sent and starts a fresh fingerprint", async () => {
      const envId = profileId(5);
      dataOf(await local("/api/env/update", { envId, advancedSetting: { canvas: { switcher: 2 } } }));
      assert.equal(dataOf(await local("/api/env/fingerprint/refresh", { envId, uaVersion: 129 })), null);
      const refreshed = await detail(envId);
      assert.deepEqual([refreshed.uaVersion, refreshed.advancedSetting], [129, {}]);
      dataOf(await local("/api/env/fingerprint/refresh", { uniqueId: "6", advancedSetting: { web_gpu: { switcher: 3 } } }));
      assert.deepEqual((await detail(envId)).advancedSetting, { web_gpu: { switcher: 3 } });
      expectError(await local("/api/env/fingerprint/refresh", {}), 200, 99001, "Request parameter error: envId or uniqueId is required");
      expectError(await local("/api/env/fingerprint/refresh", { envId: "1234567890123456789" }), 200, 101, "Profile not found");
    });

    it("/api/env/removeLocalCache replies the envId when at least one cache type is chosen", async () => {
      const envId = profileId(0);
      assert.deepEqual(dataOf(await local("/api/env/removeLocalCache", { envId, cookie: true })), { envId });
      assert.deepEqual(dataOf(await local("/api/env/removeLocalCache", { uniqueId: 1, extensionFile: true })), { envId });
      expectError(await local("/api/env/removeLocalCache", { envId, cookie: false }), 200, 99001, "Request parameter error: select at least one cache type");
      expectError(await local("/api/env/removeLocalCache", { cookie: true }), 200, 99001, "Request parameter error: envId or uniqueId is required");
      expectError(await local("/api/env/removeLocalCache", { envId: "1234567890123456789", cookie: true }), 200, 101, "Profile not found");
    });

    it("/api/env/removeLocalCache makes a Firefox profile clear every type at once", async () => {
      const [envId] = dataOf<string[]>(await local("/api/env/create/quick", { browserTypeId: 2, operatorSystemId: 2, quantity: 1 }));
      expectError(await local("/api/env/removeLocalCache", { envId, cookie: true }), 200, 99001, "Request parameter error: Firefox profiles must clear every cache type at once");
      dataOf(await local("/api/env/removeLocalCache", { envId, cookie: true, localStorage: true, indexedDB: true, extension: true }));
    });
  });

  describe("batch group, proxy and remark", () => {
    it("/api/env/setGroup/batch moves profiles by ID and serial number into a group it creates when new", async () => {
      const [a, b] = [profileId(0), profileId(1)];
      assert.equal(dataOf(await local("/api/env/setGroup/batch", { envIds: [a], uniqueIds: ["2"], groupName: "Batch group" })), true);
      const group = emulator().data.groups.find((g) => g.groupName === "Batch group");
      assert.ok(group);
      const listed = await page();
      for (const id of [a, b]) assert.deepEqual([listed.find((p) => p.id === id)?.groupId, listed.find((p) => p.id === id)?.groupName], [group.id, "Batch group"]);
      expectError(await local("/api/env/setGroup/batch", { envIds: [a] }), 200, 99001, "Request parameter error: groupName is required");
      expectError(await local("/api/env/setGroup/batch", { groupName: "x" }), 200, 99001, "Request parameter error: envIds or uniqueIds is required");
      expectError(await local("/api/env/setGroup/batch", { envIds: [a, "1234567890123456789"], groupName: "Never made" }), 200, 101, "Profile not found");
      assert.ok(!emulator().data.groups.some((g) => g.groupName === "Never made"), "a refused batch creates no group");
    });

    it("/api/env/setProxy/batch binds an existing proxy, reuses one with the same details and adds a new one otherwise", async () => {
      const [a, b] = [profileId(2), profileId(3)];
      const existing = emulator().data.proxies[0] as ProxyInfo;
      dataOf(await local("/api/env/setProxy/batch", { envIds: [a, b], proxy: { proxyId: existing.id } }));
      assert.deepEqual(
        (await page()).filter((p) => p.id === a || p.id === b).map((p) => p.proxyId),
        [existing.id, existing.id],
      );
      const count = emulator().data.proxies.length;
      const same = { proxyIp: existing.proxyIp, proxyPort: existing.proxyPort, proxyProvider: String(existing.proxyProvider) };
      dataOf(await local("/api/env/setProxy/batch", { envIds: [a], proxy: same }));
      assert.equal(emulator().data.proxies.length, count, "the same details reuse the proxy");
      const fresh = { proxyIp: "198.51.100.77", proxyPort: 3128, proxyProvider: 0, proxyName: "Fresh", country: "us", username: "u" };
      dataOf(await local("/api/env/setProxy/batch", { uniqueIds: [3], proxy: fresh }));
      const added = emulator().data.proxies.at(-1);
      assert.equal(emulator().data.proxies.length, count + 1);
      assert.ok(added);
      assert.match(added.id, /^\d{19}$/);
      assert.deepEqual(
        [added.proxyName, added.proxyIp, added.proxyPort, added.proxyProvider, added.proxyCategoryType, added.proxyStatus, added.countryCode, added.username, added.password],
        ["Fresh", "198.51.100.77", 3128, 0, 2, 1, "US", "u", null],
      );
      assert.equal((await page()).find((p) => p.id === a)?.proxyId, added.id);
      const listedProxies = dataOf<PageShape<ProxyInfo>>(await local("/api/proxyInfo/page", { id: added.id }));
      assert.deepEqual(listedProxies.dataList, [added], "the new proxy is in the proxy list");
    });

    it("/api/env/setProxy/batch refuses a missing proxy (99001), an unknown proxyId (14024) and details without host, port or type", async () => {
      const envIds = [profileId(4)];
      expectError(await local("/api/env/setProxy/batch", { envIds }), 200, 99001, "Request parameter error: proxy is required");
      expectError(await local("/api/env/setProxy/batch", { envIds, proxy: { proxyId: "1234567890123456789" } }), 200, 14024, "Proxy does not exist");
      expectError(await local("/api/env/setProxy/batch", { envIds, proxy: { proxyIp: "198.51.100.1", proxyPort: 80 } }), 200, 14025, "Proxy type is empty");
      expectError(await local("/api/env/setProxy/batch", { envIds, proxy: { proxyProvider: 0, proxyPort: 80 } }), 200, 14021, "Proxy host is empty");
      expectError(await local("/api/env/setProxy/batch", { envIds, proxy: { proxyProvider: 0, proxyIp: "198.51.100.1" } }), 200, 14022, "Proxy port is empty");
      expectError(await local("/api/env/setProxy/batch", { envIds: ["1234567890123456789"], proxy: { proxyId: emulator().data.proxies[0]?.id } }), 200, 101, "Profile not found");
    });

    it("/api/env/setRemark/batch sets the remark, and an empty one clears it", async () => {
      const envIds = [profileId(0), profileId(1)];
      dataOf(await local("/api/env/setRemark/batch", { envIds, envRemark: "batch remark" }));
      assert.deepEqual(
        (await page()).filter((p) => envIds.includes(p.id)).map((p) => p.envRemark),
        ["batch remark", "batch remark"],
      );
      dataOf(await local("/api/env/setRemark/batch", { envIds, envRemark: "" }));
      assert.deepEqual(
        (await page()).filter((p) => envIds.includes(p.id)).map((p) => p.envRemark),
        [null, null],
      );
      expectError(await local("/api/env/setRemark/batch", { envIds }), 200, 99001, "Request parameter error: envRemark is required");
      expectError(await local("/api/env/setRemark/batch", { envIds, envRemark: "x".repeat(1501) }), 200, 99001, "Request parameter error: envRemark must be at most 1500 characters");
    });
  });

  it("serves none of these on the Open API (MoreLogin documents them on the Local API only)", async () => {
    for (const path of ["/env/create/quick", "/env/update", "/env/removeToRecycleBin/batch", "/env/setGroup/batch"]) {
      expectError(await call(emulator().openUrl, path, { body: {} }), 404, 404);
    }
  });
});
