import { setTimeout as delay } from "node:timers/promises";
import { RUNNING_REREAD_MS, SHARED_READ_MS, type CapacityKind, type RunningReader } from "./capacity";
import { heldCloudBrowsers } from "./cloud-browser-runs";
import type { MoreLoginClient } from "./client";
import { fetchAll } from "./paging";

/** Cloud-phone envStatus values that hold a phone (and bill it): starting (3), running (4), restarting (6). */
export const PHONE_POWERED_STATUSES: ReadonlySet<number> = new Set([3, 4, 6]);

/**
 * How the caps learn what runs: profiles from the Local API's `getAllDebugInfo` (the only API that
 * knows the desktop's browsers), through the client's shared reader; phones from every page of
 * `cloudphone/page` on the API of the call that waits, since both APIs list the same account's phones;
 * cloud browsers from every page of `cloudbrowser/page` (Local API only). Each read goes through the pacing.
 */
export function runningReaders(client: MoreLoginClient, closed: AbortSignal): Record<CapacityKind, RunningReader> {
  return {
    cloudBrowsers: cloudBrowsersReader(client, closed),
    // A reply that is not an array is an error here too: the cap then goes on with what it counted itself.
    profiles: async () => client.runningProfiles.read({ notBefore: Date.now() - SHARED_READ_MS, signal: closed }),
    phones: async (api) => {
      const readAt = Date.now();
      const { items } = await fetchAll(client, "listCloudPhones", {}, { api, signal: closed });
      return { ids: items.filter((phone) => PHONE_POWERED_STATUSES.has(Number(phone.envStatus))).map((phone) => phone.id), readAt };
    },
  };
}

/**
 * The cloud browsers' reader. `cloudbrowser/page` lists every profile (it has no filter by state), so a
 * read costs one request per 100 profiles: after a read of P pages the next waits (P - 1) x
 * RUNNING_REREAD_MS, so that a start waiting under the cap spends at most about 12 requests a minute
 * (a tenth of the budget) on reads, however many profiles the account has.
 */
function cloudBrowsersReader(client: MoreLoginClient, closed: AbortSignal): RunningReader {
  let notBefore = 0;
  return async () => {
    const wait = notBefore - Date.now();
    if (wait > 0) await delay(wait, undefined, { signal: closed });
    const readAt = Date.now();
    const { ids, pages } = await heldCloudBrowsers(client, { signal: closed });
    notBefore = Date.now() + Math.max(0, pages - 1) * RUNNING_REREAD_MS;
    return { ids, readAt };
  };
}
