import { SHARED_READ_MS, type CapacityKind, type RunningReader } from "./capacity";
import type { MoreLoginClient } from "./client";
import { fetchAll } from "./paging";

/** Cloud-phone envStatus values that hold a phone (and bill it): starting (3), running (4), restarting (6). */
export const PHONE_POWERED_STATUSES: ReadonlySet<number> = new Set([3, 4, 6]);

/**
 * How the caps learn what runs: profiles from the Local API's `getAllDebugInfo` (the only API that
 * knows the desktop's browsers), through the client's shared reader; phones from every page of
 * `cloudphone/page` on the API of the call that waits, since both APIs list the same account's phones.
 * Each read goes through the pacing.
 */
export function runningReaders(client: MoreLoginClient, closed: AbortSignal): Record<CapacityKind, RunningReader> {
  return {
    // A reply that is not an array is an error here too: the cap then goes on with what it counted itself.
    profiles: async () => client.runningProfiles.read({ notBefore: Date.now() - SHARED_READ_MS, signal: closed }),
    phones: async (api) => {
      const readAt = Date.now();
      const { items } = await fetchAll(client, "listCloudPhones", {}, { api, signal: closed });
      return { ids: items.filter((phone) => PHONE_POWERED_STATUSES.has(Number(phone.envStatus))).map((phone) => phone.id), readAt };
    },
  };
}
