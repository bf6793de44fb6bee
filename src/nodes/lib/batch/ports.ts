import type { Node, NodeAPI, NodeMessage } from "node-red";
import type { BatchPorts } from "../../../batch";
import type { Translate } from "../shell/i18n";

/** The runner's ways out of a batch node: items on output 1, progress on output 2, its status, IDs and copies. */
export function runnerPorts(RED: NodeAPI, node: Node, t: Translate, failed: (error: Error) => void): BatchPorts {
  return {
    sendItem: (msg) => node.send([msg as NodeMessage, null]),
    sendProgress: (topic, payload) => node.send([null, { topic, payload } as NodeMessage]),
    status: (status) => node.status(status),
    failed,
    generateId: () => RED.util.generateId(),
    clone: (value) => RED.util.cloneMessage(value as never) as typeof value,
    now: () => Date.now(),
    t,
  };
}
