/** What a watch node can watch, and the changes it can send for each (the public contract). */
export const WATCH_KINDS = ["profiles", "phones", "runs"] as const;
export type WatchKind = (typeof WATCH_KINDS)[number];

export const WATCH_EVENTS = {
  profiles: ["started", "stopped"],
  phones: ["running", "stopped", "changed", "added", "removed"],
  runs: ["succeeded", "failed", "cancelled"],
} as const satisfies Record<WatchKind, readonly string[]>;

export type WatchEvent = (typeof WATCH_EVENTS)[WatchKind][number];

export const DEFAULT_INTERVAL_SECONDS = 10;
export const MIN_INTERVAL_SECONDS = 2;

/** Cloud-phone `envStatus`: 2 stopped (powered off), 4 running (powered on); anything else is "changed". */
export const PHONE_RUNNING = 4;
export const PHONE_STOPPED = 2;

/** Automation run `taskState` values that end a run, with the event each sends. */
export const RUN_END_EVENTS: Readonly<Record<number, WatchEvent>> = { 3: "succeeded", 4: "failed", 5: "cancelled" };

/** Where a profiles watch looks: the desktop client's running profiles, MoreLogin's cloud browsers, or both. Default local. */
export const WATCH_WHERE = ["local", "cloud", "both"] as const;
export type WatchWhere = (typeof WATCH_WHERE)[number];

/**
 * What one poll reads: the profiles running in the desktop client (getAllDebugInfo), the cloud browsers'
 * page, the phones or the runs. A profiles watch reads one or both of the first two; the others one each.
 */
export type WatchSource = "profiles" | "cloudBrowsers" | "phones" | "runs";

/** A cloud browser's `cloudBrowserStatus` values (the spec's three): to RUNNING is `started`, to CLOSED is `stopped`. */
export const CLOUD_STARTING = "STARTING";
export const CLOUD_RUNNING = "RUNNING";
export const CLOUD_CLOSED = "CLOSED";
