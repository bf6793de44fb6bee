import { DEFAULT_CAPACITY, DEFAULT_PACING, MoreLoginInputError, RULES, type CapacitySettings, type Pacing } from "../../../client";
import type { ConfigNodeDef } from "../shell/types";

/**
 * The config node's pacing as the client takes it. A flow saved before 0.2 has none of these
 * properties and gets the defaults (120 requests a minute, MoreLogin's documented limit, and 5 starts).
 */
export function pacingOf(def: ConfigNodeDef): Pacing {
  return {
    localRpm: setting(def.localRpm, "localRpm", DEFAULT_PACING.localRpm),
    openRpm: setting(def.openRpm, "openRpm", DEFAULT_PACING.openRpm),
    concurrency: setting(def.concurrency, "concurrency", DEFAULT_PACING.concurrency),
  };
}

/** The config node's caps on running profiles, phones and cloud browsers; a flow saved before 0.3 (0.6 for cloud browsers) has none (no limit). */
export function capacityOf(def: ConfigNodeDef): CapacitySettings {
  return {
    maxProfiles: setting(def.maxProfiles, "maxProfiles", DEFAULT_CAPACITY.maxProfiles),
    maxPhones: setting(def.maxPhones, "maxPhones", DEFAULT_CAPACITY.maxPhones),
    maxCloudBrowsers: setting(def.maxCloudBrowsers, "maxCloudBrowsers", DEFAULT_CAPACITY.maxCloudBrowsers),
  };
}

function setting(value: unknown, name: string, fallback: number): number {
  if (value === undefined || value === null || value === "") return fallback;
  const text = String(value).trim();
  if (!RULES.wholeNumber.test(text)) throw new MoreLoginInputError(`${name} must be a whole number, 0 or more (0 = no limit), got ${JSON.stringify(value)}`);
  return Number(text);
}
