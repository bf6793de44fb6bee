import { cloudChanges, cloudCurrentState, isCloudOut } from "./cloud-changes";
import { PHONE_RUNNING, PHONE_STOPPED, RUN_END_EVENTS, type WatchEvent, type WatchSource } from "./kinds";
import type { Seen } from "./observe";

/** What the watch remembers of one profile, phone or run between polls (kept in the node's context). */
export type Remembered = Seen;

export interface Change {
  event: WatchEvent;
  id: string;
  name: string;
  from: string | number | null;
  to: string | number | null;
  owner: string;
  item: Record<string, unknown>;
}

/**
 * What the watch keeps of a row until the next poll; undefined for a row it need not keep (a cloud
 * browser that is CLOSED). A phone's row is large; the watch keeps only what a "removed" message needs.
 */
export function toRemember(kind: WatchSource, seen: Seen): Remembered | undefined {
  if (kind === "cloudBrowsers") return isCloudOut(seen) ? seen : undefined;
  if (kind !== "phones") return kind === "runs" ? { ...seen, item: { id: seen.item.id } } : seen;
  const { id, envName, envStatus } = seen.item;
  return { ...seen, item: { id, envName, envStatus } };
}

function phoneEvent(status: string | number): WatchEvent {
  if (status === PHONE_RUNNING) return "running";
  if (status === PHONE_STOPPED) return "stopped";
  return "changed";
}

const change = (event: WatchEvent, id: string, seen: Seen, from: Change["from"], to: Change["to"]): Change => ({ event, id, name: seen.name, from, to, owner: seen.owner, item: seen.item });

function profileChanges(before: Readonly<Record<string, Remembered>>, now: ReadonlyMap<string, Seen>): Change[] {
  const changes: Change[] = [];
  for (const [id, seen] of now) {
    const was = before[id];
    // A different debug port means the profile was closed and started again between two polls.
    if (was && String(was.item.debugPort ?? "") !== String(seen.item.debugPort ?? "")) changes.push(change("stopped", id, was, "running", "stopped"));
    if (!was || String(was.item.debugPort ?? "") !== String(seen.item.debugPort ?? "")) changes.push(change("started", id, seen, "stopped", "running"));
  }
  for (const [id, was] of Object.entries(before)) if (!now.has(id)) changes.push(change("stopped", id, was, "running", "stopped"));
  return changes;
}

function phoneChanges(before: Readonly<Record<string, Remembered>>, now: ReadonlyMap<string, Seen>): Change[] {
  const changes: Change[] = [];
  for (const [id, seen] of now) {
    const was = before[id];
    if (!was) changes.push(change("added", id, seen, null, seen.state));
    else if (was.state !== seen.state) changes.push(change(phoneEvent(seen.state), id, seen, was.state, seen.state));
  }
  for (const [id, was] of Object.entries(before)) if (!now.has(id)) changes.push(change("removed", id, was, was.state, null));
  return changes;
}

function runChanges(before: Readonly<Record<string, Remembered>>, now: ReadonlyMap<string, Seen>): Change[] {
  const changes: Change[] = [];
  for (const [id, seen] of now) {
    const ended = RUN_END_EVENTS[Number(seen.state)];
    if (!ended) continue;
    const was = before[id];
    // A run first seen already ended began and ended between two polls.
    if (!was) changes.push(change(ended, id, seen, null, seen.state));
    else if (!RUN_END_EVENTS[Number(was.state)]) changes.push(change(ended, id, seen, was.state, seen.state));
  }
  return changes;
}

/** The changes from what was remembered to what a poll saw, in the order they are sent. */
export function changesBetween(kind: WatchSource, before: Readonly<Record<string, Remembered>>, now: ReadonlyMap<string, Seen>): Change[] {
  switch (kind) {
    case "profiles":
      return profileChanges(before, now);
    case "cloudBrowsers":
      return cloudChanges(before, now);
    case "phones":
      return phoneChanges(before, now);
    case "runs":
      return runChanges(before, now);
  }
}

/** "Output on start": the current state of each profile, cloud browser or phone as if it had just changed (`from` null). Runs have no current state. */
export function currentState(kind: WatchSource, now: ReadonlyMap<string, Seen>): Change[] {
  if (kind === "runs") return [];
  if (kind === "cloudBrowsers") return cloudCurrentState(now);
  return [...now].map(([id, seen]) => change(kind === "profiles" ? "started" : phoneEvent(seen.state), id, seen, null, seen.state));
}
