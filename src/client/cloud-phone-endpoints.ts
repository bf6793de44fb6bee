import type { EndpointDefinition } from "./endpoint-definition";
import type { AdbInfo, App, CloudPhone, CloudPhoneDetail, CloudPhoneModel, CloudPhoneTransfer, Page, ScreenCapture } from "./types";

/** A cloud phone powers on in 30 to 90 s; MoreLogin's CLI waits 120 s. */
const POWER_ON_TIMEOUT_MS = 120_000;

/** Cloud phones and their apps: the Local API, and the Open API where MoreLogin documents the same operation. */
export const CLOUD_PHONE_ENDPOINTS = {
  listCloudPhones: { api: "local", method: "POST", path: "/api/cloudphone/page", twinPath: "/cloudphone/page", idempotency: "read", pageField: "pageNo" },
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
} as const satisfies Record<keyof CloudPhoneEndpointData, EndpointDefinition>;

/** What each of these endpoints' `data` holds. */
export interface CloudPhoneEndpointData {
  listCloudPhones: Page<CloudPhone>;
  listApps: Page<App>;
  powerOnCloudPhone: null;
  powerOffCloudPhone: null;
  restartCloudPhone: null;
  cloudPhoneInfo: CloudPhoneDetail;
  setCloudPhoneAdb: null;
  cloudPhoneAdbInfo: AdbInfo[];
  cloudPhoneShell: string;
  installCloudPhoneApp: boolean;
  startCloudPhoneApp: unknown;
  stopCloudPhoneApp: unknown;
  restartCloudPhoneApp: boolean;
  uninstallCloudPhoneApp: boolean;
  newCloudPhoneMachine: null;
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
}
