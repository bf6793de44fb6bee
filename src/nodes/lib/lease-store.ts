import type { Node } from "node-red";
import type { LeaseRecord, LeaseStore } from "../../client";

/** The context key the config node keeps its leases under. */
const KEY = "moreloginLeases";

/**
 * Node-RED drops a node's context when the node stops unless a context store is configured, so the
 * leases are also kept here, by config node ID, for the next start of the same config node in this
 * process (a redeploy).
 */
const inProcess = new Map<string, readonly LeaseRecord[]>();

/**
 * The config node's leases in its context, default store: with a persistent store (localfilesystem)
 * they outlive a restart. Callbacks, because such a store answers later.
 */
export function contextLeaseStore(node: Node): LeaseStore {
  return {
    load: () =>
      new Promise((resolve, reject) => {
        node.context().get(KEY, (error: Error | undefined, value: unknown) => {
          if (error) return reject(error);
          resolve(Array.isArray(value) ? (value as LeaseRecord[]) : inProcess.get(node.id));
        });
      }),
    save: (records) => {
      inProcess.set(node.id, records);
      return new Promise((resolve, reject) => {
        node.context().set(KEY, records, (error?: Error) => (error ? reject(error) : resolve()));
      });
    },
  };
}

/** A config node deleted from the flows holds nothing any more. */
export function forgetLeases(nodeId: string): void {
  inProcess.delete(nodeId);
}
