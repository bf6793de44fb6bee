import assert from "node:assert/strict";
import { crc32, inflateSync } from "node:zlib";
import type { App, CloudPhone } from "../../src/emulator";
import { deviceOfSku } from "../../src/emulator/phone-state";
import { call, dataOf, envelopeOf, expectError, type PageShape } from "../support/http";
import { bearer, useEmulator } from "../support/emulator";
import { waitUntil } from "../support/wait-until";

const BOOT_MS = 200;
const INSTALL_MS = 200;
/** Boots and installs that do not end during a test: the states checked on this emulator last. */
const HELD_MS = 600_000;
const UNKNOWN = "1234567890123456";
const NOT_STARTED = "The Cloud Phone has not been started up.";

interface AdbRow {
  id: string;
  supportAdb: boolean;
  enableAdb: boolean;
  envStatus: number | null;
  adbIp: string | null;
  adbPassword: string | null;
  adbPort: string | null;
  command: string | null;
  expireTime: string | null;
  remark: string | null;
}

interface Installed {
  appName: string;
  appIcon: string;
  packageName: string;
  versionCode: string;
  versionName: string;
}

describe("emulator: cloud phone ADB, shell, apps and screen", () => {
  const { emulator } = useEmulator({ cloudPhones: 24, apps: 5, phoneBootMs: BOOT_MS, appInstallMs: INSTALL_MS });
  const local = (path: string, body: unknown) => call(emulator().localUrl, `/api/cloudphone${path}`, { body });
  const listed = async (id: string): Promise<CloudPhone | undefined> => dataOf<PageShape<CloudPhone>>(await local("/page", { pageNo: 1, pageSize: 100 })).dataList.find((p) => p.id === id);
  const adb = async (...envIds: string[]): Promise<AdbRow[]> => dataOf<AdbRow[]>(await local("/batchAdbInfo", { envIds }));
  const taken = new Set<string>();
  const phoneWhere = (test: (phone: CloudPhone) => boolean): CloudPhone => {
    const phone = emulator().data.cloudPhones.find((p) => test(p) && !taken.has(p.id));
    assert.ok(phone, "a free phone of the kind the test needs");
    taken.add(phone.id);
    return phone;
  };
  const running = (): string => phoneWhere((p) => p.envStatus === 4).id;
  const stopped = (): string => phoneWhere((p) => p.envStatus === 2).id;
  const app = (index: number): App => {
    const found = emulator().data.apps[index];
    assert.ok(found);
    return found;
  };
  const status = async (id: string): Promise<number> => dataOf<{ envStatus: number }>(await local("/info", { id })).envStatus;
  const poweredOn = (id: string) =>
    waitUntil(
      () => status(id),
      (value) => value === 4,
      `phone ${id} is powered on`,
      15_000,
    );
  const installedList = async (id: string): Promise<Installed[]> => dataOf<Installed[]>(await local("/app/installedList", { id }));
  /** Waits until the phone's installed list passes `test`, and returns it. */
  const installedWhen = (id: string, test: (list: Installed[]) => boolean, what: string) => waitUntil(() => installedList(id), test, what, 15_000);

  /** The same data, booting and installing for longer than any test: for the states in between. */
  const { emulator: heldEmulator } = useEmulator({ cloudPhones: 24, apps: 5, phoneBootMs: HELD_MS, appInstallMs: HELD_MS });
  const heldLocal = (path: string, body: unknown) => call(heldEmulator().localUrl, `/api/cloudphone${path}`, { body });
  const heldTaken = new Set<string>();
  const heldPhoneWhere = (test: (phone: CloudPhone) => boolean): CloudPhone => {
    const phone = heldEmulator().data.cloudPhones.find((p) => test(p) && !heldTaken.has(p.id));
    assert.ok(phone, "a free phone of the kind the test needs");
    heldTaken.add(phone.id);
    return phone;
  };

  describe("ADB", () => {
    it("gives ADB details only while the phone is on with ADB enabled, following updateAdb and power", async () => {
      const phone = phoneWhere((p) => p.envStatus === 2 && !p.enableAdb);
      const { id } = phone;
      const [off] = await adb(id);
      assert.deepEqual(off, {
        id,
        supportAdb: true,
        enableAdb: false,
        envStatus: 2,
        adbIp: null,
        adbPassword: null,
        adbPort: null,
        command: null,
        expireTime: null,
        remark: "Environment is not powered on, unable to query ADB info",
      });
      assert.equal(dataOf(await local("/updateAdb", { ids: [id], enableAdb: true })), null);
      assert.equal((await listed(id))?.enableAdb, true);
      assert.equal((await adb(id))[0]?.remark, "Environment is not powered on, unable to query ADB info", "still off");
      const booting = heldPhoneWhere((p) => p.envStatus === 2).id;
      dataOf(await heldLocal("/updateAdb", { ids: [booting], enableAdb: true }));
      dataOf(await heldLocal("/powerOn", { id: booting }));
      const [row] = dataOf<AdbRow[]>(await heldLocal("/batchAdbInfo", { envIds: [booting] }));
      assert.deepEqual([row?.envStatus, row?.adbIp], [3, null], "no ADB while booting");
      dataOf(await local("/powerOn", { id }));
      await poweredOn(id);
      const [on] = await adb(id);
      assert.ok(on);
      assert.equal(on.remark, null);
      assert.match(on.adbIp ?? "", /^\d+\.\d+\.\d+\.\d+$/);
      assert.match(on.adbPort ?? "", /^\d+$/);
      assert.match(on.adbPassword ?? "", /^\d+$/);
      const item = await listed(id);
      assert.deepEqual(item?.adbInfo, { adbIp: on.adbIp, adbPassword: on.adbPassword, adbPort: on.adbPort, command: on.command, expireTime: on.expireTime, remark: "", success: 1 });

      dataOf(await local("/updateAdb", { ids: [id], enableAdb: false }));
      assert.deepEqual([(await adb(id))[0]?.adbIp, (await adb(id))[0]?.remark], [null, "ADB is not enabled"]);
      assert.equal((await listed(id))?.adbInfo.success, 0);
      dataOf(await local("/updateAdb", { ids: [id], enableAdb: true }));
      assert.deepEqual(await adb(id), [on], "the same details come back");
      dataOf(await local("/powerOff", { id }));
      assert.equal((await adb(id))[0]?.adbIp, null);
      assert.deepEqual((await listed(id))?.adbInfo.success, 0);
    });

    it("batchAdbInfo answers in the order asked, says when a phone does not exist, and takes 1 to 200 IDs", async () => {
      const [a, b] = emulator().data.cloudPhones;
      assert.ok(a && b);
      const rows = await adb(b.id, UNKNOWN, a.id);
      assert.deepEqual(
        rows.map((row) => row.id),
        [b.id, UNKNOWN, a.id],
      );
      assert.deepEqual(rows[1], {
        id: UNKNOWN,
        supportAdb: false,
        enableAdb: false,
        envStatus: null,
        adbIp: null,
        adbPassword: null,
        adbPort: null,
        command: null,
        expireTime: null,
        remark: "Environment does not exist",
      });
      assert.equal((envelopeOf(await local("/batchAdbInfo", { envIds: [a.id] })) as { msg: unknown }).msg, "success", "as the spec's example");
      expectError(await local("/batchAdbInfo", {}), 200, 99001, "Request parameter error: envIds is required");
      expectError(await local("/batchAdbInfo", { envIds: [] }), 200, 99001, "Request parameter error: envIds must hold 1 to 200 IDs");
      expectError(await local("/batchAdbInfo", { envIds: Array.from({ length: 201 }, () => a.id) }), 200, 99001, "Request parameter error: envIds must hold 1 to 200 IDs");
    });

    it("updateAdb changes the phones it can and still reports an error when one does not exist (33300)", async () => {
      const phone = phoneWhere((p) => !p.enableAdb);
      expectError(await local("/updateAdb", { ids: [phone.id, UNKNOWN], enableAdb: true }), 200, 33300, "Cloud phone not found");
      assert.equal((await listed(phone.id))?.enableAdb, true, "the known phone was changed");
      expectError(await local("/updateAdb", { ids: [phone.id] }), 200, 99001, "Request parameter error: enableAdb is required");
      expectError(await local("/updateAdb", { enableAdb: true }), 200, 99001, "Request parameter error: ids is required");
      expectError(await local("/updateAdb", { ids: [], enableAdb: true }), 200, 99001, "Request parameter error: ids is required");
      expectError(await local("/updateAdb", { ids: [phone.id], enableAdb: "true" }), 200, 99001, "Request parameter error: enableAdb must be a boolean");
    });
  });

  describe("shell (exeCommand)", () => {
    it("answers from the phone: its model and Android version, echo, packages, android_id; unknown commands as Android's shell does", async () => {
      const id = running();
      const info = dataOf<{ skuId: string; androidId: string }>(await local("/info", { id }));
      const shell = async (command: string): Promise<string> => dataOf<string>(await local("/exeCommand", { id, command }));
      const device = deviceOfSku(info.skuId);
      assert.ok(device);
      assert.equal(await shell("getprop ro.product.model"), device.model);
      assert.equal(await shell("getprop ro.product.brand"), device.brand);
      const android = { "10002": "12", "10013": "13", "10005": "14", "10004": "15", "10014": "15", "10015": "16" }[info.skuId];
      assert.equal(await shell("getprop ro.build.version.release"), android);
      assert.equal(await shell("echo x"), "x");
      assert.equal(await shell('echo "hello world"'), "hello world");
      assert.equal(await shell("settings get secure android_id"), info.androidId);
      assert.equal(await shell("getprop no.such.property"), "");
      assert.equal(await shell("frobnicate --now"), "/system/bin/sh: frobnicate: inaccessible or not found");
      assert.equal(await shell("echo a; echo b && whoami"), "a\nb\nshell");
      assert.match(await shell("pm list packages"), /^package:android$/m);
    });

    it("runs only on a powered-on phone (33301), and needs id and command (99001)", async () => {
      const booting = heldPhoneWhere((p) => p.envStatus === 2).id;
      dataOf(await heldLocal("/powerOn", { id: booting }));
      expectError(await heldLocal("/exeCommand", { id: booting, command: "echo x" }), 200, 33301, NOT_STARTED);
      const id = stopped();
      expectError(await local("/exeCommand", { id, command: "echo x" }), 200, 33301, NOT_STARTED);
      dataOf(await local("/powerOn", { id }));
      await poweredOn(id);
      assert.equal(dataOf(await local("/exeCommand", { id, command: "echo x" })), "x");
      expectError(await local("/exeCommand", { id }), 200, 99001, "Request parameter error: command is required");
      expectError(await local("/exeCommand", { id, command: "" }), 200, 99001, "Request parameter error: command is required");
      expectError(await local("/exeCommand", { command: "echo x" }), 200, 99001, "Request parameter error: id is required");
      expectError(await local("/exeCommand", { id: UNKNOWN, command: "echo x" }), 200, 33300, "Cloud phone not found");
    });
  });

  describe("apps", () => {
    it("installs an app version after appInstallMs, by version ID or by package and version code; the list and pm follow", async () => {
      const id = running();
      const list = (): Promise<Installed[]> => installedList(id);
      const before = await list();
      // Accepted but not complete, on the emulator whose installs last.
      const installing = heldPhoneWhere((p) => p.envStatus === 4).id;
      const heldList = async (): Promise<Installed[]> => dataOf<Installed[]>(await heldLocal("/app/installedList", { id: installing }));
      const heldBefore = await heldList();
      const heldTarget = heldEmulator().data.apps.find((a) => !heldBefore.some((i) => i.packageName === a.packageName));
      assert.ok(heldTarget, "an app that is not installed on the held phone");
      assert.equal(dataOf(await heldLocal("/app/install", { id: installing, appVersionId: heldTarget.appVersionList[0]?.id })), true);
      assert.deepEqual(await heldList(), heldBefore, "accepted, not complete");
      const target = emulator().data.apps.find((a) => a.appVersionList.length > 1 && !before.some((i) => i.packageName === a.packageName));
      assert.ok(target, "an app with two versions that is not installed");
      const version = target.appVersionList[0];
      assert.ok(version);
      assert.equal(dataOf(await local("/app/install", { id, appVersionId: version.id })), true);
      const after = await installedWhen(id, (now) => now.length > before.length, "the install lands");
      assert.deepEqual(after.slice(0, before.length), before);
      assert.deepEqual(after.at(-1), { appName: target.appName, appIcon: target.appIcon, packageName: target.packageName, versionCode: version.versionCode, versionName: version.versionName });
      assert.match(dataOf<string>(await local("/exeCommand", { id, command: "pm list packages" })), new RegExp(`^package:${target.packageName.replace(/\./g, "\\.")}$`, "m"));

      const other = target.appVersionList.at(-1);
      assert.ok(other && other.versionCode !== version.versionCode);
      dataOf(await local("/app/install", { id, packageName: target.packageName, versionCode: Number(other.versionCode) }));
      const replaced = await installedWhen(id, (now) => now.find((i) => i.packageName === target.packageName)?.versionCode !== version.versionCode, "the reinstall lands");
      assert.equal(replaced.find((i) => i.packageName === target.packageName)?.versionCode, other.versionCode, "reinstalling replaces the version");
      assert.equal(replaced.length, after.length, "replaced, not added");
    });

    it("refuses an app version not in the catalogue (201) and a request that names none (99001)", async () => {
      const id = running();
      expectError(await local("/app/install", { id, appVersionId: "1234567890123456789" }), 200, 201, "App install failed: the app version is not in the catalogue");
      expectError(await local("/app/install", { id, packageName: app(0).packageName, versionCode: 999999 }), 200, 201);
      expectError(await local("/app/install", { id }), 200, 99001, "Request parameter error: appVersionId, or packageName and versionCode, is required");
      expectError(await local("/app/install", { id, packageName: app(0).packageName }), 200, 99001);
      expectError(await local("/app/install", { appVersionId: app(0).appVersionList[0]?.id }), 200, 99001, "Request parameter error: id is required");
    });

    it("starts and stops installed apps (pidof shows them running), on a running phone only", async () => {
      const id = running();
      const installed = dataOf<Installed[]>(await local("/app/installedList", { id }));
      let pkg = installed[0]?.packageName;
      if (pkg === undefined) {
        dataOf(await local("/app/install", { id, appVersionId: app(1).appVersionList[0]?.id }));
        pkg = app(1).packageName;
        await installedWhen(id, (now) => now.some((i) => i.packageName === app(1).packageName), "the install lands");
      }
      const pidof = async (): Promise<string> => dataOf<string>(await local("/exeCommand", { id, command: `pidof ${pkg}` }));
      assert.equal(await pidof(), "");
      assert.equal(dataOf(await local("/app/start", { id, packageName: pkg })), null);
      assert.match(await pidof(), /^\d+$/);
      assert.equal(dataOf(await local("/app/stop", { id, packageName: pkg })), true);
      assert.equal(await pidof(), "");
      dataOf(await local("/app/start", { id, packageName: "com.not.installed" }));
      assert.equal(dataOf(await local("/exeCommand", { id, command: "pidof com.not.installed" })), "", "an app that is not installed does not run");
      expectError(await local("/app/start", { id }), 200, 99001, "Request parameter error: packageName is required");
      const off = stopped();
      for (const path of ["/app/start", "/app/stop", "/app/installedList", "/app/install"]) {
        expectError(await local(path, { id: off, packageName: pkg, appVersionId: app(0).appVersionList[0]?.id }), 200, 33301, NOT_STARTED);
        expectError(await local(path, { id: UNKNOWN, packageName: pkg, appVersionId: app(0).appVersionList[0]?.id }), 200, 33300);
      }
    });
  });

  describe("screen", () => {
    it("screenCapBase64 answers a valid PNG as a data URL, on a running phone only", async () => {
      const id = running();
      const data = dataOf<{ captureBase64: string; errorMessage: string; success: boolean }>(await local("/screenCapBase64", { id }));
      assert.deepEqual([data.errorMessage, data.success], ["success", true]);
      const prefix = "data:image/png;base64,";
      assert.ok(data.captureBase64.startsWith(prefix));
      const png = Buffer.from(data.captureBase64.slice(prefix.length), "base64");
      assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], "PNG signature");
      assert.equal(png.subarray(12, 16).toString("ascii"), "IHDR");
      assert.deepEqual([png.readUInt32BE(16), png.readUInt32BE(20)], [90, 160]);
      assert.equal(png.subarray(-8, -4).toString("ascii"), "IEND");
      // Every chunk's CRC is right, and the pixels are 160 rows of a filter byte and 90 RGB pixels.
      const idat: Buffer[] = [];
      for (let at = 8; at < png.length; ) {
        const length = png.readUInt32BE(at);
        const typed = png.subarray(at + 4, at + 8 + length);
        assert.equal(png.readUInt32BE(at + 8 + length), crc32(typed), `CRC of ${typed.subarray(0, 4).toString("ascii")}`);
        if (typed.subarray(0, 4).toString("ascii") === "IDAT") idat.push(typed.subarray(4));
        at += 12 + length;
      }
      assert.equal(inflateSync(Buffer.concat(idat)).length, 160 * (1 + 90 * 3));
      expectError(await local("/screenCapBase64", { id: stopped() }), 200, 33301, NOT_STARTED);
      expectError(await local("/screenCapBase64", {}), 200, 99001, "Request parameter error: id is required");
    });
  });

  it("serves ADB switching, shell and apps on the Open API too, but not batchAdbInfo or screenCapBase64", async () => {
    const auth = await bearer(emulator());
    const open = (path: string, body: unknown) => call(emulator().openUrl, `/cloudphone${path}`, { body, headers: auth });
    const id = running();
    dataOf(await open("/updateAdb", { ids: [Number(id)], enableAdb: true }));
    assert.equal(dataOf(await open("/exeCommand", { id: Number(id), command: "echo open" })), "open");
    const version = app(2).appVersionList[0];
    assert.ok(version);
    assert.equal(dataOf(await open("/app/install", { id, appVersionId: version.id })), true);
    await waitUntil(
      async () => dataOf<Installed[]>(await open("/app/installedList", { id })),
      (list) => list.some((i) => i.packageName === app(2).packageName),
      "the install lands, seen on the Open API",
      15_000,
    );
    assert.equal(dataOf(await open("/app/start", { id, packageName: app(2).packageName })), null);
    assert.equal(dataOf(await open("/app/stop", { id, packageName: app(2).packageName })), true);
    expectError(await open("/batchAdbInfo", { envIds: [id] }), 404, 404);
    expectError(await open("/screenCapBase64", { id }), 404, 404);
  });
});

