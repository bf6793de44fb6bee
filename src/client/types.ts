/** Shapes of MoreLogin API data as the client sees them. IDs and paging counts are decimal strings. */

export type ApiName = "local" | "open";
export type HttpMethod = "GET" | "POST";

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

export interface Envelope {
  code: number;
  msg: string | null;
  data: unknown;
  requestId?: string;
}

/** A page as every paged MoreLogin endpoint returns it. */
export interface Page<T> {
  total: string;
  current: string;
  pages: string;
  dataList: T[];
}

export interface TagInfo {
  id: string;
  tagName: string;
}

export interface Profile {
  id: string;
  envName: string;
  groupId: string;
  groupName: string | null;
  tagInfos: TagInfo[];
  envRemark: string | null;
  proxyId: string;
  proxy: JsonObject | null;
  [field: string]: unknown;
}

export interface CloudPhone {
  id: string;
  envName: string;
  envStatus: number;
  [field: string]: unknown;
}

/** `/cloudphone/brand/models`: a brand and model MoreLogin offers for a SKU. */
export interface CloudPhoneModel {
  brand: string;
  model: string;
  /** Not in the specification's reply; a row that carries a numeric ID (the emulator's `modelId`) gives `create` its `modelId`. */
  [field: string]: unknown;
}

/** An upload to a cloud phone: `status` 0 uploading, 1 done, 2 failed. */
export interface CloudPhoneTransfer {
  id: string | number;
  fileId: string | number;
  status: number;
}

/** `/cloudphone/info`: `envStatus` 2 stopped, 3 starting, 4 running, 5 resetting, 6 restarting. */
export interface CloudPhoneDetail extends CloudPhone {
  errorCode?: unknown;
  errorMsg?: unknown;
}

/** One row of `/api/cloudphone/batchAdbInfo`. */
export interface AdbInfo {
  id: string;
  [field: string]: unknown;
}

/** `/api/cloudphone/screenCapBase64`: `captureBase64` is a `data:image/png;base64,` URL. */
export interface ScreenCapture {
  captureBase64?: string;
  success?: boolean;
  errorMessage?: string;
  [field: string]: unknown;
}

export interface AutomationTemplate {
  id: string;
  title?: string;
  [field: string]: unknown;
}

/** A schedule (`/rpa/task/page`). */
export interface AutomationTask {
  id: string;
  taskName?: string;
  [field: string]: unknown;
}

/** One run of a schedule on one phone (`/rpa/subTask/page`): `taskState` 0 waiting, 1 running, 3 succeeded, 4 failed, 5 cancelled. */
export interface AutomationRun {
  id: string;
  taskState: number;
  cloudPhoneId?: string;
  endTime?: string;
  [field: string]: unknown;
}

export interface ProxyInfo {
  id: string;
  proxyName: string;
  [field: string]: unknown;
}

export interface Group {
  id: string;
  groupName: string;
}

export interface Tag {
  id: string;
  tagName: string;
}

export interface App {
  id: string;
  appName: string;
  packageName: string;
  [field: string]: unknown;
}

export interface StartedProfile {
  envId: string;
  debugPort: string;
  type?: string;
  version?: number;
  webdriver?: string;
  [field: string]: unknown;
}

export interface ClosedProfile {
  envId: string;
  debugPort: string;
  [field: string]: unknown;
}

/** One row of `/api/env/getAllDebugInfo`: a profile running in the desktop client. */
export interface RunningProfile {
  envId: string;
  uniqueId?: number;
  envName?: string;
  debugPort: string;
  [field: string]: unknown;
}

/** MoreLogin's states of a cloud browser, as its page reports them. */
export type CloudBrowserStatus = "STARTING" | "RUNNING" | "CLOSED";
/** Where saving a stopped cloud browser's data stands; null before its first stop. */
export type CloudBrowserArchiveStatus = "PENDING" | "ARCHIVING" | "COMPLETED" | "FAILED" | null;

/** One row of `/api/cloudbrowser/page`: a profile and its cloud browser's state. */
export interface CloudBrowser {
  id: string;
  envName?: string;
  proxyId?: string | null;
  cloudBrowserStatus: CloudBrowserStatus | string;
  cloudBrowserArchiveStatus?: CloudBrowserArchiveStatus | string;
  startDate?: string | null;
  [field: string]: unknown;
}

/** `/api/cloudbrowser/connect`: where automation reaches a running cloud browser. Both URLs carry its token (a secret). */
export interface CloudBrowserConnection {
  cdpUrl: string;
  accessUrl?: string | null;
  [field: string]: unknown;
}

export interface ProfileStatus {
  envId: string;
  status: string;
  localStatus?: string;
  debugPort: string;
  webdriver?: string;
  [field: string]: unknown;
}

/** What a successful call returns besides its data. */
export interface CallResult<T> {
  data: T;
  api: ApiName;
  path: string;
  requestId?: string;
}

/** `/api/env/lock/query`: whether the profile's security lock is on. */
export interface ProfileLock {
  envId: string;
  locked: boolean;
  [field: string]: unknown;
}

/** One row of `/api/env/getAllProcessIds`: a profile open in the desktop client, with its browser's process ID. */
export interface ProfileProcess {
  envId: string;
  uniqueId: number;
  envName: string;
  pid: number;
  [field: string]: unknown;
}

/** One row of `/api/env/getAllScreen`: a monitor of the desktop client's machine (`id` a string in the newer spec, a number in the older). */
export interface Screen {
  id: string | number;
  width: number;
  height: number;
  x: number;
  y: number;
  scaleFactor: number;
  internal: boolean;
  current: boolean;
  isPrimaryScreen: boolean;
  [field: string]: unknown;
}

/** `/api/env/advanced/ua/get`, read from the reply's top level (its `data` is null): a user agent and a resolution that fits it. */
export interface UserAgent {
  ua: string;
  resolution: { id: string; value: string };
}

/** An entry of a MoreLogin catalogue: its ID (a decimal string) and what it stands for (a time zone, a language, a resolution). */
export interface ValueOption {
  id: string;
  value: string;
}

/** `/api/env/advanced/ua/versions`: the kernel versions of one browser (`browserType` 1 Chrome, 2 Firefox). */
export interface KernelVersions {
  browserType: number;
  versions: number[];
  [field: string]: unknown;
}

/** `/api/env/base/list` for one OS: what `advancedSetting.time_zone.value` and `language.value` name. */
export interface TimeZonesAndLanguages {
  time_zone_list: ValueOption[];
  language_list: ValueOption[];
  [field: string]: unknown;
}

/** A site of a platform: what `accountInfo.siteId` names. */
export interface PlatformSite {
  id: string;
  name?: string;
  host?: string;
  url?: string;
  [field: string]: unknown;
}

/** `/api/system/platform/list`: a platform `accountInfo.platformId` names (9999 = a custom URL), with its sites. */
export interface Platform {
  id: string;
  name: string;
  sites: PlatformSite[];
  [field: string]: unknown;
}

/** `/api/env/base/mobile/devices`: a phone model `advancedSetting.mobile_device` names (`os` 3 Android, 4 iOS). */
export interface MobileDevice {
  id: string;
  name: string;
  resolution?: string;
  os?: number;
  platform?: string;
  [field: string]: unknown;
}
