import assert from "node:assert/strict";
import type { ServedCounts } from "../../src/emulator";
import { bearer, resetBeforeEach, useEmulator } from "../support/emulator";
import { call, dataOf, expectError } from "../support/http";
import { exitOf, runCli, waitFor } from "../support/cli";
import { servedReport } from "../../src/emulator/served-table";

/** "What was I asked?": per profile and phone, the starts, closes, power-ons and power-offs served, at /emulator/served. */
describe("emulator: what it served (/emulator/served)", () => {
  const { emulator } = useEmulator({ profiles: 6, cloudPhones: 6, phoneBootMs: 600_000, rateLimitPerMinute: 0 });
  resetBeforeEach(emulator);

  const served = async (base: string): Promise<ServedCounts> => {
    const answer = await call(base, "/emulator/served", { method: "GET" });
    assert.equal(answer.status, 200, answer.text);
    return answer.json as ServedCounts;
  };
  const env = (path: string, body: unknown) => call(emulator().localUrl, `/api/env/${path}`, { body });
  const profile = (index: number): { id: string; envName: string } => {
    const found = emulator().data.profiles[index];
    assert.ok(found);
    return found;
  };
  const phoneIn = (envStatus: number, skip = 0): { id: string; envName: string } => {
    const found = emulator().data.cloudPhones.filter((p) => p.envStatus === envStatus)[skip];
    assert.ok(found, `a phone in state ${envStatus}`);
    return found;
  };

  it("counts each profile's starts and closes; a second close is refused and counted so; profiles never named are absent", async () => {
    const [a, b] = [profile(0), profile(1)];
    dataOf(await env("start", { envId: a.id }));
    dataOf(await env("start", { envId: a.id })); // started again while running: served (the same browser)
    dataOf(await env("close", { envId: a.id }));
    expectError(await env("close", { envId: a.id }), 200, -1);
    dataOf(await env("start", { envId: b.id }));
    dataOf(await env("closeAll", {}));
    expectError(await env("start", { envId: "1234567890123456789" }), 200, 101);
    const counts = await served(emulator().localUrl);
    assert.deepEqual(counts.profiles, {
      [a.id]: { name: a.envName, starts: 2, closes: 1, refused: 1 },
      [b.id]: { name: b.envName, starts: 1, closes: 1, refused: 0 },
    });
    assert.deepEqual(counts.phones, {});
    assert.deepEqual(emulator().served(), counts, "the same from code");
  });

  it("counts each phone's power-ons and power-offs on both APIs, refused ones apart; the Open port answers the same", async () => {
    const off = phoneIn(2);
    const on = phoneIn(4);
    dataOf(await call(emulator().localUrl, "/api/cloudphone/powerOn", { body: { id: off.id } }));
    expectError(await call(emulator().localUrl, "/api/cloudphone/powerOn", { body: { id: off.id } }), 200, 100);
    dataOf(await call(emulator().openUrl, "/cloudphone/powerOff", { body: { id: off.id }, headers: await bearer(emulator()) }));
    dataOf(await call(emulator().openUrl, "/cloudphone/powerOff", { body: { id: on.id }, headers: await bearer(emulator()) }));
    const counts = await served(emulator().openUrl);
    assert.deepEqual(counts.phones, {
      [off.id]: { name: off.envName, powerOns: 1, powerOffs: 1, deletes: 0, refused: 1 },
      [on.id]: { name: on.envName, powerOns: 0, powerOffs: 1, deletes: 0, refused: 0 },
    });
    assert.deepEqual(await served(emulator().localUrl), counts);
  });

  it("counts deletes apart on both APIs: a deleted phone is deleted in the exit table, not powered on or off; a refused delete is refused", async () => {
    const phone = (path: string, body: unknown) => call(emulator().localUrl, `/api/cloudphone${path}`, { body });
    const [resetting, running, booted, leftOn] = [phoneIn(4, 0), phoneIn(4, 1), phoneIn(2, 0), phoneIn(2, 1)];
    dataOf(await phone("/reset", { id: resetting.id }));
    expectError(await phone("/delete/batch", { ids: [resetting.id] }), 200, 33327);
    for (const { id } of [booted, leftOn]) dataOf(await phone("/powerOn", { id }));
    // Never activated: it leaves the emulator with its delete, and is still counted under its name.
    const [created] = dataOf<string[]>(await phone("/create", { skuId: "10015", quantity: 1 }));
    const createdName = emulator().data.cloudPhones.find((p) => p.id === created)?.envName;
    assert.ok(created && createdName);
    dataOf(await phone("/delete/batch", { ids: [running.id, created] }));
    dataOf(await call(emulator().openUrl, "/cloudphone/delete/batch", { body: { ids: [booted.id] }, headers: await bearer(emulator()) }));
    const counts = await served(emulator().localUrl);
    assert.deepEqual(counts.phones, {
      [resetting.id]: { name: resetting.envName, powerOns: 0, powerOffs: 0, deletes: 0, refused: 1 },
      [booted.id]: { name: booted.envName, powerOns: 1, powerOffs: 0, deletes: 1, refused: 0 },
      [leftOn.id]: { name: leftOn.envName, powerOns: 1, powerOffs: 0, deletes: 0, refused: 0 },
      [running.id]: { name: running.envName, powerOns: 0, powerOffs: 0, deletes: 1, refused: 0 },
      [created]: { name: createdName, powerOns: 0, powerOffs: 0, deletes: 1, refused: 0 },
    });
    const report = servedReport(counts);
    assert.match(report, /Cloud phones: 1 powered on \(none more than once\), 0 powered off, 3 deleted; 1 call refused/);
    assert.match(report, new RegExp(`phone\\s+${booted.id}\\s+${booted.envName}\\s+1\\s+0\\s+0\\s+1\n`));
  });

  it("answers without the Local token and past the rate limit, and is not counted as a request; starts refused before their route are not counted", async () => {
    emulator().setLocalToken("secret-token");
    emulator().setRateLimit(2);
    try {
      expectError(await env("start", { envId: profile(2).id }), 200, 35001);
      dataOf(await call(emulator().localUrl, "/api/env/start", { body: { envId: profile(3).id }, headers: { Authorization: "secret-token" } }));
      expectError(await call(emulator().localUrl, "/api/env/start", { body: { envId: profile(4).id }, headers: { Authorization: "secret-token" } }), 429, 429);
      for (let i = 0; i < 3; i++) assert.deepEqual(Object.keys((await served(emulator().localUrl)).profiles), [profile(3).id]);
      assert.deepEqual(
        Object.keys(emulator().stats.requests).filter((key) => key.includes("/emulator/")),
        [],
      );
    } finally {
      emulator().setRateLimit(0);
      emulator().setLocalToken(undefined);
    }
  });

  it("starts empty again after resetStats", async () => {
    dataOf(await env("start", { envId: profile(5).id }));
    assert.equal(Object.keys((await served(emulator().localUrl)).profiles).length, 1);
    emulator().resetStats();
    assert.deepEqual(await served(emulator().localUrl), { profiles: {}, phones: {} });
  });
});