describe("emulator: cloud phone apps across a power cycle", () => {
  // On the emulator's manual clock: a boot or an install ends only when the test moves the clock past it.
  const BOOT_MS = 50;
  const INSTALL_MS = 2_000;
  const { emulator } = useEmulator({ cloudPhones: 8, apps: 5, phoneBootMs: BOOT_MS, appInstallMs: INSTALL_MS, manualClock: true });
  const local = (path: string, body: unknown) => call(emulator().localUrl, `/api/cloudphone${path}`, { body });
  const status = async (id: string): Promise<number> => dataOf<{ envStatus: number }>(await local("/info", { id })).envStatus;
  /** Powers the phone off and on, and lets the boot end. */
  const cycle = async (id: string): Promise<void> => {
    dataOf(await local("/powerOff", { id }));
    dataOf(await local("/powerOn", { id }));
    emulator().advanceClock(BOOT_MS);
    assert.equal(await status(id), 4, "the phone is on again");
  };

  it("loses an install still in progress when the phone powers off, and stops its running apps", async () => {
    const [phone, other] = emulator().data.cloudPhones.filter((p) => p.envStatus === 4);
    assert.ok(phone && other);
    const installed = async (): Promise<string[]> => dataOf<Installed[]>(await local("/app/installedList", { id: phone.id })).map((i) => i.packageName);
    const before = await installed();
    const target = emulator().data.apps.find((a) => !before.includes(a.packageName));
    assert.ok(target);
    dataOf(await local("/app/install", { id: phone.id, appVersionId: target.appVersionList[0]?.id }));
    await cycle(phone.id);
    // An absence: with the clock past the time the install would have landed, it is still not there.
    emulator().advanceClock(INSTALL_MS);
    assert.deepEqual(await installed(), before, "the install was lost");

    dataOf(await local("/app/install", { id: phone.id, appVersionId: target.appVersionList[0]?.id }));
    emulator().advanceClock(INSTALL_MS);
    assert.deepEqual(await installed(), [...before, target.packageName], "an install on a phone that stays on lands");
    dataOf(await local("/app/start", { id: phone.id, packageName: target.packageName }));
    const pidof = async (): Promise<string> => dataOf<string>(await local("/exeCommand", { id: phone.id, command: `pidof ${target.packageName}` }));
    assert.match(await pidof(), /^\d+$/);
    await cycle(phone.id);
    assert.equal(await pidof(), "", "apps do not survive a power cycle");
    assert.deepEqual(await installed(), [...before, target.packageName], "installed apps do");
  });
});
