import type { EventEmitter } from "node:events";
import { helper } from "./node-red";

/** The runtime parts of node-red-node-test-helper that a redeploy needs (not in its typings). */
interface HelperInternals {
  _events: EventEmitter;
  _redNodes: {
    setFlows(flows: unknown, credentials: unknown, type: string): Promise<unknown>;
    stopFlows(): Promise<void>;
    startFlows(): Promise<void>;
  };
}

const internals = helper as unknown as HelperInternals;

/** Resolves when the runtime has started its flows (the event comes after setFlows has answered). */
function flowsStarted(): Promise<void> {
  return new Promise((resolve) => internals._events.once("flows:started", () => resolve()));
}

/**
 * A deploy of `flow` into the running runtime, as the editor's Deploy button does: a full one stops and
 * starts every node, a "nodes" one only the changed nodes; node contexts are kept (unlike helper.load,
 * which clears them).
 */
export async function redeploy(flow: unknown, credentials: unknown = {}, type: "full" | "nodes" = "full"): Promise<void> {
  const started = flowsStarted();
  await internals._redNodes.setFlows(flow, credentials, type);
  await started;
}

/** Stops every flow (as Node-RED shutting down), then runs `meanwhile`, then starts them again. */
export async function whileStopped(meanwhile: () => Promise<void>): Promise<void> {
  await internals._redNodes.stopFlows();
  await meanwhile();
  const started = flowsStarted();
  await internals._redNodes.startFlows();
  await started;
}
