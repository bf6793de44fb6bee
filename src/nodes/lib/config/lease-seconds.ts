import type { NodeAPI } from "node-red";
import { MoreLoginInputError, describeValue } from "../../../client";
import type { ConfigNode, MoreLoginMessage, OperationNodeDef } from "../shell/types";
import { isChecked } from "../shell/checkbox";

/** A year: a longer lease is a typing mistake (and timers are set again at most every hour anyway). */
export const MAX_LEASE_SECONDS = 31_536_000;

/**
 * A lease in seconds as a flow gives it: a number or a numeric string, 0 or more (0 = none);
 * undefined when blank (the next default applies). Anything else is bad input.
 */
export function leaseSeconds(value: unknown, name: string): number | undefined {
  if (value === undefined || value === null || (typeof value === "string" && value.trim() === "")) return undefined;
  const seconds = typeof value === "string" ? Number(value.trim()) : value;
  if (typeof seconds !== "number" || !Number.isFinite(seconds) || seconds < 0 || seconds > MAX_LEASE_SECONDS) {
    throw new MoreLoginInputError(`${name} must be a number of seconds, 0 (no lease) to ${MAX_LEASE_SECONDS}, got ${describeValue(value)}`);
  }
  return seconds;
}

/** The config node's `lease` (blank = none) and `closeOnStop` (default off). */
export function configLeaseOf(def: { lease?: unknown; closeOnStop?: unknown }): { lease: number; closeOnStop: boolean } {
  return { lease: leaseSeconds(def.lease, "the config node's lease") ?? 0, closeOnStop: isChecked(def.closeOnStop) };
}

/**
 * The lease of one start (power-on) in seconds, 0 = none: `msg.lease`, else the node's `lease`, else
 * its config node's. Read before the call, so bad input starts nothing.
 */
export function leaseFor(RED: NodeAPI, def: OperationNodeDef, msg: MoreLoginMessage): number {
  const fromMessage = leaseSeconds(msg.lease, "msg.lease");
  if (fromMessage !== undefined) return fromMessage;
  const own = leaseSeconds(def.lease, "the node's lease");
  if (own !== undefined) return own;
  const server = def.server ? (RED.nodes.getNode(def.server) as ConfigNode | null) : null;
  return server?.leaseSeconds ?? 0;
}
