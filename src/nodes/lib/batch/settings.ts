import { describeValue } from "../../../client";
import { isChecked } from "../checkbox";

/** The batch node's properties, read once when the node starts. */
export interface BatchSettings {
  /** Items out at once. */
  parallel: number;
  /** Extra attempts for a failed item, after the first pass. */
  retries: number;
  /** How long an item may be out before it counts as timed out; 0 = no limit. */
  itemTimeoutMs: number;
  /** After a restart, send the items that were out again (a new attempt) instead of counting them interrupted. */
  resend: boolean;
}

export const DEFAULT_ITEM_TIMEOUT_SECONDS = 600;
/** 24 days: a Node.js timer cannot wait longer (beyond about 24.8 days it fires at once). */
export const MAX_ITEM_TIMEOUT_SECONDS = 24 * 86_400;

/** The settings, or the text of what is wrong with them. */
export function batchSettings(def: Record<string, unknown>): BatchSettings | string {
  const parallel = numberOf(def.parallel, 1);
  const retries = numberOf(def.retries, 0);
  const timeout = numberOf(def.itemTimeout, DEFAULT_ITEM_TIMEOUT_SECONDS);
  if (!Number.isInteger(parallel) || parallel < 1 || parallel > 10_000) return `parallel must be a whole number from 1 to 10000, not ${describeValue(def.parallel)}`;
  if (!Number.isInteger(retries) || retries < 0 || retries > 100) return `retries must be a whole number from 0 to 100, not ${describeValue(def.retries)}`;
  if (!Number.isFinite(timeout) || timeout < 0 || timeout > MAX_ITEM_TIMEOUT_SECONDS) {
    return `itemTimeout must be a number of seconds from 0 (none) to ${MAX_ITEM_TIMEOUT_SECONDS} (24 days), not ${describeValue(def.itemTimeout)}`;
  }
  return { parallel, retries, itemTimeoutMs: Math.round(timeout * 1000), resend: isChecked(def.resend) };
}

function numberOf(value: unknown, fallback: number): number {
  if (value === undefined || value === null || value === "") return fallback;
  if (typeof value === "number") return value;
  if (typeof value === "string" && value.trim() !== "") return Number(value);
  return Number.NaN;
}
