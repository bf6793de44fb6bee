import type { Translate } from "../i18n";
import { itemIdOf } from "./items";
import { Ledger } from "./ledger";
import { ApiPace, batchEta, type ItemRequests } from "./api-pace";
import { Pace } from "./pace";
import { statusOf, type BatchProgress, type BatchStatus } from "./progress";
import type { BatchSettings } from "./settings";
import type { BatchFailure, BatchHeader, BatchStore, QueuedList, StoredBatch } from "./store";

/** What `msg.morelogin.batch` holds on an item message. */
export interface BatchTag extends ItemRequests {
  id: string;
  item: string;
  index: number;
  total: number;
  attempt: number;
}

/** What the runner needs from its node: sending, status, ids, the clock. */
export interface BatchPorts {
  sendItem(msg: Record<string, unknown>): void;
  sendProgress(topic: "progress" | "done", payload: BatchProgress): void;
  status(status: BatchStatus | Record<string, never>): void;
  generateId(): string;
  clone<T>(value: T): T;
  now(): number;
  t: Translate;
}

export type BatchCommand = "pause" | "resume" | "cancel" | "status";
export const BATCH_COMMANDS: readonly BatchCommand[] = ["pause", "resume", "cancel", "status"];

/** Output 2 and the status change at most this often while items end. */
const PROGRESS_EVERY_MS = 1000;

interface Running {
  header: BatchHeader;
  items: unknown[];
  ledger: Ledger;
  failures: BatchFailure[];
  pace: Pace;
  apiPace: ApiPace;
  /** One timer per item out (at most `parallel`). */
  timers: Map<number, NodeJS.Timeout>;
}

/**
 * One batch node's work: the running batch, the lists waiting their turn, what goes out and what came
 * back. Every change is written to the store as it happens (see BatchStore), so a restart resumes.
 */
export class BatchRunner {
  private batch: Running | undefined;
  private queue: QueuedList[] = [];
  private last: BatchProgress | undefined;
  private lastProgressAt = Number.NEGATIVE_INFINITY;
  private progressTimer: NodeJS.Timeout | undefined;
  private sending = false;
  private stopped = false;
  /** The IDs of batches this node ran lately, so a late return is known as one (and ignored). */
  private readonly endedIds: string[] = [];

  constructor(
    private readonly settings: BatchSettings,
    private readonly store: BatchStore,
    private readonly ports: BatchPorts,
  ) {}

  /** Picks up what the context store kept; items out at the stop are interrupted (or, with `resend`, sent again). */
  restore(saved: { batch?: StoredBatch; queue: QueuedList[]; last?: unknown }): void {
    this.queue = saved.queue;
    if (isProgress(saved.last)) this.last = saved.last;
    if (!saved.batch) return;
    const { header, items, ledger: record, failures } = saved.batch;
    const ledger = Ledger.restore(header.total, record);
    if (this.settings.resend) ledger.moveAll("out", "waiting", true);
    else ledger.moveAll("out", "interrupted");
    this.batch = { header, items, ledger, failures, pace: new Pace(this.ports.now()), apiPace: new ApiPace(), timers: new Map() };
    this.persist();
  }

  /** Sends what the batch (restored or new) has to send; called once the flows have started. */
  begin(): void {
    if (this.batch) this.pump();
    else if (this.queue.length > 0) this.startNext();
    this.showStatus();
  }

  /** A new list: starts now, or waits its turn behind the running batch. */
  add(items: unknown[], origin: Record<string, unknown>): void {
    this.queue.push({ items, origin });
    this.store.queue(this.queue);
    if (!this.batch) this.startNext();
    else this.showStatus();
  }

  /** Whether a message tagged with this batch ID is one of this node's items (running or ended lately). */
  knows(id: string): boolean {
    return this.batch?.header.id === id || this.endedIds.includes(id);
  }

  /** What the context would hold now, for the next start of this node in this process (see the node). */
  snapshot(): { batch?: StoredBatch; queue: QueuedList[]; last?: unknown } {
    const batch = this.batch;
    if (!batch) return { queue: this.queue, last: this.last };
    batch.ledger.fold();
    const ledger = { ...batch.ledger.snapshot(), journal: batch.ledger.changes };
    return { batch: { header: batch.header, items: batch.items, ledger, failures: batch.failures }, queue: this.queue, last: this.last };
  }

