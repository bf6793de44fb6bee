import assert from "node:assert/strict";
import { startEmulator, type Profile } from "../../src/emulator";
import { generateData } from "../../src/emulator/data";
import { call, dataOf, type PageShape } from "../support/http";
import { useEmulator } from "../support/emulator";

const counts = { seed: 42, profiles: 50, cloudPhones: 12, proxies: 8, groups: 5, tags: 6, apps: 30 };

describe("emulator: seeded data", () => {
  it("is the same for the same seed and counts, and different for another seed", () => {
    assert.deepEqual(generateData(counts), generateData(counts));
    assert.notDeepEqual(generateData(counts).profiles, generateData({ ...counts, seed: 43 }).profiles);
  });

  it("has unique IDs of the documented widths", () => {
    const data = generateData(counts);
    const check = (ids: string[], pattern: RegExp): void => {
      assert.equal(new Set(ids).size, ids.length);
      for (const id of ids) assert.match(id, pattern);
    };
    check(
      data.profiles.map((p) => p.id),
      /^\d{19}$/,
    );
    check(
      data.cloudPhones.map((p) => p.id),
      /^\d{16}$/,
    );
    check(
      data.proxies.map((p) => p.id),
      /^\d{18,19}$/,
    );
    check(
      data.groups.map((g) => g.id),
      /^\d{18,19}$/,
    );
    check(
      data.tags.map((t) => t.id),
      /^\d{18,19}$/,
    );
    check(
      data.apps.flatMap((a) => [a.id, ...a.appVersionList.map((v) => v.id)]),
      /^\d{18,19}$/,
    );
  });

  it("lists each app's versions newest first (versionCode descending), as the cloud-phone spec does", () => {
    const { apps } = generateData(counts);
    assert.ok(apps.some((app) => app.appVersionList.length > 1));
    for (const app of apps) {
      const codes = app.appVersionList.map((v) => Number(v.versionCode));
      assert.deepEqual(
        codes,
        [...codes].sort((a, b) => b - a),
      );
    }
  });

  it("assigns groups round-robin with an ungrouped slot", () => {
    const { profiles, groups } = generateData(counts);
    const expected = profiles.map((_, i) => groups[i % (groups.length + 1)]?.id ?? "0");
    assert.deepEqual(
      profiles.map((p) => p.groupId),
      expected,
    );
  });

  it("honours the counts given to the emulator", async () => {
    const emulator = await startEmulator({ profiles: 3, cloudPhones: 0, proxies: 1, groups: 0, tags: 2, apps: 4, seed: 9 });
    try {
      const { data } = emulator;
      assert.deepEqual([data.profiles.length, data.cloudPhones.length, data.proxies.length, data.groups.length, data.tags.length, data.apps.length], [3, 0, 1, 0, 2, 4]);
      assert.ok(data.profiles.every((p) => p.groupId === "0"));
      const empty = dataOf<PageShape<unknown>>(await call(emulator.localUrl, "/api/cloudphone/page", { body: {} }));
      assert.deepEqual(empty, { total: "0", current: "1", pages: "0", dataList: [] });
    } finally {
      await emulator.close();
    }
  });
});

describe("emulator: 100,000 profiles", () => {
  const { emulator } = useEmulator({ profiles: 100_000 });

  it("serves them all, with the right last page", async () => {
    assert.equal(emulator().data.profiles.length, 100_000);
    const last = dataOf<PageShape<Profile>>(await call(emulator().localUrl, "/api/env/page", { body: { pageNo: 1000, pageSize: 100 } }));
    assert.deepEqual([last.total, last.current, last.pages], ["100000", "1000", "1000"]);
    assert.deepEqual(last.dataList, emulator().data.profiles.slice(99_900));
    assert.equal(last.dataList.at(-1)?.envName, "Profile 100000");
    const odd = dataOf<PageShape<Profile>>(await call(emulator().localUrl, "/api/env/page", { body: { pageNo: 1429, pageSize: 70 } }));
    assert.equal(odd.pages, "1429");
    assert.deepEqual(odd.dataList, emulator().data.profiles.slice(99_960));
  });
});
