import type { NodeAPI, NodeMessage } from "node-red";
import type { MoreLoginMessage, MoreLoginMessageInfo } from "./types";

export type OutputMode = "array" | "split";

export function outputMode(value: unknown): OutputMode {
  return value === "split" ? "split" : "array";
}

/**
 * The incoming message goes on with the result as its payload, so upstream properties survive, and
 * the started profile it carries (`msg.morelogin.profile`, and the browser node's tab `msg.morelogin.page`)
 * travels on unless `info` names another.
 */
export function single(msg: MoreLoginMessage, payload: unknown, info: MoreLoginMessageInfo): NodeMessage[] {
  msg.payload = payload;
  msg.morelogin = withProfile(info, msg.morelogin);
  return [msg];
}

function withProfile(info: MoreLoginMessageInfo, previous: MoreLoginMessageInfo | undefined): MoreLoginMessageInfo {
  const profile = info.profile ?? previous?.profile;
  const page = info.page ?? previous?.page;
  return { ...info, ...(profile === undefined ? {} : { profile }), ...(page === undefined ? {} : { page }) };
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
    copy.morelogin = withProfile({ ...info }, copy.morelogin);
    return copy;
  });
}
