import type { ErrorContext } from "./errors";
import type { ApiName } from "./types";
import { WaitQueue, type WaitOptions } from "./wait-queue";

/** What a config node caps: running profiles, cloud phones powered on or booting, and cloud browsers starting or running. */
export type CapacityKind = "profiles" | "phones" | "cloudBrowsers";

/** What a start waits for under each cap: the text of a cancelled wait's error, and the node status's reason. */
const FREE: Record<CapacityKind, { text: string; reason: "profile" | "phone" | "cloudBrowser" }> = {
  profiles: { text: "a free profile (maxProfiles)", reason: "profile" },
  phones: { text: "a free cloud phone (maxPhones)", reason: "phone" },
  cloudBrowsers: { text: "a free cloud browser (maxCloudBrowsers)", reason: "cloudBrowser" },
};

/** What a call does to the running set: starts one (takes a place), stops one, or stops them all. */
export type CapacityEffect = "take" | "free" | "freeAll";

export interface CapacityRole {
  kind: CapacityKind;
  effect: CapacityEffect;
}

/** How full a cap is, for the node's status ("5 of 5 running"). */
export interface CapacityUsage {
  running: number;
  limit: number;
}

/** What runs in the MoreLogin client, and when the read that saw it was sent for (`Date.now()`). */
export interface RunningRead {
  ids: Iterable<string>;
  readAt: number;
}

/** Reads the IDs running now in the MoreLogin client, through the given API (maybe sharing a read begun a moment ago). */
export type RunningReader = (api: ApiName) => Promise<RunningRead>;

/** A read of the running set begun this long before it is asked for (by a watch, say) is good enough for a cap. */
export const SHARED_READ_MS = 1_000;

/** The running set is read again at most this often, and only while a start has to wait. */
export const RUNNING_REREAD_MS = 5_000;

/**
 * A start that fits under the cap by what this client knows (the last read, with its own starts and
 * closes since) goes on a read up to this old. Each read is one request of the API's 120 a minute: a
 * read every 5 s while starts flow would spend a tenth of the budget a long run needs for its starts
 * and closes. Profiles started elsewhere count from the next read.
 */
export const RUNNING_TRUST_MS = 30_000;

interface Waiting {
  key: string;
  api: ApiName;
  /** Set when the waiter is let through: whether it took a place (false: the profile already runs). */
  took?: boolean;
}

/**
 * At most `limit` profiles (or phones) running at once; 0 = no limit. Counts what the MoreLogin client
 * last said was running, plus this client's starts since and in flight, minus its closes since. A start
 * over the limit waits in arrival order; while one waits, the running set is read again every
 * RUNNING_REREAD_MS, so a profile closed elsewhere frees its place. A start for an ID already running
 * or starting passes straight through.
 */
export class CapacityLimit {
  /** Running as last read, with this client's starts and closes since laid over it. */
  private running = new Set<string>();
  /** Starts in flight, by ID: each holds a place until it is answered. */
  private readonly starting = new Set<string>();
  private readonly queue: WaitQueue<Waiting>;
  private readAt: number | undefined;
  private reading = false;
  /** What this client started and stopped lately, in order: a read begun before a change does not show it. */
  private changes: Array<{ key: string; taken: boolean; at: number }> = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(
    readonly limit: number,
    private readonly read: RunningReader,
    private readonly closed: AbortSignal,
    kind: CapacityKind,
    private readonly now: () => number = Date.now,
  ) {
    this.queue = new WaitQueue(closed, FREE[kind].text, FREE[kind].reason);
    closed.addEventListener("abort", () => this.stopTimer(), { once: true });
  }

  get usage(): CapacityUsage {
    return { running: this.count(), limit: this.limit };
  }

  /**
   * Waits for a place for a start of `key`, then runs it. On success the ID counts as running (the
   * reply's own ID when `idOf` finds one); on failure its place is free again.
   */
  async take<T>(key: string, api: ApiName, options: WaitOptions, context: ErrorContext, run: () => Promise<T>, idOf: (result: T) => string | undefined): Promise<T> {
    if (this.limit <= 0) return run();
    let took: boolean;
    if (this.isRunning(key)) took = false;
    else if (this.queue.length === 0 && this.isTrusted() && this.hasRoom()) took = this.hold(key);
    else {
      const waiting: Waiting = { key, api };
      const turn = this.queue.wait(options, false, context, waiting);
      this.pump();
      await turn;
      took = waiting.took === true;
    }
    try {
      const result = await run();
      this.started(key, idOf(result) ?? key);
      return result;
    } catch (error) {
      // A profile whose start failed may still be starting: the next read of the running set tells.
      if (took) this.starting.delete(key);
      this.pump();
      throw error;
    }
  }

