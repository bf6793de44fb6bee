import { makeCloudPhones } from "./cloud-phone-data";
import { idSequence, mulberry32, pick, randomInt, type Random } from "./prng";
import { makeProxies } from "./proxy-data";
import { groupFor, numbered, someTags } from "./seed-parts";
import type { App, AppVersion, EmulatorData, Group, Profile, ProxyInfo, Tag } from "./types";

export interface DataCounts {
  seed: number;
  profiles: number;
  cloudPhones: number;
  proxies: number;
  groups: number;
  tags: number;
  apps: number;
}

const TAG_NAMES = ["Shopping", "Social", "Ads", "Email", "Testing", "VIP", "Warm-up", "Archive"];
const APP_NAMES = ["TikTok", "WhatsApp", "Instagram", "Telegram", "Facebook", "YouTube", "Chrome", "Gmail"];

/** Tags cycle through a fixed list, then get numbered names so they stay unique. */
function tagName(index: number): string {
  return TAG_NAMES[index] ?? `Tag ${index + 1}`;
}

function makeTags(random: Random, count: number): Tag[] {
  const nextId = idSequence(random, 1_800_000_000_000_000_000n, 1_000_000);
  return Array.from({ length: count }, (_, i) => ({ id: nextId(), tagName: tagName(i) }));
}

function makeGroups(random: Random, count: number): Group[] {
  const nextId = idSequence(random, 1_700_000_000_000_000_000n, 1_000_000);
  return Array.from({ length: count }, (_, i) => ({ id: nextId(), groupName: `Group ${i + 1}` }));
}

function makeProfiles(random: Random, count: number, groups: Group[], tags: Tag[], proxies: ProxyInfo[]): Profile[] {
  const nextId = idSequence(random, 1_990_000_000_000_000_000n, 1_000_000_000);
  const profiles: Profile[] = new Array<Profile>(count);
  for (let i = 0; i < count; i++) {
    const proxy = proxies.length > 0 && random() < 0.5 ? pick(random, proxies) : null;
    profiles[i] = {
      id: nextId(),
      envName: numbered("Profile", i),
      ...groupFor(i, groups),
      tagInfos: someTags(random, tags),
      envRemark: random() < 0.2 ? `Remark for profile ${i + 1}` : null,
      proxyId: proxy ? proxy.id : "0",
      proxy,
    };
  }
  return profiles;
}

function makeApps(random: Random, count: number): App[] {
  const nextId = idSequence(random, 1_500_000_000_000_000_000n, 1_000_000);
  return Array.from({ length: count }, (_, i) => {
    const base = APP_NAMES[i % APP_NAMES.length] ?? "App";
    const round = Math.floor(i / APP_NAMES.length);
    const appName = round === 0 ? base : `${base} ${round + 1}`;
    const id = nextId();
    // Newest first, as the cloud-phone spec orders appVersionList.
    const versions: AppVersion[] = Array.from({ length: randomInt(random, 1, 2) }, (_, v) => ({
      id: nextId(),
      versionCode: String(100 + v),
      versionName: `1.${v}.0`,
      installStatus: null,
      packageName: null,
    })).reverse();
    return {
      id,
      appName,
      appIcon: `https://emulator.invalid/icons/${id}.png`,
      packageName: `com.emulator.${appName.toLowerCase().replace(/[^a-z0-9]+/g, "")}`,
      categoryValue: randomInt(random, 1, 5),
      sortNo: i + 1,
      appVersionList: versions,
    };
  });
}

/** The whole data set; the same seed and counts always give the same data. */
export function generateData(counts: DataCounts): EmulatorData {
  const random = mulberry32(counts.seed);
  const tags = makeTags(random, counts.tags);
  const groups = makeGroups(random, counts.groups);
  const proxies = makeProxies(random, counts.proxies);
  const profiles = makeProfiles(random, counts.profiles, groups, tags, proxies);
  const cloudPhones = makeCloudPhones(random, counts.cloudPhones, { groups, tags, proxies });
  const apps = makeApps(random, counts.apps);
  return { profiles, cloudPhones, proxies, groups, tags, apps };
}
