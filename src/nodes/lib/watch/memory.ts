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
 * last states are also kept here, by node ID, for the next start of the same node (a redeploy, flows
 * stopped and started again). One per registration of the node type, that is per Node-RED runtime:
 * what one runtime saw never reaches the watches of the next, even in the same process (tests).
 */
export class KeptStates {
  private readonly byNode = new Map<string, Stored>();

  get(nodeId: string): Stored | undefined {
    return this.byNode.get(nodeId);
  }

  set(nodeId: string, stored: Stored): void {
    this.byNode.set(nodeId, stored);
  }

  /** A node deleted from the flows has nothing left to remember. */
  forget(nodeId: string): void {
    this.byNode.delete(nodeId);
  }
}

/**
 * The last state seen, in the node's context: in the default context store, so that a persistent
 * store (localfilesystem) carries it over a restart. Callbacks, because such a store answers later.
 */
export class WatchMemory {
  constructor(
    private readonly node: Node,
    private readonly kind: WatchKind,
    private readonly api: ApiName,
    private readonly kept: KeptStates,
  ) {}

  /** What this watch (same kind and API) saw last; undefined when it has no memory yet. */
  load(): Promise<Record<string, Remembered> | undefined> {
    return new Promise((resolve, reject) => {
      this.node.context().get(KEY, (error: Error | undefined, value: unknown) => {
        if (error) return reject(error);
        const stored = isStored(value) ? value : this.kept.get(this.node.id);
        resolve(stored !== undefined && stored.kind === this.kind && stored.api === this.api ? stored.seen : undefined);
      });
    });
  }

  save(seen: Record<string, Remembered>): Promise<void> {
    const stored: Stored = { kind: this.kind, api: this.api, seen };
    this.kept.set(this.node.id, stored);
    return new Promise((resolve, reject) => {
      this.node.context().set(KEY, stored, (error?: Error) => (error ? reject(error) : resolve()));
    });
  }
}
