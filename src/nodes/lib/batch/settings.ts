import { describeValue } from "../../../client";
import type { BatchSettings } from "../../../batch/types";
import { isChecked } from "../shell/checkbox";

export const DEFAULT_ITEM_TIMEOUT_SECONDS = 600;
/** 24 days: a Node.js timer cannot wait longer (beyond about 24.8 days it fires at once). */
export const MAX_ITEM_TIMEOUT_SECONDS = 24 * 86_400;

/** A setting that is wrong: its catalog key (morelogin-batch.error.setting.*) and the values of its text. */
export interface BatchSettingProblem {
  key: "parallel" | "retries" | "itemTimeout";
  values: Record<string, string>;
}

/** The settings, or what is wrong with them. */
export function batchSettings(def: Record<string, unknown>): BatchSettings | BatchSettingProblem {
  const parallel = numberOf(def.parallel, 1);
  const retries = numberOf(def.retries, 0);
  const timeout = numberOf(def.itemTimeout, DEFAULT_ITEM_TIMEOUT_SECONDS);
  if (!Number.isInteger(parallel) || parallel < 1 || parallel > 10_000) return { key: "parallel", values: { value: describeValue(def.parallel) } };
  if (!Number.isInteger(retries) || retries < 0 || retries > 100) return { key: "retries", values: { value: describeValue(def.retries) } };
  if (!Number.isFinite(timeout) || timeout < 0 || timeout > MAX_ITEM_TIMEOUT_SECONDS) {
    return { key: "itemTimeout", values: { value: describeValue(def.itemTimeout), max: String(MAX_ITEM_TIMEOUT_SECONDS) } };
  }
  return { parallel, retries, itemTimeoutMs: Math.round(timeout * 1000), resend: isChecked(def.resend) };
}

function numberOf(value: unknown, fallback: number): number {
  if (value === undefined || value === null || value === "") return fallback;
  if (typeof value === "number") return value;
  if (typeof value === "string" && value.trim() !== "") return Number(value);
  return Number.NaN;
}
