import assert from "node:assert/strict";
import { WebSocket } from "undici";
import type { FlowNode } from "../../tools/sandbox";
import { waitUntil } from "./wait-until";

/** A message of a Debug node, as the editor's Debug sidebar gets it. */
export interface DebugMessage {
  /** The Debug node's name. */
  name: string;
  /** Strings as they are; objects and arrays parsed from the sidebar's JSON. */
  value: unknown;
}

/** A node's status, as the editor's workspace gets it. */
export interface ShownStatus {
  id: string;
  fill?: string;
  text?: string;
}

/** Listens on the editor's comms socket, as the Debug sidebar and the workspace do, and keeps every Debug message and node status. */
export class DebugSidebar {
  private readonly socket: WebSocket;
  private readonly received: Array<{ id: string; name: string; format: string; msg: string }> = [];
  private readonly statuses: ShownStatus[] = [];

  private constructor(url: string) {
    this.socket = new WebSocket(`${url.replace("http", "ws")}/comms`);
    this.socket.addEventListener("message", (event) => {
      for (const frame of JSON.parse(String(event.data)) as Array<{ topic: string; data: { id: string; name?: string; format: string; msg: string; fill?: string; text?: string } }>) {
        if (frame.topic === "debug") this.received.push({ id: frame.data.id, name: frame.data.name ?? "", format: frame.data.format, msg: frame.data.msg });
        else if (frame.topic.startsWith("status/")) this.statuses.push({ id: frame.topic.slice("status/".length), fill: frame.data?.fill, text: frame.data?.text });
      }
    });
  }

  static async open(url: string): Promise<DebugSidebar> {
    const sidebar = new DebugSidebar(url);
    await new Promise<void>((resolve, reject) => {
      sidebar.socket.addEventListener("open", () => resolve());
      sidebar.socket.addEventListener("error", () => reject(new Error("cannot open the editor's comms socket")));
    });
    sidebar.socket.send(JSON.stringify({ subscribe: "debug" }));
    sidebar.socket.send(JSON.stringify({ subscribe: "status/#" }));
    return sidebar;
  }

  /** Where the next node statuses begin. */
  statusMark(): number {
    return this.statuses.length;
  }

  /** The statuses node `id` has shown since `from`, oldest first. */
  statusesSince(from: number, id: string): ShownStatus[] {
    return this.statuses.slice(from).filter((status) => status.id === id);
  }

  /** Where the next run's messages begin. */
  mark(): number {
    return this.received.length;
  }

  /** The messages of these nodes' Debug nodes since `from`. */
  since(from: number, nodes: readonly FlowNode[]): DebugMessage[] {
    const ids = new Set(nodes.map((node) => node.id));
    return this.received
      .slice(from)
      .filter((message) => ids.has(message.id))
      .map(({ name, format, msg }) => ({ name, value: /^(Object|array)/.test(format) ? JSON.parse(msg) : msg }));
  }

  close(): void {
    this.socket.close();
  }
}

/** support/wait-until's waitUntil over the Debug sidebar, failing with `failure` (given what it shows) when the time runs out. */
export async function sidebarUntil(
  shown: () => DebugMessage[],
  accept: (messages: DebugMessage[]) => boolean,
  timeoutMs: number,
  failure: (messages: DebugMessage[]) => string,
): Promise<DebugMessage[]> {
  try {
    return await waitUntil(shown, accept, "the sidebar shows it", timeoutMs, { everyMs: 20 });
  } catch {
    return assert.fail(failure(shown()));
  }
}
