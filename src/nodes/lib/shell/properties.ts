import type { Node, NodeAPI, NodeMessage } from "node-red";
import { MoreLoginInputError, isPlainObjectValue } from "../../../client";
import type { OperationNodeDef } from "./types";

/** A request field the node's edit dialog sets, possibly from msg, flow, global, env or JSONata. */
export interface FieldSpec {
  name: string;
  /** The TypedInput type used when the flow has none saved (older or hand-written flows). */
  defaultType: "str" | "num" | "json";
}

const TYPES = new Set(["str", "num", "msg", "flow", "global", "env", "jsonata", "bool", "json"]);

/** Evaluates one TypedInput property; an empty value means "not set". */
export function evaluateProperty(RED: NodeAPI, node: Node, msg: NodeMessage, value: unknown, type: unknown, label: string): Promise<unknown> {
  try {
    const literal = literalProperty(value, type, label);
    if (literal !== DYNAMIC) return Promise.resolve(literal);
  } catch (error) {
    return Promise.reject(error);
  }
  return dynamicProperty(RED, node, msg, value, type, label);
}

/** Marks a property whose value must be read from msg, context, env or JSONata. */
const DYNAMIC = Symbol("dynamic");

/** A property the node's settings hold as it is (blank, str, num), or DYNAMIC. */
function literalProperty(value: unknown, type: unknown, label: string): unknown {
  const kind = typeof type === "string" && type !== "" ? type : "str";
  if (value === undefined || value === null || value === "") return undefined;
  if (!TYPES.has(kind)) throw new MoreLoginInputError(`${label} has an unknown source type "${kind}"`);
  if (kind === "str") return String(value);
  if (kind === "num") {
    const number = Number(value);
    if (Number.isFinite(number) || typeof value !== "string") return number;
    throw new MoreLoginInputError(`${label} must be a number`);
  }
  return DYNAMIC;
}

function dynamicProperty(RED: NodeAPI, node: Node, msg: NodeMessage, value: unknown, type: unknown, label: string): Promise<unknown> {
  const kind = String(type);
  return new Promise((resolve, reject) => {
    RED.util.evaluateNodeProperty(String(value), kind, node, msg, (error: Error | null, result: unknown) => {
      if (error) reject(new MoreLoginInputError(`${label} could not be read from ${kind} ${String(value)}: ${error.message}`));
      else resolve(result === "" ? undefined : result);
    });
  });
}

/**
 * The body the node's own fields give, before msg.payload is laid over it: every field in order,
 * msg, context, env and JSONata fields read from the runtime.
 */
export async function fieldsToBody(RED: NodeAPI, node: Node, def: OperationNodeDef, msg: NodeMessage, fields: readonly FieldSpec[]): Promise<Record<string, unknown>> {
  const body: Record<string, unknown> = {};
  for (const field of fields) setField(body, field.name, await evaluateProperty(RED, node, msg, def[field.name], typeOf(def, field), field.name));
  return body;
}

/**
 * The body the node's own fields give when every one of them is a plain value (blank, str, num),
 * so it is the same for every message; undefined when any is read from msg, context, env or JSONata.
 */
export function fixedFields(def: OperationNodeDef, fields: readonly FieldSpec[]): Record<string, unknown> | undefined {
  const body: Record<string, unknown> = {};
  for (const field of fields) {
    const value = literalProperty(def[field.name], typeOf(def, field), field.name);
    if (value === DYNAMIC) return undefined;
    setField(body, field.name, value);
  }
  return body;
}

function typeOf(def: OperationNodeDef, field: FieldSpec): unknown {
  return def[`${field.name}Type`] ?? field.defaultType;
}

function setField(body: Record<string, unknown>, name: string, value: unknown): void {
  if (value !== undefined && value !== null) body[name] = value;
}

/**
 * Lays a message's fields over a body, field by field. `__proto__` is skipped: it can only be an
 * attempt to change the object's prototype, never a MoreLogin field.
 */
export function overlay(body: Record<string, unknown>, fields: Record<string, unknown>): Record<string, unknown> {
  const result = { ...body };
  for (const [key, value] of Object.entries(fields)) {
    if (key === "__proto__") continue;
    result[key] = value;
  }
  return result;
}

/**
 * `overlay` at every depth: where both hold an object, key by key; any other value of `fields` (text,
 * number, array) replaces the body's; `null` removes the key; `__proto__` is skipped as in `overlay`.
 */
export function overlayDeep(body: Record<string, unknown>, fields: Record<string, unknown>): Record<string, unknown> {
  const result = { ...body };
  for (const [key, value] of Object.entries(fields)) {
    if (key === "__proto__") continue;
    const before = result[key];
    if (value === null) delete result[key];
    else if (isPlainObjectValue(value) && isPlainObjectValue(before)) result[key] = overlayDeep(before, value);
    else if (value !== undefined) result[key] = value;
  }
  return result;
}

/** The fields of `fields` with these names that are set: what an action sends of the node's fields as they are. */
export function pick(fields: Record<string, unknown>, names: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(names.filter((name) => fields[name] !== undefined).map((name) => [name, fields[name]]));
}
