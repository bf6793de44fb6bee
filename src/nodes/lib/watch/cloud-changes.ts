import { CLOUD_CLOSED, CLOUD_RUNNING, CLOUD_STARTING } from "./kinds";
import type { Seen } from "./observe";
import type { Change } from "./changes";

/**
 * The changes of MoreLogin's cloud browsers between two reads of `cloudbrowser/page`, which lists every
 * profile with its cloud browser's state. Only rows that are not CLOSED are remembered (a profile not
 * remembered is CLOSED), so the memory grows with the browsers out, not with the profiles.
 *
 * - to RUNNING (from CLOSED or STARTING): `started`, `from` the state before, `to` "RUNNING".
 * - to CLOSED (from RUNNING or STARTING, a start that failed or was stopped before it ran): `stopped`,
 *   `to` "CLOSED". A stopping browser shows RUNNING while its data is archived (MoreLogin's spec), so
 *   `stopped` comes when the row says CLOSED: the archive is done then (`item.cloudBrowserArchiveStatus`
 *   COMPLETED or FAILED) and the profile can start again. The archive states themselves send nothing;
 *   they are in each message's `item`.
 * - a browser stopped and started again between two polls (RUNNING with another `startDate`, or RUNNING
 *   then STARTING): `stopped`, then `started` once it runs.
 * - a profile gone from the page (deleted) while its browser was out: `stopped`, with the last row seen.
 */
export function cloudChanges(before: Readonly<Record<string, Seen>>, now: ReadonlyMap<string, Seen>): Change[] {
  const changes: Change[] = [];
  for (const [id, seen] of now) {
    const was = before[id];
    if (seen.state === CLOUD_RUNNING) {
      if (was?.state === CLOUD_RUNNING && sameRun(was, seen)) continue;
      if (was?.state === CLOUD_RUNNING) changes.push(cloudChange("stopped", id, was, CLOUD_RUNNING, CLOUD_CLOSED));
      const from = was === undefined || was.state === CLOUD_RUNNING ? CLOUD_CLOSED : was.state;
      changes.push(cloudChange("started", id, seen, from, CLOUD_RUNNING));
    } else if (was !== undefined && seen.state === CLOUD_CLOSED) {
      changes.push(cloudChange("stopped", id, seen, was.state, CLOUD_CLOSED));
    } else if (was?.state === CLOUD_RUNNING && seen.state === CLOUD_STARTING) {
      // RUNNING, then starting again: the run seen before ended in between.
      changes.push(cloudChange("stopped", id, was, CLOUD_RUNNING, CLOUD_CLOSED));
    }
  }
  for (const [id, was] of Object.entries(before)) if (!now.has(id)) changes.push(cloudChange("stopped", id, was, was.state, CLOUD_CLOSED));
  return changes;
}

/** "Output on start": each cloud browser RUNNING now, as if it had just started (`from` null). */
export function cloudCurrentState(now: ReadonlyMap<string, Seen>): Change[] {
  return [...now].filter(([, seen]) => seen.state === CLOUD_RUNNING).map(([id, seen]) => cloudChange("started", id, seen, null, CLOUD_RUNNING));
}

/** What is remembered between polls: every cloud browser that is not CLOSED (starting, running, stopping). */
export const isCloudOut = (seen: Seen): boolean => seen.state !== CLOUD_CLOSED;

/** The same run of a browser: its start time did not change (a row without one, as a starting one, is taken as the same). */
function sameRun(was: Seen, seen: Seen): boolean {
  const [before, now] = [was.item.startDate, seen.item.startDate];
  return before === undefined || before === null || now === undefined || now === null || String(before) === String(now);
}

const cloudChange = (event: Change["event"], id: string, seen: Seen, from: Change["from"], to: Change["to"]): Change => ({ event, id, name: seen.name, from, to, owner: seen.owner, item: seen.item });