  /** An item message came back: with `msg.error` it failed, otherwise it is done. Late or unknown returns are ignored. */
  back(tag: BatchTag, error: unknown): void {
    const batch = this.batch;
    if (!batch || tag.id !== batch.header.id || !Number.isInteger(tag.index) || tag.index < 0 || tag.index >= batch.header.total) return;
    const { ledger } = batch;
    if (ledger.stateOf(tag.index) !== "out" || ledger.attemptOf(tag.index) !== tag.attempt) return;
    this.clearTimer(batch, tag.index);
    batch.apiPace.ended(tag);
    if (error === undefined || error === null) {
      ledger.set(tag.index, "done");
      batch.pace.ended(this.ports.now());
    } else if (tag.attempt <= this.settings.retries && !batch.header.cancelled) {
      ledger.set(tag.index, "retry", tag.attempt + 1);
    } else {
      this.fail(batch, tag.index, "failed", errorText(error));
    }
    this.persist();
    this.pump();
    this.progressSoon();
  }

  command(command: BatchCommand): void {
    const batch = this.batch;
    if (command === "status") {
      this.sendProgress();
      return;
    }
    if (!batch) return;
    if (command === "pause") batch.header.paused = true;
    if (command === "resume") batch.header.paused = false;
    if (command === "cancel") {
      batch.header.cancelled = true;
      batch.ledger.moveAll("waiting", "cancelled");
      batch.ledger.moveAll("retry", "cancelled");
      this.persist();
    }
    this.store.header(batch.header);
    this.pump();
    this.showStatus();
  }

  /** The node stops (a deploy, a shutdown): timers go, nothing more is sent; the context keeps the rest. */
  stop(): void {
    this.stopped = true;
    if (this.progressTimer) clearTimeout(this.progressTimer);
    if (this.batch) for (const timer of this.batch.timers.values()) clearTimeout(timer);
  }

  private startNext(): void {
    const next = this.queue.shift();
    if (!next) return;
    this.store.queue(this.queue);
    const now = this.ports.now();
    const header: BatchHeader = { id: this.ports.generateId(), total: next.items.length, startedAt: new Date(now).toISOString(), paused: false, cancelled: false, origin: next.origin };
    const ledger = Ledger.fresh(header.total);
    this.batch = { header, items: next.items, ledger, failures: [], pace: new Pace(now), apiPace: new ApiPace(), timers: new Map() };
    this.store.begin(header, next.items, { ...ledger.snapshot(), journal: ledger.changes }, []);
    this.lastProgressAt = Number.NEGATIVE_INFINITY;
    this.pump();
    this.showStatus();
  }

  /** Sends items while places are free; ends the batch when nothing runs or waits. */
  private pump(): void {
    const batch = this.batch;
    if (!batch || this.stopped || this.sending) return;
    const { ledger, header } = batch;
    this.sending = true;
    try {
      let sent = false;
      while (!header.paused && !header.cancelled && ledger.count().running < this.settings.parallel) {
        const index = ledger.next();
        if (index === undefined) break;
        const attempt = ledger.attemptOf(index);
        ledger.set(index, "out", attempt);
        sent = true;
        this.armTimer(batch, index);
        this.ports.sendItem(this.itemMessage(batch, index, attempt));
      }
      if (sent) this.persist();
    } finally {
      this.sending = false;
    }
    const counts = ledger.count();
    if (counts.running === 0 && (counts.waiting === 0 || header.cancelled)) this.finish(batch);
  }

  private itemMessage(batch: Running, index: number, attempt: number): Record<string, unknown> {
    const item = batch.items[index];
    const id = itemIdOf(item, index);
    const origin = this.ports.clone(batch.header.origin);
    const carried = (origin.morelogin ?? {}) as Record<string, unknown>;
    const tag: BatchTag = { id: batch.header.id, item: id, index, total: batch.header.total, attempt };
    return { ...origin, _msgid: this.ports.generateId(), payload: this.ports.clone(item), topic: id, morelogin: { ...carried, batch: tag } };
  }

