import type { Node, NodeAPI, NodeMessage } from "node-red";
import { MoreLoginInputError } from "../../client";
import type { OperationNodeDef } from "./types";

/** A request field the node's edit dialog sets, possibly from msg, flow, global, env or JSONata. */
export interface FieldSpec {
  name: string;
  /** The TypedInput type used when the flow has none saved (older or hand-written flows). */
  defaultType: "str" | "num";
}

const TYPES = new Set(["str", "num", "msg", "flow", "global", "env", "jsonata", "bool", "json"]);

/** Evaluates one TypedInput property; an empty value means "not set". */
export function evaluateProperty(
  RED: NodeAPI,
  node: Node,
  msg: NodeMessage,
  value: unknown,
  type: unknown,
  label: string,
): Promise<unknown> {
  const kind = typeof type === "string" && type !== "" ? type : "str";
  if (value === undefined || value === null || value === "") return Promise.resolve(undefined);
  if (!TYPES.has(kind)) return Promise.reject(new MoreLoginInputError(`${label} has an unknown source type "${kind}"`));
  if (kind === "str") return Promise.resolve(String(value));
  if (kind === "num") {
    const number = Number(value);
    return Number.isFinite(number) || typeof value !== "string"
      ? Promise.resolve(number)
      : Promise.reject(new MoreLoginInputError(`${label} must be a number`));
  }
  return new Promise((resolve, reject) => {
    RED.util.evaluateNodeProperty(String(value), kind, node, msg, (error: Error | null, result: unknown) => {
      if (error) reject(new MoreLoginInputError(`${label} could not be read from ${kind} ${String(value)}: ${error.message}`));
      else resolve(result === "" ? undefined : result);
    });
  });
}

/** The body the node's own fields give, before msg.payload is laid over it. */
export async function fieldsToBody(
  RED: NodeAPI,
  node: Node,
  def: OperationNodeDef,
  msg: NodeMessage,
  fields: readonly FieldSpec[],
): Promise<Record<string, unknown>> {
  const body: Record<string, unknown> = {};
  for (const field of fields) {
    const type = def[`${field.name}Type`] ?? field.defaultType;
    const value = await evaluateProperty(RED, node, msg, def[field.name], type, field.name);
    if (value !== undefined && value !== null) body[field.name] = value;
  }
  return body;
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
