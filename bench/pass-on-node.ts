/**
 * A node type of a phase's own that stands for the user's work on a running profile: it passes each
 * message on after `ms`, and clears the timers still pending when the flow stops.
 */
import type { Node, NodeAPI, NodeMessage } from "node-red";

/** The module that registers `type`, to hand to `BenchRuntime.startWith`. */
export function passOnAfter(type: string, ms: number): (RED: NodeAPI) => void {
  return (RED) => {
    function PassOnNode(this: Node, def: Record<string, unknown>): void {
      RED.nodes.createNode(this, def as never);
      const timers = new Set<NodeJS.Timeout>();
      this.on("input", (msg: NodeMessage, send: (msg: NodeMessage) => void, done: () => void) => {
        const timer = setTimeout(() => {
          timers.delete(timer);
          send(msg);
          done();
        }, ms);
        timers.add(timer);
      });
      this.on("close", () => {
        for (const timer of timers) clearTimeout(timer);
      });
    }
    RED.nodes.registerType(type, PassOnNode as never);
  };
}
