import assert from "node:assert/strict";
import { startEmulator, type Profile } from "../../src/emulator";
import { generateData } from "../../src/emulator/data";
import { call, dataOf, type PageShape } from "../support/http";
import { useEmulator } from "../support/emulator";
import { waitUntil } from "../support/wait-until";

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

describe("emulator: how many seeded phones are on at start (phonesOn)", () => {
  type Listed = { id: string; envName: string; envStatus: number; enableAdb: boolean; groupName: string | null; adbInfo: { success: number; adbIp: string } };
  const listed = async (emulator: Awaited<ReturnType<typeof startEmulator>>): Promise<Listed[]> =>
    dataOf<PageShape<Listed>>(await call(emulator.localUrl, "/api/cloudphone/page", { body: { pageNo: 1, pageSize: 100 } })).dataList;
  /** What the seed drew, without the power state and what follows from it. */
  const drawn = (phones: Listed[]) => phones.map(({ id, envName, enableAdb, groupName }) => ({ id, envName, enableAdb, groupName }));

  it("without it, some are on and some off, as the seed drew them; with 0, every one is off, and nothing else the seed drew changes, whatever the seed", async () => {
    for (const options of [{}, { seed: 7 }, { profiles: 500 }]) {
      const seeded = await startEmulator({ ...options, phoneBootMs: 50 });
      const off = await startEmulator({ ...options, phonesOn: 0, phoneBootMs: 50 });
      try {
        const [asDrawn, allOff] = [await listed(seeded), await listed(off)];
        assert.deepEqual(new Set(asDrawn.map((phone) => phone.envStatus)), new Set([2, 4]), `the seed draws both states (${JSON.stringify(options)})`);
        assert.deepEqual(
          allOff.map((phone) => [phone.envName, phone.envStatus, phone.adbInfo.success]),
          allOff.map((phone) => [phone.envName, 2, 0]),
          "every phone off, with no ADB details",
        );
        assert.deepEqual(drawn(allOff), drawn(asDrawn), "the same phones: IDs, names, ADB settings and groups");
        // A phone that was on with ADB shows the same details once powered on again.
        const wasOn = asDrawn.find((phone) => phone.adbInfo.success === 1);
        assert.ok(wasOn, "a phone on with ADB enabled in the seed");
        dataOf(await call(off.localUrl, "/api/cloudphone/powerOn", { body: { id: wasOn.id } }));
        await waitUntil(
          async () => (await listed(off)).find((phone) => phone.id === wasOn.id),
          (phone) => phone?.envStatus === 4,
          "the phone is on",
          15_000,
        );
        assert.equal((await listed(off)).find((phone) => phone.id === wasOn.id)?.adbInfo.adbIp, wasOn.adbInfo.adbIp);
      } finally {
        await seeded.close();
        await off.close();
      }
    }
  });

  it("with n, the first n are on (with their ADB details when ADB is enabled) and the others off; more than there are: every one on", async () => {
    for (const [phonesOn, on] of [
      [3, 3],
      [99, 12],
    ] as const) {
      const emulator = await startEmulator({ phonesOn });
      try {
        const phones = await listed(emulator);
        assert.equal(phones.length, 12);
        assert.deepEqual(
          phones.map((phone) => phone.envStatus),
          phones.map((_, index) => (index < on ? 4 : 2)),
        );
        for (const phone of phones) assert.equal(phone.adbInfo.success, phone.envStatus === 4 && phone.enableAdb ? 1 : 0, `${phone.envName}'s ADB details`);
      } finally {
        await emulator.close();
      }
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
