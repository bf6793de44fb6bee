import { type AdbConnection, adbConnection, adbInfoOf, POWERED_ON } from "./cloud-phone-data";
import { formatUtc } from "./dates";
import type { ResolvedOptions } from "./options";
import { mulberry32, pick, randomInt, type Random } from "./prng";
import { MEMBER_ID, MEMBER_NAME } from "./team";
import type { Timers } from "./timers";
import type { App, AppVersion, CloudPhone, EmulatorData } from "./types";
import { PHONE_SKUS, type PhoneModel, type PhoneSku } from "./phone-models";

/** Cloud phone envStatus values (the cloud-phone spec). */
export const PHONE_STATUS = { new: 0, poweredOff: 2, booting: 3, poweredOn: POWERED_ON, resetting: 5, restarting: 6 } as const;

/** The device of a SKU's phones when a create names none: here for the tests and code that read it from here. */
export { deviceOfSku } from "./phone-models";

const COUNTRY_NAMES: Readonly<Record<string, string>> = { US: "United States", GB: "United Kingdom", DE: "Germany", JP: "Japan", SG: "Singapore" };

export interface InstalledApp {
  appName: string;
  appIcon: string;
  packageName: string;
  versionCode: string;
  versionName: string;
}

/** One phone: the listed item (kept in step) and what only its detail, ADB and apps show. */
export interface PhoneEntry {
  readonly phone: CloudPhone;
  readonly skuId: string;
  readonly android: string;
  readonly brand: string;
  readonly model: string;
  readonly gaid: string;
  readonly wifiBssid: string;
  readonly bluetoothMac: string;
  /** The ADB details the phone gives while it is on with ADB enabled. */
  readonly connection: AdbConnection;
  lastStartDate: string;
  updateDate: string;
  readonly installed: Map<string, InstalledApp>;
  readonly runningApps: Set<string>;
  /** Changes on every power change, so an install begun before it never lands after it. */
  epoch: number;
  cancelBoot?: () => void;
}

export type PowerResult = "ok" | "notFound" | "busy" | "notRunning" | "restarting";

const hex = (random: Random, length: number): string => Array.from({ length }, () => Math.floor(random() * 16).toString(16)).join("");
const mac = (random: Random): string => Array.from({ length: 6 }, () => hex(random, 2)).join(":");
const now = (): string => formatUtc(Date.now());

function installedOf(app: App, version: AppVersion): InstalledApp {
  return { appName: app.appName, appIcon: app.appIcon, packageName: app.packageName, versionCode: version.versionCode, versionName: version.versionName };
}

/** The newest version: the highest versionCode. */
export function latestVersion(app: App): AppVersion | undefined {
  return [...app.appVersionList].sort((a, b) => Number(b.versionCode) - Number(a.versionCode))[0];
}

/** Power, ADB and apps of the seeded cloud phones, as the cloud-phone spec describes them. */
export class PhoneRuntime {
  private readonly entries = new Map<string, PhoneEntry>();
  private readonly random: Random;

  constructor(
    data: EmulatorData,
    private readonly options: Pick<ResolvedOptions, "seed" | "phoneBootMs" | "appInstallMs" | "phonesOn">,
    private readonly timers: Timers,
    /** Told after every power change (the emulator's peak counter). */
    private readonly onPowerChange: () => void = () => {},
  ) {
    const random = mulberry32(options.seed ^ 0xc10d);
    this.random = random;
    data.cloudPhones.forEach((phone, index) => {
      const sku = PHONE_SKUS[index % PHONE_SKUS.length];
      if (!sku) return;
      const entry = this.entryOf(phone, sku, sku.models[0], index);
      for (let n = randomInt(random, 0, 2); n > 0 && data.apps.length > 0; n--) {
        const app = pick(random, data.apps);
        const version = latestVersion(app);
        if (version) entry.installed.set(app.packageName, installedOf(app, version));
      }
      this.entries.set(phone.id, entry);
    });
    if (options.phonesOn !== undefined) this.powerAtStart(options.phonesOn);
  }

