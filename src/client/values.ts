import { MoreLoginInputError } from "./errors";
import { RULES } from "./rules";

const DECIMAL_ID = /^\d{1,20}$/;

/**
 * MoreLogin IDs are 64-bit integers carried as decimal strings. A JSON number beyond 2^53 has already
 * lost digits, so it is refused instead of silently addressing another object.
 */
export function normalizeId(value: unknown, field: string): string {
  if (typeof value === "number") {
    if (!Number.isSafeInteger(value) || value < 0) {
      throw new MoreLoginInputError(`${field} ${Number.isFinite(value) ? String(value) : "value"} is not a safe integer: pass MoreLogin IDs as strings (numbers beyond 2^53 lose digits)`);
    }
    return String(value);
  }
  if (typeof value === "bigint") {
    if (value < 0n) throw new MoreLoginInputError(`${field} must be a decimal ID`);
    return value.toString();
  }
  if (typeof value === "string") {
    const trimmed = value.trim();
    if (DECIMAL_ID.test(trimmed)) return trimmed;
    const nameHint = /\p{L}/u.test(trimmed) ? ": a name is not an ID (the node's field suggests IDs by name; the list nodes give them)" : "";
    throw new MoreLoginInputError(`${field} must be a decimal ID such as "1993244721490239488", got ${describe(value)}${nameHint}`);
  }
  throw new MoreLoginInputError(`${field} must be a decimal ID string, got ${describe(value)}`);
}

/** A page number or size: a positive integer, given as a number or a numeric string. */
export function positiveInteger(value: unknown, field: string): number {
  const number = typeof value === "string" ? (RULES.positiveInteger.test(value.trim()) ? Number(value.trim()) : Number.NaN) : value;
  if (typeof number !== "number" || !Number.isSafeInteger(number) || number < 1) {
    throw new MoreLoginInputError(`${field} must be a positive integer, got ${describe(value)}`);
  }
  return number;
}

/** Refuses any JSON number in a request body whose precision is already gone. */
export function assertNoUnsafeIntegers(value: unknown, path = "body", depth = 0): void {
  // The common case walks without building a path for every field; the path is made only to explain.
  if (!isSafeJson(value, depth)) explainUnsafe(value, path, depth);
}

function isSafeJson(value: unknown, depth: number): boolean {
  if (depth > 64) return false;
  if (typeof value === "number") return Number.isFinite(value) && (!Number.isInteger(value) || Number.isSafeInteger(value));
  if (Array.isArray(value)) {
    for (const item of value) if (!isSafeJson(item, depth + 1)) return false;
    return true;
  }
  if (value !== null && typeof value === "object") {
    for (const key of Object.keys(value)) if (!isSafeJson((value as Record<string, unknown>)[key], depth + 1)) return false;
  }
  return true;
}

function explainUnsafe(value: unknown, path: string, depth: number): void {
  if (depth > 64) throw new MoreLoginInputError(`${path} is nested more than 64 levels deep`);
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new MoreLoginInputError(`${path} is ${String(value)}, which JSON cannot carry`);
    if (Number.isInteger(value) && !Number.isSafeInteger(value)) {
      throw new MoreLoginInputError(`${path} ${String(value)} is beyond 2^53 and has lost digits: pass MoreLogin IDs as strings`);
    }
    return;
  }
  if (Array.isArray(value)) {
    value.forEach((item, index) => {
      explainUnsafe(item, `${path}[${index}]`, depth + 1);
    });
    return;
  }
  if (value !== null && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) explainUnsafe(item, `${path}.${key}`, depth + 1);
  }
}

/**
 * An object literal, JSON.parse result or Object.create(null), from this realm or another: Node-RED runs a
 * function node's code in its own vm context, whose Object.prototype is not this one. Class instances,
 * Buffers, Dates, Maps and arrays are not plain.
 */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto === null) return true;
  if (Object.getPrototypeOf(proto) !== null) return false;
  const maker: unknown = Object.getOwnPropertyDescriptor(proto, "constructor")?.value;
  return typeof maker === "function" && maker.name === "Object";
}

export function describe(value: unknown): string {
  if (value === null) return "null";
  if (value === undefined) return "nothing";
  if (typeof value === "string") {
    const shown = value.length > 40 ? `${value.slice(0, 40)}…` : value;
    return JSON.stringify(shown);
  }
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (Array.isArray(value)) return "an array";
  if (Buffer.isBuffer(value)) return "a Buffer";
  if (typeof value === "object") return "an object";
  return `a ${typeof value}`;
}