  private armTimer(batch: Running, index: number): void {
    const ms = this.settings.itemTimeoutMs;
    if (ms <= 0) return;
    const attempt = batch.ledger.attemptOf(index);
    const timer = setTimeout(() => {
      batch.timers.delete(index);
      if (this.stopped || this.batch !== batch || batch.ledger.stateOf(index) !== "out" || batch.ledger.attemptOf(index) !== attempt) return;
      this.fail(batch, index, "timedOut", `timed out after ${ms / 1000} s`);
      this.persist();
      this.pump();
      this.progressSoon();
    }, ms);
    timer.unref();
    batch.timers.set(index, timer);
  }

  private clearTimer(batch: Running, index: number): void {
    const timer = batch.timers.get(index);
    if (timer) clearTimeout(timer);
    batch.timers.delete(index);
  }

  private fail(batch: Running, index: number, state: "failed" | "timedOut", error: string): void {
    const attempt = batch.ledger.attemptOf(index);
    batch.ledger.set(index, state, attempt);
    batch.failures.push({ id: itemIdOf(batch.items[index], index), attempt, error });
    batch.pace.ended(this.ports.now());
    this.store.changed(batch.ledger.changes, batch.failures);
  }

  /** Writes what changed: the journal, or (now and then) a new checkpoint. */
  private persist(): void {
    const batch = this.batch;
    if (!batch) return;
    if (batch.ledger.journalFull) {
      batch.ledger.fold();
      this.store.folded(batch.ledger.snapshot(), batch.ledger.changes);
    } else {
      this.store.changed(batch.ledger.changes);
    }
  }

  private finish(batch: Running): void {
    for (const timer of batch.timers.values()) clearTimeout(timer);
    const summary = { ...this.progressOf(batch), endedAt: new Date(this.ports.now()).toISOString(), etaMs: 0, pacedPerMinute: null };
    this.batch = undefined;
    this.last = summary;
    this.endedIds.push(batch.header.id);
    if (this.endedIds.length > 20) this.endedIds.shift();
    if (this.progressTimer) clearTimeout(this.progressTimer);
    this.progressTimer = undefined;
    this.store.finished(summary);
    this.ports.sendProgress("done", summary);
    this.showStatus();
    if (this.queue.length > 0) this.startNext();
  }

  private progressOf(batch: Running): BatchProgress {
    const counts = batch.ledger.count();
    const eta = batchEta(batch.pace, batch.apiPace, counts.running + counts.waiting, this.ports.now());
    return {
      id: batch.header.id,
      total: batch.header.total,
      ...counts,
      startedAt: batch.header.startedAt,
      endedAt: null,
      etaMs: batch.header.paused ? null : eta.etaMs,
      perMinute: Math.round(eta.perMinute * 10) / 10,
      pacedPerMinute: batch.header.paused ? null : eta.pacedPerMinute,
      failures: batch.failures.slice(),
    };
  }

  /** Output 2 and the status, at most once a second while items end. */
  private progressSoon(): void {
    if (this.progressTimer || this.stopped || !this.batch) return;
    const wait = this.lastProgressAt + PROGRESS_EVERY_MS - this.ports.now();
    if (wait <= 0) {
      this.sendProgress();
      return;
    }
    this.progressTimer = setTimeout(() => {
      this.progressTimer = undefined;
      if (!this.stopped && this.batch) this.sendProgress();
    }, wait);
    this.progressTimer.unref();
  }

  private sendProgress(): void {
    const payload = this.batch ? this.progressOf(this.batch) : this.last;
    if (!payload) return;
    this.lastProgressAt = this.ports.now();
    this.ports.sendProgress("progress", payload);
    this.showStatus();
  }

  private showStatus(): void {
    if (this.stopped) return;
    if (this.batch) this.ports.status(statusOf(this.progressOf(this.batch), this.batch.header.paused, this.ports.t));
    else if (this.last) this.ports.status(statusOf(this.last, false, this.ports.t));
    else this.ports.status({});
  }
}

function errorText(error: unknown): string {
  if (typeof error === "string") return error;
  const message = (error as { message?: unknown } | undefined)?.message;
  return typeof message === "string" ? message : "failed";
}

function isProgress(value: unknown): value is BatchProgress {
  return typeof value === "object" && value !== null && typeof (value as BatchProgress).id === "string" && typeof (value as BatchProgress).total === "number";
}
