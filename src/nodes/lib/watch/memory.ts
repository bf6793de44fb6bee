import type { Node } from "node-red";
import type { ApiName } from "../../../client";
import { nodeContext, type ContextStore } from "../shell/context-store";
import type { Remembered } from "./changes";
import type { WatchSource } from "./kinds";

/**
 * The context key the watch keeps its last state of a source under: the cloud browsers a key of their
 * own (a watch of both keeps two), the others the key every watch used before cloud browsers.
 */
const keyOf = (source: WatchSource): string => (source === "cloudBrowsers" ? "moreloginWatchCloud" : "moreloginWatch");

interface Stored {
  /** The source (a profiles watch's desktop-client memory says "profiles", as before cloud browsers). */
  kind: WatchSource;
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
  /** By node ID, then by context key. */
  private readonly byNode = new Map<string, Map<string, Stored>>();

  get(nodeId: string, key: string): Stored | undefined {
    return this.byNode.get(nodeId)?.get(key);
  }

  set(nodeId: string, key: string, stored: Stored | undefined): void {
    const kept = this.byNode.get(nodeId) ?? new Map<string, Stored>();
    if (stored === undefined) kept.delete(key);
    else kept.set(key, stored);
    this.byNode.set(nodeId, kept);
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
  private readonly key: string;

  constructor(
    private readonly node: Node,
    private readonly kind: WatchSource,
    private readonly api: ApiName,
    private readonly kept: KeptStates,
  ) {
    this.context = nodeContext(node);
    this.key = keyOf(kind);
  }

  /** What this watch (same source and API) saw last; undefined when it has no memory yet. */
  async load(): Promise<Record<string, Remembered> | undefined> {
    const value = await this.context.get(this.key);
    const stored = isStored(value) ? value : this.kept.get(this.node.id, this.key);
    return stored !== undefined && stored.kind === this.kind && stored.api === this.api ? stored.seen : undefined;
  }

  save(seen: Record<string, Remembered>): Promise<void> {
    const stored: Stored = { kind: this.kind, api: this.api, seen };
    this.kept.set(this.node.id, this.key, stored);
    return this.context.set(this.key, stored);
  }

  /**
   * Forgets what this source saw: a watch that stops watching the cloud (or the desktop client) and
   * later watches it again starts from what it sees then, as a watch switched to another kind does.
   */
  clear(): Promise<void> {
    this.kept.set(this.node.id, this.key, undefined);
    return this.context.set(this.key, undefined);
  }
}
