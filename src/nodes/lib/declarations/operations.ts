import type { EndpointName } from "../../../client";
import type { AUTOMATION_ACTIONS } from "./automation";
import type { PHONE_ACTIONS } from "./cloud-phone";
import type { PROFILE_ACTIONS } from "./profiles";
import type { GROUP_ACTIONS, PROXY_ACTIONS, TAG_ACTIONS } from "./resources";

/**
 * The endpoints each way of using a node sends, the main one first, waits and look-ups after it. The key is
 * the node's action, `""` for a node without actions, or the dialog choice that changes what it sends
 * (`where: cloud`). docs/NODES.md's route table is written from this (tools/routes-doc.ts).
 */
type Operations<Action extends string> = Readonly<Record<Action, readonly EndpointName[]>>;

const one = (endpoint: EndpointName): Operations<""> => ({ "": [endpoint] });

const PROFILE: Operations<(typeof PROFILE_ACTIONS)[number]> = {
  create: ["createProfiles"],
  update: ["updateProfile"],
  delete: ["deleteProfiles"],
  detail: ["profileDetail"],
  refreshFingerprint: ["refreshFingerprint"],
  clearCache: ["clearProfileCache"],
  cleanCloud: ["cleanProfileCloudCache"],
  setGroup: ["setProfileGroup"],
  setProxy: ["setProfileProxy"],
  setRemark: ["setProfileRemark"],
  closeAll: ["closeAllProfiles"],
  lockStatus: ["profileLock"],
  ua: ["userAgent"],
  screens: ["listScreens"],
  arrangeWindows: ["arrangeWindows"],
  processes: ["profileProcesses"],
  createAdvanced: ["createAdvanced", "listProfiles"],
  catalogue: ["kernelVersions", "timeZonesAndLanguages", "resolutions", "platforms", "mobileDevices", "listGroups", "listTags", "listProxies"],
};

const PHONE: Operations<(typeof PHONE_ACTIONS)[number]> = {
  powerOn: ["powerOnCloudPhone", "cloudPhoneInfo"],
  powerOff: ["powerOffCloudPhone", "cloudPhoneInfo"],
  restart: ["restartCloudPhone", "cloudPhoneInfo"],
  info: ["cloudPhoneInfo"],
  enableAdb: ["setCloudPhoneAdb"],
  disableAdb: ["setCloudPhoneAdb"],
  adbInfo: ["cloudPhoneAdbInfo"],
  shell: ["cloudPhoneShell"],
  installApp: ["installCloudPhoneApp"],
  startApp: ["startCloudPhoneApp"],
  stopApp: ["stopCloudPhoneApp"],
  restartApp: ["restartCloudPhoneApp"],
  uninstallApp: ["uninstallCloudPhoneApp"],
  newMachine: ["newCloudPhoneMachine", "cloudPhoneInfo"],
  screenshot: ["cloudPhoneScreenshot"],
  create: ["createCloudPhones", "powerOnCloudPhone", "cloudPhoneInfo"],
  edit: ["editCloudPhones"],
  delete: ["deleteCloudPhones", "cloudPhoneInfo"],
  models: ["cloudPhoneModels"],
  setKeyBox: ["setCloudPhoneKeyBox"],
  hideAccessibilityApps: ["hideCloudPhoneAccessibilityApps"],
  uploadFile: ["cloudPhoneUploadUrl", "uploadToCloudPhone", "cloudPhoneUploadResult"],
  downloadFile: ["downloadFromCloudPhone", "cloudPhoneDownloadResult"],
  balance: ["balance"],
  webhook: ["webhookConfig"],
};

const AUTOMATION: Operations<(typeof AUTOMATION_ACTIONS)[number]> = {
  templates: ["marketTemplates", "personalTemplates"],
  runOnce: ["runTemplateOnce", "automationRuns"],
  schedule: ["scheduleTemplate"],
  tasks: ["automationTasks"],
  runs: ["automationRuns"],
  cancel: ["cancelAutomationTask"],
};

const PROXY: Operations<(typeof PROXY_ACTIONS)[number]> = { add: ["addProxy"], update: ["updateProxy"], delete: ["deleteProxies"], check: ["listProxies"] };
const GROUP: Operations<(typeof GROUP_ACTIONS)[number]> = { create: ["createGroup"], edit: ["editGroup"], delete: ["deleteGroups"] };
const TAG: Operations<(typeof TAG_ACTIONS)[number]> = { create: ["createTag"], edit: ["editTag"], delete: ["deleteTags"] };

/** Every node that sends a named endpoint, by node type. The request node sends any path, so it is not here. */
export const NODE_OPERATIONS: Readonly<Record<string, Operations<string>>> = {
  "morelogin-list-profiles": one("listProfiles"),
  "morelogin-list-cloud-phones": one("listCloudPhones"),
  "morelogin-list-proxies": one("listProxies"),
  "morelogin-list-groups": one("listGroups"),
  "morelogin-list-tags": one("listTags"),
  "morelogin-list-apps": one("listApps"),
  "morelogin-start-profile": { "": ["startProfile", "profileLock"], "where: cloud": ["cloudBrowserStart", "cloudBrowserPage", "cloudBrowserConnect"] },
  "morelogin-close-profile": { "": ["closeProfile"], "where: cloud": ["cloudBrowserStop"] },
  "morelogin-profile-status": { "": ["profileStatus"], "where: cloud": ["cloudBrowserPage"] },
  "morelogin-profile": PROFILE,
  "morelogin-cloud-phone": PHONE,
  "morelogin-automation": AUTOMATION,
  "morelogin-proxy": PROXY,
  "morelogin-group": GROUP,
  "morelogin-tag": TAG,
  "morelogin-watch": { profiles: ["runningProfiles"], "profiles, where: cloud": ["cloudBrowserPage"], phones: ["listCloudPhones"], runs: ["automationRuns"] },
  "morelogin-config": {
    "connection test": ["listProfiles", "balance", "listApps"],
    "leases and caps": ["runningProfiles", "closeProfile", "cloudBrowserStop", "powerOffCloudPhone", "cloudPhoneInfo"],
  },
};
