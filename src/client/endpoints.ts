import type { CapacityRole } from "./capacity";
import type { Idempotency } from "./retry";
import type {
  AdbInfo,
  ApiName,
  App,
  AutomationRun,
  AutomationTask,
  AutomationTemplate,
  ClosedProfile,
  CloudPhone,
  CloudPhoneDetail,
  CloudPhoneModel,
  CloudPhoneTransfer,
  Group,
  HttpMethod,
  Page,
  Profile,
  ProfileStatus,
  ProxyInfo,
  RunningProfile,
  ScreenCapture,
  StartedProfile,
  Tag,
} from "./types";

export interface EndpointDefinition {
  /** The API a call goes to unless it names the other one (see `twinPath`). */
  api: ApiName;
  method: HttpMethod;
  path: string;
  /** The path of the same operation on the other API, for endpoints both APIs have. */
  twinPath?: string;
  idempotency: Idempotency;
  /** The call's own timeout when it is not the ordinary one: launching a browser or a phone takes long. */
  timeoutMs?: number;
  /** Counts against the client's `concurrency`: a long operation that loads the machine or the account. */
  limited?: boolean;
  /** Starts or stops a profile or phone: counts against the config node's `maxProfiles` or `maxPhones`. */
  capacity?: CapacityRole;
  /** Fields always sent, with these values when the caller leaves them out (the API requires them). */
  defaults?: Readonly<Record<string, unknown>>;
  /** The field that carries the page number, for paged endpoints. */
  pageField?: "pageNo" | "pageNum";
  /** Fields that hold a MoreLogin ID and must stay decimal strings. */
  idFields?: readonly string[];
  /** Fields that hold a list of MoreLogin IDs: each item must be, and is sent as, a decimal string. */
  idListFields?: readonly string[];
  /** Each of these fields must be present (not blank, not an empty list): the spec marks them required. */
  required?: readonly string[];
  /** At least one of these fields must be present. */
  requiresOneOf?: readonly string[];
  /** The API takes this field's list as the whole body, a bare JSON array (callers still pass an object). */
  sendsList?: string;
}

/** Starting or closing a browser: MoreLogin's own CLI allows 30 s; a slow machine needs more. */
const PROFILE_TIMEOUT_MS = 60_000;
/** A cloud phone powers on in 30 to 90 s; MoreLogin's CLI waits 120 s. */
const POWER_ON_TIMEOUT_MS = 120_000;
/** Downloading browser kernels: MoreLogin's CLI waits 1,810 s. */
const KERNEL_DOWNLOAD_TIMEOUT_MS = 1_810_000;

