import type { Node, NodeAPI } from "node-red";
import { MoreLoginInputError, describeValue } from "../../../client";
import { evaluateProperty } from "./properties";
import type { MoreLoginMessage, OperationNodeDef } from "./types";

/** A day: longer than any MoreLogin call (a kernel download is allowed 1,810 s). */
const MAX_SECONDS = 86_400;

/**
 * The node's `timeout` for this message in milliseconds, read like any field (a number, or from msg,
 * context, env or JSONata); undefined when blank, so the call keeps its own default.
 */
export async function timeoutOf(RED: NodeAPI, node: Node, def: OperationNodeDef, msg: MoreLoginMessage): Promise<number | undefined> {
  const value = await evaluateProperty(RED, node, msg, def.timeout, def.timeoutType ?? "num", "timeout");
  if (value === undefined || value === null) return undefined;
  const seconds = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
  if (typeof seconds !== "number" || !Number.isFinite(seconds) || seconds <= 0 || seconds > MAX_SECONDS) {
    throw new MoreLoginInputError(`timeout must be a number of seconds above 0 and at most ${MAX_SECONDS}, got ${describeValue(value)}`);
  }
  return Math.round(seconds * 1000);
}