  /**
   * The first `count` seeded phones on (4), the others off (2): how many are on at start is the data's
   * choice, the states are the spec's. What the seed drew stays as it was (IDs, ADB details, apps).
   */
  private powerAtStart(count: number): void {
    let index = 0;
    for (const entry of this.entries.values()) {
      entry.phone.envStatus = index++ < count ? PHONE_STATUS.poweredOn : PHONE_STATUS.poweredOff;
      this.refreshAdb(entry);
    }
  }

  private entryOf(phone: CloudPhone, sku: PhoneSku, device: PhoneModel, index: number): PhoneEntry {
    const random = this.random;
    // A phone that is on with ADB enabled already shows its details; the others get theirs now.
    const seeded = phone.adbInfo.success === 1 ? phone.adbInfo : undefined;
    const connection = seeded ?? adbConnection(random, index);
    return {
      phone,
      skuId: sku.skuId,
      android: sku.android,
      brand: device.brand,
      model: device.model,
      gaid: `${hex(random, 8)}-${hex(random, 4)}-${hex(random, 4)}-${hex(random, 4)}-${hex(random, 12)}`,
      wifiBssid: mac(random),
      bluetoothMac: mac(random),
      connection: { adbIp: connection.adbIp, adbPassword: connection.adbPassword, adbPort: connection.adbPort, command: connection.command, expireTime: connection.expireTime },
      lastStartDate: phone.createDate,
      updateDate: phone.createDate,
      installed: new Map(),
      runningApps: new Set(),
      epoch: 0,
    };
  }

  /**
   * A phone `/cloudphone/create` made (already in the list, envStatus 0) as the device it named: powered
   * off (2) once provisioned, after phoneBootMs.
   */
  add(phone: CloudPhone, sku: PhoneSku, device: PhoneModel): void {
    const entry = this.entryOf(phone, sku, device, this.entries.size);
    this.entries.set(phone.id, entry);
    entry.cancelBoot = this.timers.after(this.options.phoneBootMs, () => this.setStatus(entry, PHONE_STATUS.poweredOff));
  }

  /** Phones booting, on, resetting or restarting: the ones MoreLogin bills. */
  poweredCount(): number {
    let count = 0;
    for (const { phone } of this.entries.values()) {
      if (phone.envStatus >= PHONE_STATUS.booting && phone.envStatus <= PHONE_STATUS.restarting) count++;
    }
    return count;
  }

  get(id: string): PhoneEntry | undefined {
    return this.entries.get(id);
  }

  /** Accepted at once: booting (3) now, powered on (4) after phoneBootMs. */
  powerOn(id: string): PowerResult {
    const entry = this.entries.get(id);
    if (!entry) return "notFound";
    if (entry.phone.envStatus !== PHONE_STATUS.poweredOff) return "busy";
    entry.lastStartDate = now();
    this.boot(entry, PHONE_STATUS.booting);
    return "ok";
  }

  /** Off at once; stopping a booting phone interrupts the boot (the spec). */
  powerOff(id: string): PowerResult {
    const entry = this.entries.get(id);
    if (!entry) return "notFound";
    const status = entry.phone.envStatus;
    if (status === PHONE_STATUS.restarting || status === PHONE_STATUS.resetting) return "restarting";
    if (status !== PHONE_STATUS.booting && status !== PHONE_STATUS.poweredOn) return "notRunning";
    this.setStatus(entry, PHONE_STATUS.poweredOff);
    return "ok";
  }

  /** Only a powered-on phone restarts: restarting (6), then powered on (4) after phoneBootMs. */
  restart(id: string): PowerResult {
    const entry = this.entries.get(id);
    if (!entry) return "notFound";
    if (entry.phone.envStatus !== PHONE_STATUS.poweredOn) return "notRunning";
    this.boot(entry, PHONE_STATUS.restarting);
    return "ok";
  }

