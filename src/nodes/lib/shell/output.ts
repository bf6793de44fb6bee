import type { NodeAPI, NodeMessage } from "node-red";
import type { MoreLoginMessage, MoreLoginMessageInfo } from "./types";

export type OutputMode = "array" | "split";

export function outputMode(value: unknown): OutputMode {
  return value === "split" ? "split" : "array";
}

/**
 * The incoming message goes on with the result as its payload, so upstream properties survive, and
 * so does what `msg.morelogin` carries (the started profile, the browser node's tab, a batch's
 * `batch`, fields a flow put there) unless `info` sets it.
 */
export function single(msg: MoreLoginMessage, payload: unknown, info: MoreLoginMessageInfo): NodeMessage[] {
  msg.payload = payload;
  msg.morelogin = carried(info, msg.morelogin);
  return [msg];
}

/**
 * `info` over what the message already carried. The fields that describe a call (which API and path,
 * its request ID, pages, truncation, error) are this call's alone: an earlier call's are not kept.
 */
function carried(info: MoreLoginMessageInfo, previous: MoreLoginMessageInfo | undefined): MoreLoginMessageInfo {
  const { api: _api, path: _path, requestId: _requestId, pages: _pages, truncated: _truncated, error: _error, ...kept } = previous ?? {};
  return { ...kept, ...info };
}

/**
 * One message per item, each a clone of the incoming one with `msg.parts` set the way the core Split
 * node sets it, so a Join node in automatic mode rebuilds the array.
 */
export function split(RED: NodeAPI, msg: MoreLoginMessage, items: readonly unknown[], info: MoreLoginMessageInfo): NodeMessage[] {
  const id = RED.util.generateId();
  const outer = msg.parts;
  msg.payload = undefined;
  const count = items.length;
  return items.map((item, index) => {
    const copy = RED.util.cloneMessage(msg) as MoreLoginMessage;
    copy.payload = item;
    copy.parts = { id, type: "array", index, count, len: 1, ...(outer ? { parts: outer } : {}) } as NodeMessage["parts"];
    copy.morelogin = carried({ ...info }, copy.morelogin);
    return copy;
  });
}
