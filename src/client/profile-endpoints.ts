import type { EndpointDefinition } from "./endpoint-definition";
import type {
  ClosedProfile,
  KernelVersions,
  MobileDevice,
  Page,
  Platform,
  Profile,
  ProfileLock,
  ProfileProcess,
  ProfileStatus,
  RunningProfile,
  Screen,
  StartedProfile,
  TimeZonesAndLanguages,
  UserAgent,
  ValueOption,
} from "./types";

/** Starting or closing a browser: MoreLogin's own CLI allows 30 s; a slow machine needs more. */
const PROFILE_TIMEOUT_MS = 60_000;
/** Downloading browser kernels: MoreLogin's CLI waits 1,810 s. */
const KERNEL_DOWNLOAD_TIMEOUT_MS = 1_810_000;

/** Browser profiles, on the Local API alone (the browser spec has no Open API twin for these): listing, starting and closing them, and managing them. */
export const PROFILE_ENDPOINTS = {
  listProfiles: { api: "local", method: "POST", path: "/api/env/page", idempotency: "read", pageField: "pageNo", idFields: ["groupId", "envId"] },
  startProfile: {
    api: "local",
    method: "POST",
    path: "/api/env/start",
    idempotency: "write",
    timeoutMs: PROFILE_TIMEOUT_MS,
    limited: true,
    capacity: { kind: "profiles", effect: "take" },
    idFields: ["envId"],
    requiresOneOf: ["envId", "uniqueId"],
  },
  closeProfile: {
    api: "local",
    method: "POST",
    path: "/api/env/close",
    idempotency: "write",
    timeoutMs: PROFILE_TIMEOUT_MS,
    capacity: { kind: "profiles", effect: "free" },
    idFields: ["envId"],
    requiresOneOf: ["envId", "uniqueId"],
  },
  profileStatus: { api: "local", method: "POST", path: "/api/env/status", idempotency: "read", idFields: ["envId"], requiresOneOf: ["envId"] },
  profileDetail: { api: "local", method: "POST", path: "/api/env/detail", idempotency: "read", idFields: ["envId"], requiresOneOf: ["envId"] },
  runningProfiles: { api: "local", method: "POST", path: "/api/env/getAllDebugInfo", idempotency: "read" },
  downloadKernels: { api: "local", method: "POST", path: "/api/env/core/download", idempotency: "write", timeoutMs: KERNEL_DOWNLOAD_TIMEOUT_MS },
  createProfiles: {
    api: "local",
    method: "POST",
    path: "/api/env/create/quick",
    idempotency: "write",
    idFields: ["groupId"],
    // One Chrome profile on Windows unless the caller says otherwise; the spec requires all three.
    defaults: { browserTypeId: 1, operatorSystemId: 1, quantity: 1 },
    required: ["browserTypeId", "operatorSystemId", "quantity"],
  },
  // One profile with every setting; not idempotent (the spec: no idempotency key), so never sent again once it may have arrived.
  createAdvanced: {
    api: "local",
    method: "POST",
    path: "/api/env/create/advanced",
    idempotency: "write",
    idFields: ["groupId", "proxyId"],
    idListFields: ["tagIds"],
    // Chrome on Windows unless the caller says otherwise, as for createProfiles; the spec requires both.
    defaults: { browserTypeId: 1, operatorSystemId: 1 },
    required: ["browserTypeId", "operatorSystemId"],
  },
  updateProfile: { api: "local", method: "POST", path: "/api/env/update", idempotency: "write", idFields: ["envId", "groupId", "proxyId"], required: ["envId"] },
  deleteProfiles: { api: "local", method: "POST", path: "/api/env/removeToRecycleBin/batch", idempotency: "write", idListFields: ["envIds"], required: ["envIds"] },
  refreshFingerprint: { api: "local", method: "POST", path: "/api/env/fingerprint/refresh", idempotency: "write", idFields: ["envId"], requiresOneOf: ["envId", "uniqueId"] },
  clearProfileCache: { api: "local", method: "POST", path: "/api/env/removeLocalCache", idempotency: "write", idFields: ["envId"], requiresOneOf: ["envId", "uniqueId"] },
  setProfileGroup: { api: "local", method: "POST", path: "/api/env/setGroup/batch", idempotency: "write", idListFields: ["envIds"], required: ["groupName"], requiresOneOf: ["envIds", "uniqueIds"] },
  setProfileProxy: { api: "local", method: "POST", path: "/api/env/setProxy/batch", idempotency: "write", idListFields: ["envIds"], required: ["proxy"], requiresOneOf: ["envIds", "uniqueIds"] },
  // `envRemark` is required too, but "" clears the remark: the profile node checks it is there.
  setProfileRemark: { api: "local", method: "POST", path: "/api/env/setRemark/batch", idempotency: "write", idListFields: ["envIds"], requiresOneOf: ["envIds", "uniqueIds"] },
  cleanProfileCloudCache: { api: "local", method: "POST", path: "/api/env/cache/cleanCloud", idempotency: "write", idFields: ["envId"], requiresOneOf: ["envId", "uniqueId"] },
  closeAllProfiles: {
    api: "local",
    method: "POST",
    path: "/api/env/closeAll",
    idempotency: "write",
    timeoutMs: PROFILE_TIMEOUT_MS,
    capacity: { kind: "profiles", effect: "freeAll" },
  },
  profileLock: { api: "local", method: "POST", path: "/api/env/lock/query", idempotency: "read", idFields: ["envId"], required: ["envId"] },
  profileProcesses: { api: "local", method: "POST", path: "/api/env/getAllProcessIds", idempotency: "read" },
  listScreens: { api: "local", method: "POST", path: "/api/env/getAllScreen", idempotency: "read" },
  // Moves windows, so never sent again once it may have arrived (though arranging twice does no harm).
  arrangeWindows: { api: "local", method: "POST", path: "/api/env/arrangeWindows", idempotency: "write", idListFields: ["envIds"] },
  userAgent: { api: "local", method: "POST", path: "/api/env/advanced/ua/get", idempotency: "read", required: ["os"], replyFields: ["ua", "resolution"] },
  // The catalogues a profile's settings name their values from (the spec's "Fingerprint & Device Config").
  kernelVersions: { api: "local", method: "GET", path: "/api/env/advanced/ua/versions", idempotency: "read" },
  timeZonesAndLanguages: { api: "local", method: "POST", path: "/api/env/base/list", idempotency: "read", required: ["os"] },
  resolutions: { api: "local", method: "POST", path: "/api/env/base/resolution/list", idempotency: "read", required: ["os"] },
  platforms: { api: "local", method: "GET", path: "/api/system/platform/list", idempotency: "read" },
  mobileDevices: { api: "local", method: "POST", path: "/api/env/base/mobile/devices", idempotency: "read" },
} as const satisfies Record<keyof ProfileEndpointData, EndpointDefinition>;

/** What each of these endpoints' `data` holds. */
export interface ProfileEndpointData {
  listProfiles: Page<Profile>;
  startProfile: StartedProfile;
  closeProfile: ClosedProfile;
  profileStatus: ProfileStatus;
  profileDetail: Profile;
  runningProfiles: RunningProfile[];
  downloadKernels: unknown;
  createProfiles: string[];
  createAdvanced: string;
  updateProfile: null;
  deleteProfiles: boolean;
  refreshFingerprint: null;
  clearProfileCache: { envId: string };
  setProfileGroup: boolean;
  setProfileProxy: boolean;
  setProfileRemark: boolean;
  cleanProfileCloudCache: null;
  closeAllProfiles: unknown;
  profileLock: ProfileLock;
  profileProcesses: ProfileProcess[];
  listScreens: Screen[];
  arrangeWindows: null;
  userAgent: UserAgent;
  kernelVersions: KernelVersions[];
  timeZonesAndLanguages: TimeZonesAndLanguages;
  resolutions: ValueOption[];
  platforms: Platform[];
  mobileDevices: MobileDevice[];
}
