import type { Node } from "node-red";

/**
 * Keeps a node's status honest under concurrency: blue while any request is in flight (with a count),
 * and the outcome of the last one to finish once none is.
 */
export class StatusTracker {
  private inFlight = 0;

  constructor(
    private readonly node: Node,
    private readonly text: (key: string, values?: Record<string, unknown>) => string,
  ) {}

  begin(): void {
    this.inFlight++;
    this.showBusy();
  }

  succeed(summary: string): void {
    this.finish({ fill: "green", shape: "dot", text: summary });
  }

  fail(reason: string): void {
    this.finish({ fill: "red", shape: "ring", text: reason });
  }

  /** A failure before any request started (no config node, bad input). */
  failEarly(reason: string): void {
    if (this.inFlight === 0) this.node.status({ fill: "red", shape: "ring", text: reason });
  }

  clear(): void {
    this.inFlight = 0;
    this.node.status({});
  }

  private finish(status: { fill: "green" | "red"; shape: "dot" | "ring"; text: string }): void {
    this.inFlight = Math.max(0, this.inFlight - 1);
    if (this.inFlight > 0) this.showBusy();
    else this.node.status(status);
  }

  private showBusy(): void {
    const text = this.inFlight > 1 ? this.text("morelogin.status.inFlight", { count: this.inFlight }) : this.text("morelogin.status.requesting");
    this.node.status({ fill: "blue", shape: "dot", text });
  }
}
