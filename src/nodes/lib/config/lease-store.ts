import { join } from "node:path";
import type { Node, NodeAPI } from "node-red";
import { JournalLeaseStore, type LeaseRecord, type LeaseStore } from "../../../client";
import { nodeContext } from "../shell/context-store";
import { fileNameOf, stateDirOf } from "./state-dir";

/** The context key 0.4 kept a config node's leases under. */
const LEGACY_KEY = "moreloginLeases";

/** The config node's leases on disk: closed when the node stops, deleted with it. */
export interface ConfigLeaseStore extends LeaseStore {
  close(): Promise<void>;
  remove(): Promise<void>;
}

/** The file of a config node's leases. */
export function leaseJournalFile(RED: NodeAPI, configId: string): string {
  return join(stateDirOf(RED), `leases-${fileNameOf(configId)}.journal`);
}

/**
 * A config node's leases in a journal of its own (see JournalLeaseStore). When the journal was never
 * written, the leases 0.4 kept in the node's context are taken over, once: the context key is cleared
 * as soon as the journal holds them.
 */
export function configLeaseStore(RED: NodeAPI, node: Node): ConfigLeaseStore {
  const journal = new JournalLeaseStore(leaseJournalFile(RED, node.id));
  const context = nodeContext(node);
  let takenOver = false;
  return {
    async load() {
      const kept = await journal.load();
      if (kept !== undefined) return kept;
      const inContext = await context.get(LEGACY_KEY);
      const legacy = Array.isArray(inContext) ? (inContext as LeaseRecord[]) : undefined;
      takenOver = legacy !== undefined;
      return legacy;
    },
    async save(records) {
      await journal.save(records);
      if (!takenOver) return;
      takenOver = false;
      await context.set(LEGACY_KEY, undefined);
    },
    close: () => journal.close(),
    remove: () => journal.remove(),
  };
}
