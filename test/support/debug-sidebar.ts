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

/** Listens on the editor's comms socket, as the Debug sidebar does, and keeps every Debug message. */
export class DebugSidebar {
  private readonly socket: WebSocket;
  private readonly received: Array<{ id: string; name: string; format: string; msg: string }> = [];

  private constructor(url: string) {
    this.socket = new WebSocket(`${url.replace("http", "ws")}/comms`);
    this.socket.addEventListener("message", (event) => {
      for (const frame of JSON.parse(String(event.data)) as Array<{ topic: string; data: { id: string; name?: string; format: string; msg: string } }>) {
        if (frame.topic === "debug") this.received.push({ id: frame.data.id, name: frame.data.name ?? "", format: frame.data.format, msg: frame.data.msg });
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
    return sidebar;
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
