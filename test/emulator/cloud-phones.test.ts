import assert from "node:assert/strict";
import type { CloudPhone } from "../../src/emulator";
import { generateData } from "../../src/emulator/data";
import { call, dataOf, type PageShape } from "../support/http";
import { useEmulator } from "../support/emulator";

const counts = { seed: 1, profiles: 5, cloudPhones: 12, proxies: 8, groups: 5, tags: 6, apps: 3 };
const DATE = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
const keys = (value: object): string[] => Object.keys(value).sort();

/** The AdbInfo fields of the 2026-09-05 cloud-phone spec. */
function checkAdbInfo(phone: CloudPhone): void {
  const adb = phone.adbInfo;
  assert.deepEqual(keys(adb), ["adbIp", "adbPassword", "adbPort", "command", "expireTime", "remark", "success"]);
  assert.equal(typeof adb.remark, "string");
  if (phone.envStatus === 4 && phone.enableAdb) {
    assert.equal(adb.success, 1);
    assert.match(adb.adbIp, /^\d+\.\d+\.\d+\.\d+$/);
    assert.match(adb.adbPort, /^\d+$/, "adbPort is a string of digits");
    assert.match(adb.adbPassword, /^\S+$/);
    assert.match(adb.expireTime ?? "", DATE);
    assert.equal(adb.remark, "");
    if (adb.command !== null) assert.match(adb.command, new RegExp(`^ssh -oHostKeyAlgorithms=\\+ssh-rsa \\S+@${adb.adbIp.replace(/\./g, "\\.")} -p ${adb.adbPort} -L \\d+:adb-proxy:\\d+ -Nf$`));
  } else {
    assert.deepEqual({ ...adb, remark: "" }, { adbIp: "", adbPassword: "", adbPort: "", command: null, expireTime: null, remark: "", success: 0 });
    assert.ok(adb.remark.length > 0, "a failure says why");
  }
}

describe("emulator: cloud phones", () => {
  const { emulator } = useEmulator(counts);

  it("give ADB details only to powered-on phones with ADB enabled, and the seeded data has every case", async () => {
    const phones = dataOf<PageShape<CloudPhone>>(await call(emulator().localUrl, "/api/cloudphone/page", { body: { pageNo: 1, pageSize: 100 } })).dataList;
    assert.equal(phones.length, 12);
    for (const phone of phones) checkAdbInfo(phone);
    const cases = new Set(phones.map((p) => (p.envStatus !== 4 ? "off" : !p.enableAdb ? "adb off" : p.adbInfo.command === null ? "direct" : "tunnel")));
    assert.deepEqual([...cases].sort(), ["adb off", "direct", "off", "tunnel"]);
  });

  it("carry a proxy with the fields and types of the cloud-phone spec, taken from the proxies phones can use", async () => {
    const { cloudPhones, proxies } = emulator().data;
    for (const phone of cloudPhones) {
      const proxy = phone.proxy;
      assert.ok(proxy, phone.envName);
      assert.deepEqual(keys(proxy), [
        "city",
        "country",
        "countryCode",
        "createDate",
        "delFlag",
        "expiryTime",
        "exportIp",
        "groupId",
        "id",
        "providerCode",
        "proxyAreaCode",
        "proxyCatagoryType",
        "proxyCheckStatus",
        "proxyInfo",
        "proxyIp",
        "proxyName",
        "proxyPort",
        "proxyRegionCode",
        "proxyStatus",
        "proxySub",
        "proxyType",
        "proxyTypeCode",
        "regionKey",
        "releaseTime",
        "state",
        "uniqueId",
      ]);
      assert.deepEqual(keys(proxy.proxySub), ["activeRecordId", "businessId", "createMember", "endTime", "id", "nextBillingTime", "startTime", "subPayMethod", "subStatus", "subType", "teamId"]);
      for (const field of ["id", "proxyName", "proxyIp", "country", "countryCode", "exportIp", "createDate", "expiryTime", "groupId", "releaseTime"] as const) {
        assert.equal(typeof proxy[field], "string", field);
      }
      for (const field of ["proxyStatus", "proxyCheckStatus", "proxyCatagoryType", "proxyType", "delFlag", "uniqueId"] as const) {
        assert.ok(Number.isInteger(proxy[field]), field);
      }
      assert.ok(proxy.proxyPort === null || Number.isInteger(proxy.proxyPort));
      assert.match(proxy.createDate, DATE);
      const listed = proxies.find((p) => p.id === proxy.id);
      assert.ok(listed, "the phone's proxy is one of the listed proxies");
      assert.deepEqual(
        [proxy.proxyName, proxy.proxyIp, proxy.proxyPort, proxy.countryCode, proxy.proxyStatus, proxy.proxyCheckStatus, proxy.proxyCatagoryType, proxy.proxyType],
        [listed.proxyName, listed.proxyIp, listed.proxyPort, listed.countryCode, listed.proxyStatus, listed.proxyCheckStatus, listed.proxyCategoryType, listed.proxyProvider],
      );
      assert.notEqual(listed.proxyIp, "");
      assert.ok(!listed.proxyIp.startsWith("192.168.") && listed.proxyProvider !== 16, "cloud phones get no private or Pia proxy");
    }
    assert.ok(new Set(cloudPhones.map((p) => p.proxy?.id)).size > 1, "phones use different proxies");
  });

  it("is deterministic for a seed (the addresses of emulated proxies then pointed at their listeners), and gives no proxy when there is none to give", () => {
    const listeners = new Map(
      emulator()
        .emulatedProxies()
        .map((proxy) => [proxy.id, proxy.port]),
    );
    const generated = generateData(counts).cloudPhones;
    for (const phone of generated) {
      const port = phone.proxy === null ? undefined : listeners.get(phone.proxy.id);
      if (phone.proxy && port !== undefined) Object.assign(phone.proxy, { proxyIp: "127.0.0.1", proxyPort: port });
    }
    assert.ok(
      generated.some((phone) => phone.proxy?.proxyIp === "127.0.0.1"),
      "some phones use an emulated proxy",
    );
    assert.deepEqual(generated, emulator().data.cloudPhones);
    assert.ok(generateData({ ...counts, proxies: 0 }).cloudPhones.every((phone) => phone.proxy === null));
  });
});