  /** A stop went through: the place is free at once. */
  freed(key: string): void {
    if (this.limit <= 0) return;
    this.running.delete(key);
    this.changed(key, false);
    this.pump();
  }

  /** Everything was stopped (close all profiles). */
  freedAll(): void {
    if (this.limit <= 0) return;
    for (const key of this.running) this.changed(key, false);
    this.running.clear();
    this.pump();
  }

  private started(key: string, id: string): void {
    this.starting.delete(key);
    this.running.add(id);
    this.changed(id, true);
    this.pump();
  }

  /** Kept as long as a read (maybe begun up to SHARED_READ_MS before it was asked for) may miss them. */
  private changed(key: string, taken: boolean): void {
    if (this.limit <= 0) return;
    const at = this.now();
    this.changes.push({ key, taken, at });
    if (!this.reading && this.changes.length > 256) this.dropChangesBefore(at - SHARED_READ_MS);
  }

  private dropChangesBefore(at: number): void {
    const first = this.changes.findIndex((change) => change.at >= at);
    this.changes = first < 0 ? [] : this.changes.slice(first);
  }

  private isRunning(key: string): boolean {
    return this.running.has(key) || this.starting.has(key);
  }

  private count(): number {
    let count = this.running.size;
    for (const key of this.starting) if (!this.running.has(key)) count++;
    return count;
  }

  private hasRoom(): boolean {
    return this.count() < this.limit;
  }

  /** Knowledge younger than RUNNING_REREAD_MS: a start may go on it without asking the client again. */
  private isFresh(): boolean {
    return this.readAt !== undefined && this.now() - this.readAt < RUNNING_REREAD_MS;
  }

  /** Knowledge a start that fits may go on (see RUNNING_TRUST_MS). */
  private isTrusted(): boolean {
    return this.readAt !== undefined && this.now() - this.readAt < RUNNING_TRUST_MS;
  }

  private hold(key: string): true {
    this.starting.add(key);
    return true;
  }

  /** Lets waiting starts through while there is room; otherwise reads the running set again when due. */
  private pump(): void {
    for (let head = this.queue.peekFirst(); head !== undefined; head = this.queue.peekFirst()) {
      if (this.isRunning(head.key)) head.took = false;
      else if (this.isTrusted() && this.hasRoom()) head.took = this.hold(head.key);
      else break;
      this.queue.releaseFirst();
    }
    if (this.queue.length > 0) this.scheduleRead();
  }

  private scheduleRead(): void {
    if (this.reading || this.timer || this.closed.aborted) return;
    const due = this.readAt === undefined ? 0 : Math.max(0, this.readAt + RUNNING_REREAD_MS - this.now());
    this.timer = setTimeout(() => {
      this.timer = undefined;
      // Someone else's read (a watch's) since the timer was set may have made this one needless.
      if (this.isFresh()) this.pump();
      else void this.readRunning();
    }, due);
  }

  private async readRunning(): Promise<void> {
    const api = this.queue.peekFirst()?.api;
    if (api === undefined) return;
    this.reading = true;
    let readAt = this.now();
    this.dropChangesBefore(readAt - SHARED_READ_MS);
    try {
      const answer = await this.read(api);
      readAt = Math.min(readAt, answer.readAt);
      this.apply(answer);
    } catch {
      // The client could not say (it is down, or closing): go on with what this client counted itself.
    } finally {
      this.reading = false;
      this.readAt = Math.max(this.readAt ?? readAt, readAt);
      this.dropChangesBefore(this.readAt);
    }
    if (!this.closed.aborted) this.pump();
  }

  /**
   * A read of the running set made for someone else (a watch, a lease): the cap takes it as its own
   * when it is newer than what it knows, so it need not read again while others read often enough.
   */
  observed(answer: RunningRead): void {
    if (this.limit <= 0 || (this.readAt !== undefined && answer.readAt < this.readAt)) return;
    this.apply(answer);
    this.readAt = answer.readAt;
    if (!this.reading) this.dropChangesBefore(answer.readAt);
    this.pump();
  }

  /** The running set as read, with this client's starts and closes since the read was sent for laid over it, in order. */
  private apply(answer: RunningRead): void {
    if (this.readAt !== undefined && answer.readAt < this.readAt) return;
    const read = new Set(answer.ids);
    for (const change of this.changes) {
      if (change.at < answer.readAt) continue;
      if (change.taken) read.add(change.key);
      else read.delete(change.key);
    }
    this.running = read;
  }

  private stopTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
