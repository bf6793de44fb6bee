import assert from "node:assert/strict";
import type { CloudPhone, Group, Profile, ProxyInfo, Tag } from "../../src/emulator";
import { call, dataOf, envelopeOf, expectError, type PageShape } from "../support/http";
import { useEmulator } from "../support/emulator";

describe("emulator: Local API lists", () => {
  const { emulator } = useEmulator({ profiles: 23, seed: 7 });

  it("answers the envelope with code 0, msg null and a 32-hex requestId that differs per request", async () => {
    const first = await call(emulator().localUrl, "/api/env/page", { body: { pageNo: 1, pageSize: 5 } });
    const second = await call(emulator().localUrl, "/api/env/page", { body: { pageNo: 1, pageSize: 5 } });
    assert.equal(first.status, 200);
    assert.match(first.headers.get("content-type") ?? "", /^application\/json/);
    const a = envelopeOf(first);
    assert.equal(a.code, 0);
    assert.equal(a.msg, null);
    assert.notEqual(a.requestId, envelopeOf(second).requestId);
  });

  it("serves IDs and paging counts as decimal strings", async () => {
    const page = dataOf<PageShape<Profile>>(await call(emulator().localUrl, "/api/env/page", { body: { pageNo: 1, pageSize: 10 } }));
    assert.deepEqual([page.total, page.current, page.pages], ["23", "1", "3"]);
    for (const profile of page.dataList) {
      assert.match(profile.id, /^\d{19}$/);
      assert.match(profile.groupId, /^(0|\d{18,19})$/);
      assert.match(profile.proxyId, /^(0|\d{18,19})$/);
      for (const tag of profile.tagInfos) assert.match(tag.id, /^\d{18,19}$/);
    }
    assert.deepEqual(page.dataList, emulator().data.profiles.slice(0, 10));
  });

  it("pages to the last page and past it", async () => {
    const last = dataOf<PageShape<Profile>>(await call(emulator().localUrl, "/api/env/page", { body: { pageNo: "3", pageSize: "10" } }));
    assert.equal(last.current, "3");
    assert.deepEqual(last.dataList, emulator().data.profiles.slice(20));
    const beyond = dataOf<PageShape<Profile>>(await call(emulator().localUrl, "/api/env/page", { body: { pageNo: 4, pageSize: 10 } }));
    assert.deepEqual(beyond, { total: "23", current: "4", pages: "3", dataList: [] });
  });

  it("defaults to page 1 of 10 and clamps page sizes above the maximum", async () => {
    const byDefault = dataOf<PageShape<Profile>>(await call(emulator().localUrl, "/api/env/page", { body: {} }));
    assert.equal(byDefault.dataList.length, 10);
    assert.equal(byDefault.current, "1");
    const clamped = dataOf<PageShape<Profile>>(await call(emulator().localUrl, "/api/env/page", { body: { pageNo: 1, pageSize: 5000 } }));
    assert.equal(clamped.dataList.length, 23);
    assert.equal(clamped.pages, "1");
  });

  it("filters profiles by name (case-insensitive), group and ID", async () => {
    const { profiles, groups } = emulator().data;
    const byName = dataOf<PageShape<Profile>>(await call(emulator().localUrl, "/api/env/page", { body: { pageNo: 1, pageSize: 100, envName: "profile 01" } }));
    assert.deepEqual(
      byName.dataList.map((p) => p.envName),
      ["Profile 010", "Profile 011", "Profile 012", "Profile 013", "Profile 014", "Profile 015", "Profile 016", "Profile 017", "Profile 018", "Profile 019"],
    );
    const group = groups[1];
    assert.ok(group);
    const byGroup = dataOf<PageShape<Profile>>(await call(emulator().localUrl, "/api/env/page", { body: { pageNo: 1, pageSize: 100, groupId: group.id } }));
    assert.ok(byGroup.dataList.length > 0);
    assert.deepEqual(
      byGroup.dataList,
      profiles.filter((p) => p.groupId === group.id),
    );
    const ungrouped = dataOf<PageShape<Profile>>(await call(emulator().localUrl, "/api/env/page", { body: { pageNo: 1, pageSize: 100, groupId: 0 } }));
    assert.ok(ungrouped.dataList.length > 0);
    assert.ok(ungrouped.dataList.every((p) => p.groupId === "0" && p.groupName === null));
    const target = profiles[17];
    assert.ok(target);
    const byId = dataOf<PageShape<Profile>>(await call(emulator().localUrl, "/api/env/page", { body: { envId: target.id } }));
    assert.deepEqual(byId.dataList, [target]);
    assert.equal(byId.total, "1");
  });

  it("has profiles with and without tags and proxies", () => {
    const { profiles } = emulator().data;
    assert.ok(profiles.some((p) => p.tagInfos.length > 0) && profiles.some((p) => p.tagInfos.length === 0));
    assert.ok(profiles.some((p) => p.proxy !== null && p.proxyId === p.proxy.id));
    assert.ok(profiles.some((p) => p.proxy === null && p.proxyId === "0"));
    assert.equal(profiles[0]?.envName, "Profile 001");
  });

  it("lists cloud phones with a keyword over name, group and tag names", async () => {
    const { cloudPhones } = emulator().data;
    const all = dataOf<PageShape<CloudPhone>>(await call(emulator().localUrl, "/api/cloudphone/page", { body: { pageNo: 1, pageSize: 100 } }));
    assert.deepEqual(all.dataList, cloudPhones);
    assert.ok(all.dataList.every((p) => /^\d{16}$/.test(p.id)));
    const byName = dataOf<PageShape<CloudPhone>>(await call(emulator().localUrl, "/api/cloudphone/page", { body: { keyword: "phone 003" } }));
    assert.deepEqual(
      byName.dataList.map((p) => p.envName),
      ["Phone 003"],
    );
    const byGroup = dataOf<PageShape<CloudPhone>>(await call(emulator().localUrl, "/api/cloudphone/page", { body: { pageSize: 100, keyword: "group 2" } }));
    assert.deepEqual(
      byGroup.dataList,
      cloudPhones.filter((p) => p.groupName === "Group 2"),
    );
    const tagged = cloudPhones.find((p) => p.tagInfos.length > 0);
    assert.ok(tagged);
    const tagName = tagged.tagInfos[0]?.tagName ?? "";
    const byTag = dataOf<PageShape<CloudPhone>>(await call(emulator().localUrl, "/api/cloudphone/page", { body: { pageSize: 100, keyword: tagName } }));
    assert.ok(byTag.dataList.some((p) => p.id === tagged.id));
  });

  it("lists proxies and groups with their name filters", async () => {
    const proxies = dataOf<PageShape<ProxyInfo>>(await call(emulator().localUrl, "/api/proxyInfo/page", { body: { pageNo: 1, pageSize: 3 } }));
    assert.deepEqual(proxies, { total: "8", current: "1", pages: "3", dataList: emulator().data.proxies.slice(0, 3) });
    const oneProxy = dataOf<PageShape<ProxyInfo>>(await call(emulator().localUrl, "/api/proxyInfo/page", { body: { proxyName: "PROXY 005" } }));
    assert.deepEqual(
      oneProxy.dataList.map((p) => p.proxyName),
      ["Proxy 005"],
    );
    const groups = dataOf<PageShape<Group>>(await call(emulator().localUrl, "/api/envgroup/page", { body: { pageNo: 1, pageSize: 10, groupName: "" } }));
    assert.deepEqual(groups.dataList, emulator().data.groups);
    const oneGroup = dataOf<PageShape<Group>>(await call(emulator().localUrl, "/api/envgroup/page", { body: { groupName: "group 3", pageNo: 1, pageSize: 10 } }));
    assert.deepEqual(
      oneGroup.dataList.map((g) => g.groupName),
      ["Group 3"],
    );
  });

  it("serves all tags on GET /api/envtag/all and 404 on POST", async () => {
    const tags = dataOf<Tag[]>(await call(emulator().localUrl, "/api/envtag/all", { method: "GET" }));
    assert.deepEqual(tags, emulator().data.tags);
    assert.equal(tags.length, 6);
    expectError(await call(emulator().localUrl, "/api/envtag/all", { body: {} }), 404, 404, "Not found");
  });

  it("answers 404 with the envelope for unknown routes and counts them", async () => {
    expectError(await call(emulator().localUrl, "/api/nope", { body: {} }), 404, 404, "Not found");
    expectError(await call(emulator().localUrl, "/cloudphone/app/page", { body: {} }), 404, 404);
    assert.equal(emulator().stats.requests["local POST /api/nope"], 1);
  });

  it("answers the health probe POST /status without an envelope", async () => {
    const answer = await call(emulator().localUrl, "/status", { body: {} });
    assert.equal(answer.status, 200);
    assert.deepEqual(answer.json, { status: "ok" });
  });

  it("rejects a body that is not JSON with 99006", async () => {
    expectError(await call(emulator().localUrl, "/api/env/page", { body: "{pageNo: 1" }), 200, 99006, "Bad request");
  });

  for (const bad of [0, -1, 1.5, "abc", "1e3", true, [1], { n: 1 }]) {
    it(`rejects pageNo ${JSON.stringify(bad)} with 99001 naming the field`, async () => {
      const answer = await call(emulator().localUrl, "/api/env/page", { body: { pageNo: bad, pageSize: 10 } });
      expectError(answer, 200, 99001, "Request parameter error: pageNo must be a positive integer");
    });
  }

  it("names pageSize when the page size is bad", async () => {
    const answer = await call(emulator().localUrl, "/api/proxyInfo/page", { body: { pageNo: 1, pageSize: "0" } });
    expectError(answer, 200, 99001, "Request parameter error: pageSize must be a positive integer");
  });

  it("records requests in the log with headers and parsed body", async () => {
    await call(emulator().localUrl, "/api/envgroup/page?x=1", { body: { pageNo: 2 }, headers: { "X-Probe": "yes" } });
    const entry = emulator().requestLog.at(-1);
    assert.ok(entry);
    assert.equal(entry.api, "local");
    assert.equal(entry.method, "POST");
    assert.equal(entry.path, "/api/envgroup/page");
    assert.equal(entry.headers["x-probe"], "yes");
    assert.deepEqual(entry.body, { pageNo: 2 });
    assert.ok((emulator().stats.requests["local POST /api/envgroup/page"] ?? 0) >= 1);
  });
});
