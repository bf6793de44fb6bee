import type { Node } from "node-red";
import type { ApiName } from "../../../client";
import { nodeContext, type ContextStore } from "../shell/context-store";
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
 * store (localfilesystem) carries it over a restart.
 */
export class WatchMemory {
  private readonly context: ContextStore;

  constructor(
    private readonly node: Node,
    private readonly kind: WatchKind,
    private readonly api: ApiName,
    private readonly kept: KeptStates,
  ) {
    this.context = nodeContext(node);
  }

  /** What this watch (same kind and API) saw last; undefined when it has no memory yet. */
  async load(): Promise<Record<string, Remembered> | undefined> {
    const value = await this.context.get(KEY);
    const stored = isStored(value) ? value : this.kept.get(this.node.id);
    return stored !== undefined && stored.kind === this.kind && stored.api === this.api ? stored.seen : undefined;
  }

  save(seen: Record<string, Remembered>): Promise<void> {
    const stored: Stored = { kind: this.kind, api: this.api, seen };
    this.kept.set(this.node.id, stored);
    return this.context.set(KEY, stored);
  }
}
