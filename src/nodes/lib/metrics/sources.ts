import type { BatchWork } from "../../../batch";
import { NO_COUNTS, type LedgerCounts } from "../../../batch/ledger";
import type { CapacityKind, MoreLoginClient } from "../../../client";

/** A deployed config node the scrape reads: its label and its client (what its lease book and caps know). */
export interface ConfigSource {
  label: string;
  client: MoreLoginClient;
}

/** A deployed batch node the scrape reads: its label (its name) and its work. */
export interface BatchSource {
  label: string;
  work: BatchWork;
  /** With a queue: where Redis is is not said here (the URL may hold a user name); only whether it answers. */
  queued: boolean;
}

/**
 * What the scrape reads at its time, without a request to MoreLogin or Redis: the deployed config and
 * batch nodes add themselves when they start and leave when they close. No Prometheus here.
 */
export const configSources = new Set<ConfigSource>();
export const batchSources = new Set<BatchSource>();

/** A node's label: its name when it has one, else its ID (a node's, never a profile's). Bounded by the flows. */
export function labelOf(node: { id: string; name?: unknown }): string {
  return typeof node.name === "string" && node.name.trim() !== "" ? node.name.trim() : node.id;
}

export const CAPACITY_KINDS: readonly CapacityKind[] = ["profiles", "phones", "cloudBrowsers"];

/** The items of the running batch, or of the last one that ended (zeros before the first). */
export function batchCounts(work: BatchWork): LedgerCounts {
  if (work.current()) return work.counts();
  const last = work.last();
  if (!last) return NO_COUNTS;
  const counts = { ...NO_COUNTS };
  for (const state of Object.keys(NO_COUNTS) as (keyof LedgerCounts)[]) counts[state] = last[state];
  return counts;
}

/** Adds `value` under `key`: two nodes with the same name count together rather than hide each other. */
export function addTo(totals: Map<string, number>, key: string, value: number): void {
  totals.set(key, (totals.get(key) ?? 0) + value);
}