/** Every endpoint the client knows, with its rules; the generic request node applies them by path. */
export const ENDPOINTS = {
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
  listCloudPhones: { api: "local", method: "POST", path: "/api/cloudphone/page", twinPath: "/cloudphone/page", idempotency: "read", pageField: "pageNo" },
  listProxies: { api: "local", method: "POST", path: "/api/proxyInfo/page", idempotency: "read", pageField: "pageNo", idFields: ["id"] },
  listGroups: {
    api: "local",
    method: "POST",
    path: "/api/envgroup/page",
    idempotency: "read",
    pageField: "pageNo",
    defaults: { groupName: "", pageNo: 1, pageSize: 10 },
  },
  listTags: { api: "local", method: "GET", path: "/api/envtag/all", idempotency: "read" },
  listApps: { api: "open", method: "POST", path: "/cloudphone/app/page", twinPath: "/api/cloudphone/app/page", idempotency: "read", pageField: "pageNum" },
  powerOnCloudPhone: {
    api: "local",
    method: "POST",
    path: "/api/cloudphone/powerOn",
    twinPath: "/cloudphone/powerOn",
    idempotency: "write",
    timeoutMs: POWER_ON_TIMEOUT_MS,
    limited: true,
    capacity: { kind: "phones", effect: "take" },
    idFields: ["id"],
    requiresOneOf: ["id"],
  },
  downloadKernels: { api: "local", method: "POST", path: "/api/env/core/download", idempotency: "write", timeoutMs: KERNEL_DOWNLOAD_TIMEOUT_MS },

  // Profile management (Local API only: the browser spec has no Open API twin for these).
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

  // Cloud phones: the Local API, and the Open API where MoreLogin documents the same operation.
  powerOffCloudPhone: {
    api: "local",
    method: "POST",
    path: "/api/cloudphone/powerOff",
    twinPath: "/cloudphone/powerOff",
    idempotency: "write",
    capacity: { kind: "phones", effect: "free" },
    idFields: ["id"],
    required: ["id"],
  },
  restartCloudPhone: {
    api: "local",
    method: "POST",
    path: "/api/cloudphone/restart",
    idempotency: "write",
    capacity: { kind: "phones", effect: "take" },
    idFields: ["id"],
    required: ["id"],
  },
  cloudPhoneInfo: { api: "local", method: "POST", path: "/api/cloudphone/info", twinPath: "/cloudphone/info", idempotency: "read", idFields: ["id"], required: ["id"] },
  setCloudPhoneAdb: {
    api: "local",
    method: "POST",
    path: "/api/cloudphone/updateAdb",
    twinPath: "/cloudphone/updateAdb",
    idempotency: "write",
    idListFields: ["ids"],
    required: ["ids", "enableAdb"],
  },
  cloudPhoneAdbInfo: { api: "local", method: "POST", path: "/api/cloudphone/batchAdbInfo", idempotency: "read", idListFields: ["envIds"], required: ["envIds"] },
  cloudPhoneShell: { api: "local", method: "POST", path: "/api/cloudphone/exeCommand", twinPath: "/cloudphone/exeCommand", idempotency: "write", idFields: ["id"], required: ["id", "command"] },
  installCloudPhoneApp: {
    api: "local",
    method: "POST",
    path: "/api/cloudphone/app/install",
    twinPath: "/cloudphone/app/install",
    idempotency: "write",
    idFields: ["id", "appVersionId"],
    required: ["id"],
    requiresOneOf: ["appVersionId", "packageName"],
  },
  startCloudPhoneApp: {
    api: "local",
    method: "POST",
    path: "/api/cloudphone/app/start",
    twinPath: "/cloudphone/app/start",
    idempotency: "write",
    idFields: ["id"],
    required: ["id", "packageName"],
  },
  stopCloudPhoneApp: {
    api: "local",
    method: "POST",
    path: "/api/cloudphone/app/stop",
    twinPath: "/cloudphone/app/stop",
    idempotency: "write",
    idFields: ["id"],
    required: ["id", "packageName"],
  },
  restartCloudPhoneApp: {
    api: "local",
    method: "POST",
    path: "/api/cloudphone/app/restart",
    twinPath: "/cloudphone/app/restart",
    idempotency: "write",
    idFields: ["id"],
    required: ["id", "packageName"],
  },
  uninstallCloudPhoneApp: {
    api: "local",
    method: "POST",
    path: "/api/cloudphone/app/uninstall",
    twinPath: "/cloudphone/app/uninstall",
    idempotency: "write",
    idFields: ["id"],
    required: ["id", "packageName"],
  },
  newCloudPhoneMachine: {
    api: "local",
    method: "POST",
    path: "/api/cloudphone/newMachine",
    twinPath: "/cloudphone/newMachine",
    idempotency: "write",
    idFields: ["id"],
    required: ["id"],
  },
  cloudPhoneScreenshot: { api: "local", method: "POST", path: "/api/cloudphone/screenCapBase64", idempotency: "read", idFields: ["id"], required: ["id"] },
  // A fleet of cloud phones and files on them (both APIs; docs/CLOUD-PHONES.md gives the spec's schemas).
  createCloudPhones: {
    api: "local",
    method: "POST",
    path: "/api/cloudphone/create",
    twinPath: "/cloudphone/create",
    idempotency: "write",
    idFields: ["proxyId", "groupId"],
    required: ["skuId", "quantity"],
  },
  editCloudPhones: { api: "local", method: "POST", path: "/api/cloudphone/edit/batch", twinPath: "/cloudphone/edit/batch", idempotency: "write", idListFields: ["id"], required: ["id"] },
  deleteCloudPhones: { api: "local", method: "POST", path: "/api/cloudphone/delete/batch", twinPath: "/cloudphone/delete/batch", idempotency: "write", idListFields: ["ids"], required: ["ids"] },
  cloudPhoneModels: { api: "local", method: "POST", path: "/api/cloudphone/brand/models", twinPath: "/cloudphone/brand/models", idempotency: "read", required: ["skuId"] },
  hideCloudPhoneAccessibilityApps: {
    api: "local",
    method: "POST",
    path: "/api/cloudphone/app/setHideAccessibilityApp",
    twinPath: "/cloudphone/app/setHideAccessibilityApp",
    idempotency: "write",
    idListFields: ["ids"],
    required: ["ids", "packageName"],
  },
  setCloudPhoneKeyBox: { api: "local", method: "POST", path: "/api/cloudphone/setKeyBox", twinPath: "/cloudphone/setKeyBox", idempotency: "write", idFields: ["id"], required: ["id", "filePath"] },
  cloudPhoneUploadUrl: {
    api: "local",
    method: "POST",
    path: "/api/cloudphone/upload/file/signedUrl",
    twinPath: "/cloudphone/uploadUrl",
    idempotency: "write",
    idFields: ["id"],
    required: ["id", "fileName"],
  },
  uploadToCloudPhone: {
    api: "local",
    method: "POST",
    path: "/api/cloudphone/upload/file",
    twinPath: "/cloudphone/uploadFile",
    idempotency: "write",
    idFields: ["id"],
    required: ["id", "url", "uploadDest"],
  },
  cloudPhoneUploadResult: {
    api: "local",
    method: "POST",
    path: "/api/cloudphone/upload/file/result",
    twinPath: "/cloudphone/uploadFileResult",
    idempotency: "read",
    idFields: ["id", "fileId"],
    required: ["id", "fileId"],
  },
  downloadFromCloudPhone: { api: "local", method: "POST", path: "/api/cloudphone/download", twinPath: "/cloudphone/download", idempotency: "write", idFields: ["id"], required: ["id", "filePath"] },
  cloudPhoneDownloadResult: {
    api: "local",
    method: "POST",
    path: "/api/cloudphone/download/result",
    twinPath: "/cloudphone/download/result",
    idempotency: "read",
    idFields: ["id", "downId"],
    required: ["id", "downId"],
  },

  // Proxies, groups and tags of the team (the shared spec; the Open API has the same paths without /api).
  addProxy: {
    api: "local",
    method: "POST",
    path: "/api/proxyInfo/add",
    twinPath: "/proxyInfo/add",
    idempotency: "write",
    required: ["proxyIp", "proxyPort", "proxyProvider"],
  },
  // A full overwrite: fields left out fall back to their defaults.
  updateProxy: {
    api: "local",
    method: "POST",
    path: "/api/proxyInfo/update",
    twinPath: "/proxyInfo/update",
    idempotency: "write",
    idFields: ["id"],
    required: ["id", "proxyIp", "proxyPort", "proxyProvider"],
  },
  deleteProxies: {
    api: "local",
    method: "POST",
    path: "/api/proxyInfo/delete",
    twinPath: "/proxyInfo/delete",
    idempotency: "write",
    idListFields: ["ids"],
    required: ["ids"],
    sendsList: "ids",
  },
  createGroup: { api: "local", method: "POST", path: "/api/envgroup/create", twinPath: "/envgroup/create", idempotency: "write", required: ["groupName"] },
  editGroup: { api: "local", method: "POST", path: "/api/envgroup/edit", twinPath: "/envgroup/edit", idempotency: "write", idFields: ["id"], required: ["id", "groupName"] },
  deleteGroups: { api: "local", method: "POST", path: "/api/envgroup/delete", twinPath: "/envgroup/delete", idempotency: "write", idListFields: ["ids"], required: ["ids"] },
  createTag: { api: "local", method: "POST", path: "/api/envtag/create", twinPath: "/envtag/create", idempotency: "write", required: ["tagName"] },
  editTag: { api: "local", method: "POST", path: "/api/envtag/edit", twinPath: "/envtag/edit", idempotency: "write", idFields: ["id"], required: ["id", "tagName"] },
  deleteTags: { api: "local", method: "POST", path: "/api/envtag/delete", twinPath: "/envtag/delete", idempotency: "write", idListFields: ["ids"], required: ["ids"] },

  // Cloud-phone automation (RPA): the same paths on both APIs, under /api/cloudphone/rpa and /cloudphone/rpa.
  marketTemplates: {
    api: "local",
    method: "POST",
    path: "/api/cloudphone/rpa/template/market/page",
    twinPath: "/cloudphone/rpa/template/market/page",
    idempotency: "read",
    pageField: "pageNo",
  },
  personalTemplates: {
    api: "local",
    method: "POST",
    path: "/api/cloudphone/rpa/template/personal/page",
    twinPath: "/cloudphone/rpa/template/personal/page",
    idempotency: "read",
    pageField: "pageNo",
  },
  runTemplateOnce: {
    api: "local",
    method: "POST",
    path: "/api/cloudphone/rpa/onceTask/save",
    twinPath: "/cloudphone/rpa/onceTask/save",
    idempotency: "write",
    idFields: ["cloudPhoneId", "templateId"],
    required: ["cloudPhoneId", "scheduleName", "templateId"],
  },
  scheduleTemplate: {
    api: "local",
    method: "POST",
    path: "/api/cloudphone/rpa/task/save",
    twinPath: "/cloudphone/rpa/task/save",
    idempotency: "write",
    idFields: ["templateId"],
    required: ["cloudPhoneConfigs", "scheduleConfig", "taskName", "taskType", "templateId", "templateType"],
  },
  automationTasks: { api: "local", method: "POST", path: "/api/cloudphone/rpa/task/page", twinPath: "/cloudphone/rpa/task/page", idempotency: "read", pageField: "pageNo" },
  cancelAutomationTask: {
    api: "local",
    method: "POST",
    path: "/api/cloudphone/rpa/task/cancel",
    twinPath: "/cloudphone/rpa/task/cancel",
    idempotency: "write",
    idFields: ["id"],
    required: ["id"],
  },
  automationRuns: {
    api: "local",
    method: "POST",
    path: "/api/cloudphone/rpa/subTask/page",
    twinPath: "/cloudphone/rpa/subTask/page",
    idempotency: "read",
    pageField: "pageNo",
    idFields: ["taskId", "templateId", "cloudPhoneId"],
  },
} as const satisfies Record<string, EndpointDefinition>;

