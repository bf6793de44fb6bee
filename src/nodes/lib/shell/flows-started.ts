import type { NodeAPI } from "node-red";

/**
 * Nodes that send on their own (a watch's polls, a batch resuming after a restart) wait for their flows
 * to have started: a node created after them (a Catch, the next node of the flow) would miss what they
 * send during the deploy. One listener per runtime, however often the node set is loaded.
 */
const waitingByRuntime = new WeakMap<object, Set<() => void>>();

export function startsWaitingFor(RED: NodeAPI): Set<() => void> {
  const known = waitingByRuntime.get(RED.events);
  if (known) return known;
  const waiting = new Set<() => void>();
  waitingByRuntime.set(RED.events, waiting);
  RED.events.on("flows:started", () => {
    const starts = [...waiting];
    waiting.clear();
    for (const start of starts) start();
  });
  return waiting;
}
