import type { ProxyCondition, ProxyExit } from "../types";

/** The longest delay a condition may ask for: past any client's timeout, short of a timer's limit. */
const MAX_DELAY_MS = 600_000;
const EXIT_FIELDS = ["ip", "country", "timezone"] as const;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function readExit(value: unknown): Partial<ProxyExit> | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isRecord(value)) throw new RangeError("exit must be an object with ip, country and timezone");
  const exit: Partial<ProxyExit> = {};
  for (const field of EXIT_FIELDS) {
    const text = value[field];
    if (text === undefined) continue;
    if (typeof text !== "string" || text === "") throw new RangeError(`exit.${field} must be a non-empty string`);
    exit[field] = text;
  }
  return exit;
}

/** A condition from JSON (the control route) or options, checked; throws a RangeError that says what is wrong. */
export function readCondition(value: unknown): ProxyCondition {
  if (!isRecord(value)) throw new RangeError("a proxy condition must be an object: {dead, delayMs, exit}");
  const unknown = Object.keys(value).filter((key) => !["dead", "delayMs", "exit"].includes(key));
  if (unknown.length > 0) throw new RangeError(`unknown proxy condition field: ${unknown.join(", ")}`);
  const { dead, delayMs } = value;
  if (dead !== undefined && typeof dead !== "boolean") throw new RangeError("dead must be a boolean");
  if (delayMs !== undefined && (typeof delayMs !== "number" || !Number.isFinite(delayMs) || delayMs < 0 || delayMs > MAX_DELAY_MS)) {
    throw new RangeError(`delayMs must be a number of milliseconds from 0 to ${MAX_DELAY_MS}`);
  }
  const exit = readExit(value.exit);
  return { ...(dead === undefined ? {} : { dead }), ...(delayMs === undefined ? {} : { delayMs }), ...(exit === undefined ? {} : { exit }) };
}
