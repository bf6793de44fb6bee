import { describeValue } from "../../../client";
import type { BatchSettings } from "../../../batch/types";
import { isChecked } from "../checkbox";

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