export type EndpointName = keyof typeof ENDPOINTS;
export type PagedEndpointName = {
  [K in EndpointName]: (typeof ENDPOINTS)[K] extends { pageField: string } ? K : never;
}[EndpointName];

/** What each endpoint's `data` holds. */
export interface EndpointData {
  listProfiles: Page<Profile>;
  startProfile: StartedProfile;
  closeProfile: ClosedProfile;
  profileStatus: ProfileStatus;
  profileDetail: Profile;
  runningProfiles: RunningProfile[];
  listCloudPhones: Page<CloudPhone>;
  listProxies: Page<ProxyInfo>;
  listGroups: Page<Group>;
  listTags: Tag[];
  listApps: Page<App>;
  powerOnCloudPhone: null;
  downloadKernels: unknown;
  createProfiles: string[];
  updateProfile: null;
  deleteProfiles: boolean;
  refreshFingerprint: null;
  clearProfileCache: { envId: string };
  setProfileGroup: boolean;
  setProfileProxy: boolean;
  setProfileRemark: boolean;
  closeAllProfiles: unknown;
  cleanProfileCloudCache: null;
  addProxy: string | number;
  updateProxy: null;
  deleteProxies: null;
  createGroup: Group;
  editGroup: boolean;
  deleteGroups: boolean;
  createTag: Tag;
  editTag: boolean;
  deleteTags: boolean;
  restartCloudPhoneApp: boolean;
  uninstallCloudPhoneApp: boolean;
  newCloudPhoneMachine: null;
  powerOffCloudPhone: null;
  restartCloudPhone: null;
  cloudPhoneInfo: CloudPhoneDetail;
  setCloudPhoneAdb: null;
  cloudPhoneAdbInfo: AdbInfo[];
  cloudPhoneShell: string;
  installCloudPhoneApp: boolean;
  startCloudPhoneApp: unknown;
  stopCloudPhoneApp: unknown;
  cloudPhoneScreenshot: ScreenCapture;
  createCloudPhones: string[];
  editCloudPhones: null;
  deleteCloudPhones: null;
  cloudPhoneModels: CloudPhoneModel[];
  hideCloudPhoneAccessibilityApps: boolean;
  setCloudPhoneKeyBox: boolean;
  cloudPhoneUploadUrl: { presignedUrl: string };
  uploadToCloudPhone: CloudPhoneTransfer;
  cloudPhoneUploadResult: CloudPhoneTransfer | null;
  downloadFromCloudPhone: { id: string | number; downId: string | number };
  cloudPhoneDownloadResult: { status: number; downId?: string | number; downUrl?: string };
  marketTemplates: Page<AutomationTemplate>;
  personalTemplates: Page<AutomationTemplate>;
  runTemplateOnce: number | string;
  scheduleTemplate: number | string;
  automationTasks: Page<AutomationTask>;
  cancelAutomationTask: null;
  automationRuns: Page<AutomationRun>;
}

/** The path of an endpoint on one API; undefined when that API does not have it. */
export function pathOn(definition: EndpointDefinition, api: ApiName): string | undefined {
  return api === definition.api ? definition.path : definition.twinPath;
}

const otherApi = (api: ApiName): ApiName => (api === "local" ? "open" : "local");

const BY_PATH = new Map<string, EndpointDefinition>();
for (const definition of Object.values(ENDPOINTS) as EndpointDefinition[]) {
  BY_PATH.set(`${definition.api} ${definition.method} ${definition.path}`, definition);
  if (definition.twinPath) BY_PATH.set(`${otherApi(definition.api)} ${definition.method} ${definition.twinPath}`, definition);
}

/** The known endpoint a generic request names (its query string aside), if any. */
export function endpointAt(api: ApiName, method: HttpMethod, path: string): EndpointDefinition | undefined {
  const end = path.indexOf("?");
  return BY_PATH.get(`${api} ${method} ${end === -1 ? path : path.slice(0, end)}`);
}

export type ItemOf<K extends PagedEndpointName> = EndpointData[K] extends Page<infer T> ? T : never;

/** The largest page size the API allows (documented maximum for the list endpoints). */
export const MAX_PAGE_SIZE = 100;
