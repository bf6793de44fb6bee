import type { Node } from "node-red";
import type { CapacityKind, CapacityUsage, PacedStart, WaitReason } from "../../../client";

/** How a message that ended well went: green all good, yellow partly (some of the proxies checked alive), red none. */
export type SuccessFill = "green" | "yellow" | "red";

interface ShownStatus {
  fill?: "blue" | SuccessFill;
  shape?: "dot" | "ring";
  text?: string;
}

/** While requests are in flight, the count on the status changes at most this often. */
export const BUSY_UPDATE_MS = 200;

/** What the input wrapper tells a node's status about each message. */
export type MessageStatus = Pick<StatusTracker, "begin" | "queued" | "succeed" | "fail" | "failEarly" | "clear">;

/** For a node that shows its own status (the batch's progress): its messages leave the status alone. */
export const OWN_STATUS: MessageStatus = {
  begin: () => undefined,
  queued: () => undefined,
  succeed: () => undefined,
  fail: () => undefined,
  failEarly: () => undefined,
  clear: () => undefined,
};

/**
 * Keeps a node's status honest under concurrency: blue while any request is in flight (with a count),
 * and the outcome of the last one to finish once none is. Outcomes show at once; while requests keep
 * overlapping, the blue count is brought up to date at most every BUSY_UPDATE_MS, and a status equal
 * to the one on show is not sent again. At thousands of messages a second that keeps the editor (and
 * every Status node) from receiving two status events per message.
 */
export class StatusTracker {
  private inFlight = 0;
  /** Of those, the ones waiting, by what they wait for (pacing, the start limit, a free profile or phone). */
  private readonly waiting: Record<WaitReason, number> = { turn: 0, start: 0, profile: 0, phone: 0, cloudBrowser: 0 };
  /** Starts waiting on the API's pace, and what says when the next may go ("paced: next start in 12 s"). */
  private pacedStarts = 0;
  private paced: PacedStart | undefined;
  /** How full the config node's caps are, for "5 of 5 running". */
  private capacityUsage?: (kind: CapacityKind) => CapacityUsage;
  private shown = "";
  private shownAt = Number.NEGATIVE_INFINITY;
  /** A blue status is waiting for its turn. */
  private busyDue = false;
  /** One timer per node, re-armed with refresh() rather than created per message. */
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly node: Node,
    private readonly text: (key: string, values?: Record<string, unknown>) => string,
  ) {}

  begin(): void {
    this.inFlight++;
    this.showBusy();
  }

  /** A message's call starts (true) or stops (false) waiting in one of the config node's queues. */
  queued(waiting: boolean, reason: WaitReason = "turn", usage?: (kind: CapacityKind) => CapacityUsage, paced?: PacedStart): void {
    this.waiting[reason] = Math.max(0, this.waiting[reason] + (waiting ? 1 : -1));
    if (paced) {
      this.pacedStarts = Math.max(0, this.pacedStarts + (waiting ? 1 : -1));
      this.paced = paced;
    }
    if (usage) this.capacityUsage = usage;
    if (this.inFlight > 0) this.showBusy();
  }

  succeed(summary: string | (() => string), fill: SuccessFill = "green"): void {
    this.finish({ fill, shape: "dot" }, summary);
  }

  fail(reason: string): void {
    this.finish({ fill: "red", shape: "ring" }, reason);
  }

  /** A failure before any request started (no config node, bad input). */
  failEarly(reason: string): void {
    if (this.inFlight === 0) this.show({ fill: "red", shape: "ring", text: reason });
  }

  clear(): void {
    this.inFlight = 0;
    for (const reason of Object.keys(this.waiting) as WaitReason[]) this.waiting[reason] = 0;
    this.pacedStarts = 0;
    this.busyDue = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.show({});
  }

  /** The outcome shows only when no other request is still in flight. */
  private finish(look: Pick<ShownStatus, "fill" | "shape">, text: string | (() => string)): void {
    this.inFlight = Math.max(0, this.inFlight - 1);
    if (this.inFlight > 0) {
      this.showBusy();
      return;
    }
    this.busyDue = false;
    this.show({ ...look, text: typeof text === "function" ? text() : text });
  }

  private showBusy(): void {
    if (this.busyDue) return;
    if (performance.now() - this.shownAt >= BUSY_UPDATE_MS) {
      this.show(this.busyStatus());
      return;
    }
    this.busyDue = true;
    if (this.timer) {
      this.timer.refresh();
    } else {
      this.timer = setTimeout(() => this.showDueBusy(), BUSY_UPDATE_MS);
      this.timer.unref();
    }
  }

  private showDueBusy(): void {
    if (!this.busyDue) return;
    this.busyDue = false;
    if (this.inFlight > 0) this.show(this.busyStatus());
  }

  private busyStatus(): ShownStatus {
    const waitingText = this.waitingText();
    if (waitingText !== undefined) return { fill: "blue", shape: "ring", text: waitingText };
    const text = this.inFlight > 1 ? this.text("morelogin.status.inFlight", { count: this.inFlight }) : this.text("morelogin.status.requesting");
    return { fill: "blue", shape: "dot", text };
  }

  /** What the waiting messages wait for, the caps first: they are what a user set to hold them; then the API's pace. */
  private waitingText(): string | undefined {
    const { profile, phone, cloudBrowser, start, turn } = this.waiting;
    if (profile > 0) return this.text("morelogin.status.waiting.profile", { count: profile, ...this.usage("profiles") });
    if (phone > 0) return this.text("morelogin.status.waiting.phone", { count: phone, ...this.usage("phones") });
    if (cloudBrowser > 0) return this.text("morelogin.status.waiting.cloudBrowser", { count: cloudBrowser, ...this.usage("cloudBrowsers") });
    // Starts waiting on the API's pace hold their start slots: the pace is why the others wait too.
    if (this.pacedStarts > 0 && this.paced) return this.text("morelogin.status.pacedStart", { s: Math.max(1, Math.ceil(this.paced.nextStartInMs() / 1000)) });
    if (start > 0) return this.text("morelogin.status.waiting.start", { count: start });
    if (turn > 0) return this.text("morelogin.status.queued", { count: turn });
    return undefined;
  }

  private usage(kind: CapacityKind): { running: number | string; limit: number | string } {
    return this.capacityUsage?.(kind) ?? { running: "?", limit: "?" };
  }

  private show(status: ShownStatus): void {
    const key = `${status.fill ?? ""}/${status.shape ?? ""}/${status.text ?? ""}`;
    this.shownAt = performance.now();
    if (key === this.shown) return;
    this.shown = key;
    this.node.status(status);
  }
}