  /** Forgets a phone (one deleted before it was ever activated); its pending boot or provisioning ends. */
  remove(id: string): void {
    this.entries.get(id)?.cancelBoot?.();
    this.entries.delete(id);
  }

  /** Only a powered-on phone resets: resetting (5), its installed apps gone, then powered on (4) after phoneBootMs. */
  reset(id: string): PowerResult {
    const entry = this.entries.get(id);
    if (!entry) return "notFound";
    if (entry.phone.envStatus !== PHONE_STATUS.poweredOn) return "notRunning";
    entry.installed.clear();
    this.boot(entry, PHONE_STATUS.resetting);
    return "ok";
  }

  setAdb(entry: PhoneEntry, enabled: boolean): void {
    entry.phone.enableAdb = enabled;
    entry.updateDate = now();
    this.refreshAdb(entry);
  }

  /** Queues the install; the app is in the installed list after appInstallMs, unless the phone stopped first. */
  install(entry: PhoneEntry, app: App, version: AppVersion): void {
    const epoch = entry.epoch;
    const land = (): void => {
      if (entry.epoch === epoch && entry.phone.envStatus === PHONE_STATUS.poweredOn) entry.installed.set(app.packageName, installedOf(app, version));
    };
    if (this.options.appInstallMs === 0) land();
    else this.timers.after(this.options.appInstallMs, land);
  }

  private boot(entry: PhoneEntry, status: number): void {
    this.setStatus(entry, status);
    // Any later power change cancels this (setStatus), so it only ever ends the boot it began.
    entry.cancelBoot = this.timers.after(this.options.phoneBootMs, () => this.setStatus(entry, PHONE_STATUS.poweredOn));
  }

  private setStatus(entry: PhoneEntry, status: number): void {
    if (status !== PHONE_STATUS.poweredOn) {
      entry.cancelBoot?.();
      entry.cancelBoot = undefined;
      entry.runningApps.clear();
      entry.epoch++;
    }
    entry.phone.envStatus = status;
    entry.updateDate = now();
    this.refreshAdb(entry);
    this.onPowerChange();
  }

  private refreshAdb(entry: PhoneEntry): void {
    entry.phone.adbInfo = adbInfoOf(entry.phone.envStatus, entry.phone.enableAdb, () => entry.connection);
  }

  /** The spec's CloudPhoneDetail. Fields no source fills (device server and rom) are null and 0. */
  detail(entry: PhoneEntry): Record<string, unknown> {
    const { phone } = entry;
    const proxy = phone.proxy;
    return {
      id: phone.id,
      androidId: phone.androidId,
      gaid: entry.gaid,
      envName: phone.envName,
      groupId: phone.groupId,
      groupName: phone.groupName,
      skuId: entry.skuId,
      tagInfos: phone.tagInfos,
      billingType: phone.billingType,
      proxyStatus: phone.proxyStatus,
      settings: { automaticGeo: true, automaticLocation: true, automaticLanguage: true, longitude: null, latitude: null },
      device: { server: null, countryName: COUNTRY_NAMES[proxy?.countryCode ?? "US"] ?? "", rom: 0, wifiBssid: entry.wifiBssid, bluetoothMac: entry.bluetoothMac },
      proxy: proxy && { id: proxy.id, proxyName: proxy.proxyName, state: proxy.state, city: proxy.city, proxyPort: proxy.proxyPort, proxyIp: proxy.proxyIp },
      lastStartMemberId: MEMBER_ID,
      lastStartMemberName: MEMBER_NAME,
      lastStartDate: entry.lastStartDate,
      lastConnectMemberId: MEMBER_ID,
      lastConnectMemberName: MEMBER_NAME,
      lastConnectDate: entry.lastStartDate,
      envStatus: phone.envStatus,
      abnormalStatus: phone.abnormalStatus,
      expireTime: "",
      envRemark: phone.envRemark,
      createMember: MEMBER_ID,
      updateMember: MEMBER_ID,
      updateDate: entry.updateDate,
      createDate: phone.createDate,
      createMemberName: MEMBER_NAME,
    };
  }
}
