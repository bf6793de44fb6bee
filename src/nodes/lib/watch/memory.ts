import type { Node } from "node-red";
import type { ApiName } from "../../../client";
import type { Remembered } from "./changes";
import type { WatchKind } from "./kinds";

/** The context key the watch keeps its last state under. */
const KEY = "moreloginWatch";

interface Stored {
  kind: WatchKind;
  api: ApiName;
  seen: Record<string, Remembered>;
}

function isStored(value: unknown): value is Stored {
  if (typeof value !== "object" || value === null) return false;
  const stored = value as Partial<Stored>;
  return typeof stored.kind === "string" && typeof stored.api === "string" && typeof stored.seen === "object" && stored.seen !== null;
}

/**
 * Node-RED deletes a node's context when the node stops unless a context store is configured, so the
 * last state is also kept here, by node ID, for the next start of the same node in this process.
 */
const inProcess = new Map<string, Stored>();

/**
 * The last state seen, in the node's context: in the default context store, so that a persistent
 * store (localfilesystem) carries it over a restart. Callbacks, because such a store answers later.
 */
export class WatchMemory {
  constructor(
    private readonly node: Node,
    private readonly kind: WatchKind,
    private readonly api: ApiName,
  ) {}

  /** What this watch (same kind and API) saw last; undefined when it has no memory yet. */
  load(): Promise<Record<string, Remembered> | undefined> {
    return new Promise((resolve, reject) => {
      this.node.context().get(KEY, (error: Error | undefined, value: unknown) => {
        if (error) return reject(error);
        const stored = isStored(value) ? value : inProcess.get(this.node.id);
        resolve(stored !== undefined && stored.kind === this.kind && stored.api === this.api ? stored.seen : undefined);
      });
    });
  }

  save(seen: Record<string, Remembered>): Promise<void> {
    const stored: Stored = { kind: this.kind, api: this.api, seen };
    inProcess.set(this.node.id, stored);
    return new Promise((resolve, reject) => {
      this.node.context().set(KEY, stored, (error?: Error) => (error ? reject(error) : resolve()));
    });
  }
}

/** A node deleted from the flows has nothing left to remember. */
export function forgetWatch(nodeId: string): void {
  inProcess.delete(nodeId);
}
