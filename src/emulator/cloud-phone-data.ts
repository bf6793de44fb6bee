import { idSequence, pick, randomInt, type Random } from "./prng";
import { usableByCloudPhones } from "./proxy-data";
import { dateText, groupFor, numbered, someTags } from "./seed-parts";
import type { AdbInfo, CloudPhone, CloudPhoneProxy, Group, ProxyInfo, Tag } from "./types";

export const POWERED_ON = 4;

/** What ADB access to a phone is, once it is on with ADB enabled (the spec's AdbInfo without the outcome). */
export type AdbConnection = Pick<AdbInfo, "adbIp" | "adbPassword" | "adbPort" | "command" | "expireTime">;

/**
 * Direct phones are reached with `adb connect ip:port` and the password as connection code; the
 * others through the SSH tunnel whose command MoreLogin's ADB guide shows (Android 13/14/15A).
 */
export function adbConnection(random: Random, index: number): AdbConnection {
  const adbIp = `192.0.2.${randomInt(random, 1, 254)}`;
  const adbPort = String(randomInt(random, 10_000, 60_000));
  const adbPassword = String(randomInt(random, 100_000, 999_999));
  const expireTime = dateText(random, 2027);
  if (index % 2 === 0) return { adbIp, adbPassword, adbPort, command: null, expireTime };
  const user = `10.2.${randomInt(random, 0, 255)}.${randomInt(random, 1, 254)}_${randomInt(random, 1_700_000_000_000, 1_800_000_000_000)}`;
  const command = `ssh -oHostKeyAlgorithms=+ssh-rsa ${user}@${adbIp} -p ${adbPort} -L ${randomInt(random, 9_000, 9_999)}:adb-proxy:${randomInt(random, 10_000, 20_000)} -Nf`;
  return { adbIp, adbPassword, adbPort, command, expireTime };
}

/** Why a phone gives no ADB details (the emulator's wording; batchAdbInfo has the spec's own). */
export const ADB_REMARKS = { notPoweredOn: "The cloud phone is not powered on", disabled: "ADB is not enabled" } as const;

/** A phone's AdbInfo: the connection only when it is powered on with ADB enabled. */
export function adbInfoOf(envStatus: number, enableAdb: boolean, connection: () => AdbConnection): AdbInfo {
  const none = { adbIp: "", adbPassword: "", adbPort: "", command: null, expireTime: null };
  if (envStatus !== POWERED_ON) return { ...none, remark: ADB_REMARKS.notPoweredOn, success: 0 };
  if (!enableAdb) return { ...none, remark: ADB_REMARKS.disabled, success: 0 };
  return { ...connection(), remark: "", success: 1 };
}

/**
 * The phone's view of a proxy from the proxy list. The cloud-phone spec's `proxyType` takes the
 * provider values (0 http ... 4 Oxylabs ...), so it carries `proxyProvider`. Fields whose content no
 * public source shows (codes, keys, the subscription) are empty strings, "0" or 0.
 */
export function phoneProxyOf(proxy: ProxyInfo, uniqueId: number, createDate: string): CloudPhoneProxy {
  const expiryTime = proxy.expiryTime ?? "";
  return {
    id: proxy.id,
    proxyName: proxy.proxyName,
    proxyIp: proxy.proxyIp,
    proxyPort: proxy.proxyPort,
    country: proxy.countryCode,
    countryCode: proxy.countryCode,
    state: proxy.state,
    city: proxy.city,
    exportIp: proxy.exportIp,
    proxyStatus: proxy.proxyStatus,
    proxyCheckStatus: proxy.proxyCheckStatus,
    proxyCatagoryType: proxy.proxyCategoryType,
    proxyType: proxy.proxyProvider,
    createDate,
    delFlag: 2,
    expiryTime,
    groupId: "0",
    providerCode: "",
    proxyAreaCode: "",
    proxyInfo: "",
    proxyRegionCode: "",
    proxySub: { activeRecordId: "0", businessId: "0", createMember: 0, endTime: "", id: "0", nextBillingTime: "", startTime: "", subPayMethod: "", subStatus: 0, subType: 0, teamId: "0" },
    proxyTypeCode: "",
    regionKey: "",
    releaseTime: expiryTime,
    uniqueId,
  };
}

export interface PhoneSources {
  groups: readonly Group[];
  tags: readonly Tag[];
  proxies: readonly ProxyInfo[];
}

export function makeCloudPhones(random: Random, count: number, { groups, tags, proxies }: PhoneSources): CloudPhone[] {
  const nextId = idSequence(random, 1_650_000_000_000_000n, 1_000_000);
  const usable = proxies.filter(usableByCloudPhones).map((proxy) => phoneProxyOf(proxy, proxies.indexOf(proxy) + 1, dateText(random, 2025)));
  return Array.from({ length: count }, (_, i) => {
    const enableAdb = random() < 0.5;
    const envStatus = pick(random, [2, POWERED_ON]);
    const proxy = usable[i % Math.max(1, usable.length)];
    return {
      id: nextId(),
      envName: numbered("Phone", i),
      envRemark: "",
      envStatus,
      abnormalStatus: 0,
      billingType: 1,
      enableAdb,
      supportAdb: true,
      adbInfo: adbInfoOf(envStatus, enableAdb, () => adbConnection(random, i)),
      ...groupFor(i, groups),
      tagInfos: someTags(random, tags),
      androidId: Array.from({ length: 16 }, () => Math.floor(random() * 16).toString(16)).join(""),
      proxyStatus: randomInt(random, 0, 3),
      proxy: proxy ?? null,
      createDate: dateText(random),
    };
  });
}
