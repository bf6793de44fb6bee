import assert from "node:assert/strict";
import { call, dataOf, expectError } from "../support/http";
import { bearer, useEmulator } from "../support/emulator";
import { phonesOf } from "../support/phones";

const BOOT_MS = 300;
/** A boot or restart that does not end during a test: the states checked on this emulator last. */
const HELD_BOOT_MS = 600_000;
/** The boot of the emulator on a manual clock: it ends only when the test moves the clock past it. */
const SLOW_BOOT_MS = 2_000;
const UNKNOWN = "1234567890123456";

/** The required fields of the cloud-phone spec's CloudPhoneDetail. */
const DETAIL_FIELDS = [
  "abnormalStatus",
  "androidId",
  "billingType",
  "createDate",
  "createMember",
  "createMemberName",
  "device",
  "envName",
  "envRemark",
  "envStatus",
  "expireTime",
  "gaid",
  "groupId",
  "groupName",
  "id",
  "lastConnectDate",
  "lastConnectMemberId",
  "lastConnectMemberName",
  "lastStartDate",
  "lastStartMemberId",
  "lastStartMemberName",
  "proxy",
  "proxyStatus",
  "settings",
  "skuId",
  "tagInfos",
  "updateDate",
  "updateMember",
];

describe("emulator: cloud phone power", () => {
  const { emulator } = useEmulator({ cloudPhones: 24, phoneBootMs: BOOT_MS });
  const { local, status, listed, phoneIn, reaches } = phonesOf(emulator);
  /** The same phones, booting and restarting for longer than any test: for the states in between. */
  const { emulator: heldEmulator } = useEmulator({ cloudPhones: 24, phoneBootMs: HELD_BOOT_MS });
  const held = phonesOf(heldEmulator);

  it("powers on at once (accepted), is booting (3), then powered on (4) after phoneBootMs, in info and in the list", async () => {
    const booting = held.phoneIn(2);
    assert.equal(dataOf(await held.local("/powerOn", { id: booting, headless: true, disableMoneySavingMode: false })), null);
    assert.equal(await held.status(booting), 3);
    assert.equal((await held.listed(booting))?.envStatus, 3);
    const id = phoneIn(2);
    const answer = await local("/powerOn", { id, headless: true, disableMoneySavingMode: false });
    assert.equal(dataOf(answer), null);
    // Measured from the answer, so only a lower bound: a slow machine makes it longer, never shorter.
    assert.ok((await reaches(id, 4)) >= BOOT_MS / 2, "still booting halfway");
    assert.equal((await listed(id))?.envStatus, 4);
  });

  it("refuses a second power-on while booting and while running (100), and leaves the boot alone", async () => {
    const busy = "The cloud phone is not powered off: it is starting, running or restarting";
    const booting = held.phoneIn(2);
    dataOf(await held.local("/powerOn", { id: booting }));
    expectError(await held.local("/powerOn", { id: booting }), 200, 100, busy);
    assert.equal(await held.status(booting), 3, "still booting");
    const id = phoneIn(2);
    dataOf(await local("/powerOn", { id }));
    expectError(await local("/powerOn", { id }), 200, 100, busy);
    await reaches(id, 4);
    expectError(await local("/powerOn", { id }), 200, 100, busy);
  });

  it("powers off a running phone at once (2); a second power-off answers 33301", async () => {
    const id = phoneIn(4);
    assert.equal(dataOf(await local("/powerOff", { id })), null);
    assert.equal(await status(id), 2);
    assert.equal((await listed(id))?.envStatus, 2);
    expectError(await local("/powerOff", { id }), 200, 33301, "The Cloud Phone has not been started up.");
  });

  describe("with a boot on the emulator's manual clock", () => {
    const { emulator: slowEmulator } = useEmulator({ cloudPhones: 4, phoneBootMs: SLOW_BOOT_MS, manualClock: true });
    const slow = phonesOf(slowEmulator);

    it("powering off a booting phone interrupts the boot: it stays off", async () => {
      const id = slow.phoneIn(2);
      dataOf(await slow.local("/powerOn", { id }));
      assert.equal(await slow.status(id), 3, "booting");
      dataOf(await slow.local("/powerOff", { id }));
      assert.equal(await slow.status(id), 2);
      // An absence: with the clock past the end of the boot, the phone is still off.
      slowEmulator().advanceClock(SLOW_BOOT_MS + 1);
      assert.equal(await slow.status(id), 2, "the interrupted boot never finishes");
      dataOf(await slow.local("/powerOn", { id }));
      slowEmulator().advanceClock(SLOW_BOOT_MS);
      assert.equal(await slow.status(id), 4, "a boot left alone ends when its time has come");
    });
  });

  it("restarts a running phone: restarting (6), then powered on (4); power-off meanwhile is refused (33331), power-on too (100)", async () => {
    const restarting = held.phoneIn(4);
    assert.equal(dataOf(await held.local("/restart", { id: restarting })), null);
    assert.equal(await held.status(restarting), 6);
    expectError(await held.local("/powerOff", { id: restarting }), 200, 33331, "Cloud phone restarting, unable to shut down.");
    expectError(await held.local("/powerOn", { id: restarting }), 200, 100);
    assert.equal(await held.status(restarting), 6, "still restarting");
    const id = phoneIn(4);
    assert.equal(dataOf(await local("/restart", { id })), null);
    await reaches(id, 4);
  });

  it("restarts only a powered-on phone (33301 otherwise)", async () => {
    const off = held.phoneIn(2);
    expectError(await held.local("/restart", { id: off }), 200, 33301, "The Cloud Phone has not been started up.");
    dataOf(await held.local("/powerOn", { id: off }));
    expectError(await held.local("/restart", { id: off }), 200, 33301, "The Cloud Phone has not been started up.");
    assert.equal(await held.status(off), 3, "refused while booting");
  });

  it("answers info with the spec's CloudPhoneDetail fields, and a new lastStartDate after power-on", async () => {
    const id = phoneIn(2);
    const before = dataOf<Record<string, unknown>>(await local("/info", { id }));
    assert.deepEqual(Object.keys(before).sort(), DETAIL_FIELDS);
    const phone = emulator().data.cloudPhones.find((p) => p.id === id);
    assert.ok(phone);
    assert.deepEqual(
      [before.id, before.envName, before.androidId, before.groupId, before.groupName, before.tagInfos, before.envStatus, before.createDate],
      [phone.id, phone.envName, phone.androidId, phone.groupId, phone.groupName, phone.tagInfos, 2, phone.createDate],
    );
    assert.match(String(before.skuId), /^100(02|13|05|04|14|15)$/);
    assert.deepEqual(Object.keys(before.device as object).sort(), ["bluetoothMac", "countryName", "rom", "server", "wifiBssid"]);
    assert.deepEqual(Object.keys(before.settings as object).sort(), ["automaticGeo", "automaticLanguage", "automaticLocation", "latitude", "longitude"]);
    assert.deepEqual(before.proxy, {
      id: phone.proxy?.id,
      proxyName: phone.proxy?.proxyName,
      state: phone.proxy?.state,
      city: phone.proxy?.city,
      proxyPort: phone.proxy?.proxyPort,
      proxyIp: phone.proxy?.proxyIp,
    });
    dataOf(await local("/powerOn", { id }));
    const after = dataOf<Record<string, string>>(await local("/info", { id }));
    assert.match(after.lastStartDate ?? "", /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    const started = Date.parse(`${(after.lastStartDate ?? "").replace(" ", "T")}Z`);
    assert.ok(Math.abs(started - Date.now()) < 5000, "power-on records the start, in UTC");
  });

  it("answers 33300 for a phone that does not exist and 99001 without an id", async () => {
    for (const path of ["/powerOn", "/powerOff", "/restart", "/info"]) {
      expectError(await local(path, { id: UNKNOWN }), 200, 33300, "Cloud phone not found");
      expectError(await local(path, {}), 200, 99001, "Request parameter error: id is required");
    }
  });

  it("serves power-on, power-off and info on the Open API too (numeric IDs accepted), but not restart", async () => {
    // On the held emulator: the phone stays booting (3) while both APIs look at it.
    const auth = await bearer(heldEmulator());
    const open = (path: string, body: unknown) => call(heldEmulator().openUrl, `/cloudphone${path}`, { body, headers: auth });
    const id = held.phoneIn(2);
    dataOf(await open("/powerOn", { id: Number(id), disableMoneySavingMode: true }));
    assert.equal(dataOf<{ envStatus: number }>(await open("/info", { id })).envStatus, 3);
    assert.equal(await held.status(id), 3, "both APIs see one phone");
    dataOf(await open("/powerOff", { id }));
    expectError(await open("/powerOff", { id }), 200, 33301);
    expectError(await open("/info", { id: UNKNOWN }), 200, 33300);
    expectError(await open("/restart", { id }), 404, 404);
    expectError(await call(heldEmulator().openUrl, "/cloudphone/powerOn", { body: { id } }), 401, 401);
  });
});