describe("emulator CLI: what it served, at exit", function () {
  // A cold `node --import tsx` start, with coverage to write, on a busy machine, is slow.
  this.timeout(120_000);

  it("prints a summary and a row per profile and phone it served (a deleted phone counted apart) when it stops", async () => {
    const child = runCli(["--local-port", "0", "--open-port", "0", "--profiles", "3", "--phone-boot-ms", "600000"]);
    const exited = exitOf(child);
    const out = await waitFor(child, /Press Ctrl\+C/);
    const localUrl = /Local API:\s+(http:\/\/\S+)/.exec(out)?.[1];
    assert.ok(localUrl, out);
    assert.match(out, /Served:\s+http:\/\/\S+\/emulator\/served/);
    const list = dataOf<{ dataList: Array<{ id: string; envName: string }> }>(await call(localUrl, "/api/env/page", { body: { pageNo: 1, pageSize: 10 } })).dataList;
    const [first, second] = list;
    assert.ok(first && second);
    for (const envId of [first.id, first.id, second.id]) dataOf(await call(localUrl, "/api/env/start", { body: { envId } }));
    dataOf(await call(localUrl, "/api/env/close", { body: { envId: first.id } }));
    const [phone] = dataOf<{ dataList: Array<{ id: string; envName: string }> }>(await call(localUrl, "/api/cloudphone/page", { body: { pageNo: 1, pageSize: 1 } })).dataList;
    assert.ok(phone);
    dataOf(await call(localUrl, "/api/cloudphone/delete/batch", { body: { ids: [phone.id] } }));
    child.kill("SIGINT");
    const { code, stdout } = await exited;
    assert.equal(code, 0);
    assert.match(stdout, /What the emulator served \(GET \/emulator\/served answers the same, as JSON\):/);
    assert.match(stdout, /Profiles: 2 started \(1 of them more than once\), 1 closed; 0 calls refused/);
    assert.match(stdout, /Cloud phones: 0 powered on \(none more than once\), 0 powered off, 1 deleted; 0 calls refused/);
    assert.match(stdout, new RegExp(`phone\\s+${phone.id}\\s+${phone.envName}\\s+0\\s+0\\s+0\\s+1`));
    assert.match(stdout, new RegExp(`profile\\s+${first.id}\\s+${first.envName}\\s+2\\s+1\\s+0`));
    assert.match(stdout, new RegExp(`profile\\s+${second.id}\\s+${second.envName}\\s+1\\s+0\\s+0`));
  });
});
