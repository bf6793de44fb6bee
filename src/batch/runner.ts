import { asError, redactSecrets } from "../client";
import { ApiPace, batchEta, type ItemRequests } from "./api-pace";
import { itemIdOf } from "./items";
import { Pace } from "./pace";
import { statusOf, type BatchStatus } from "./progress";
import type { BatchHeader, BatchProgress, BatchSettings, Translate } from "./types";
import { endedOf } from "./ledger";
import type { BatchWork, Ending, TakenItem } from "./work";

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
  /** The batch's state could not be written: nothing more is sent. */
  failed(error: Error): void;
  generateId(): string;
  clone<T>(value: T): T;
  now(): number;
  t: Translate;
}

export type BatchCommand = "pause" | "resume" | "cancel" | "status";
export const BATCH_COMMANDS: readonly BatchCommand[] = ["pause", "resume", "cancel", "status"];

/** Output 2 and the status change at most this often while items end. */
const PROGRESS_EVERY_MS = 1000;
/** Why a command did nothing, as the `note` of the progress message that answers it. */
const NOTES = {
  nothingRunning: "morelogin-batch.note.nothingRunning",
  noSuchBatch: "morelogin-batch.note.noSuchBatch",
  noBatchYet: "morelogin-batch.note.noBatchYet",
  alreadyPaused: "morelogin-batch.note.alreadyPaused",
  notPaused: "morelogin-batch.note.notPaused",
} as const;

/** The IDs of batches this node ran lately, so a late return is known as one (and ignored). */
const ENDED_IDS_KEPT = 20;

/**
 * One batch node's work: what goes out, what came back, the commands, output 2 and the status. Where the
 * state lives (a journal on this machine, or a shared queue) is the BatchWork's business; an item is on
 * record as out before its message leaves.
 */
export class BatchRunner {
  private pace: Pace;
  /** What the items' MoreLogin nodes recorded of their requests and their API's budget (the ETA's other bound). */
  private apiPace = new ApiPace();
  /** One timer per item out (at most `parallel`). */
  private readonly timers = new Map<number, NodeJS.Timeout>();
  private lastProgressAt = Number.NEGATIVE_INFINITY;
  private progressTimer: NodeJS.Timeout | undefined;
  private pumping = false;
  private pumpAgain = false;
  private stopped = false;
  private broken = false;
  private readonly endedIds: string[] = [];
  /** The running batch's ID as this runner last saw it. */
  private batchId: string | undefined;
  /** Items of the running batch ended, as last counted into the pace. */
  private endedSeen = 0;

  constructor(
    private readonly settings: BatchSettings,
    private readonly work: BatchWork,
    private readonly ports: BatchPorts,
  ) {
    this.pace = new Pace(ports.now());
  }

  /** Sends what the batch (restored or new) has to send; called once the flows have started. */
  begin(): void {
    this.follow(this.work.current());
    if (this.work.current()) this.pump();
    else this.startNext();
    this.showStatus();
  }

  /** A new list: on record, then started now or waiting its turn behind the running batch. Returns its batch ID. */
  async add(items: unknown[], origin: Record<string, unknown>): Promise<string> {
    const id = this.ports.generateId();
    await this.work.add({ id, items, origin });
    if (!this.work.current()) this.startNext();
    else this.showStatus();
    return id;
  }

  /** Whether a message tagged with this batch ID is one of this node's items (running, waiting, or ended lately). */
  knows(id: string): boolean {
    return this.work.current()?.id === id || this.endedIds.includes(id) || this.work.waiting().some((list) => list.id === id);
  }

  /** An item message came back: with `msg.error` it failed, otherwise it is done. Late or unknown returns are ignored. */
  back(tag: BatchTag, error: unknown): void {
    const header = this.work.current();
    if (!header || tag.id !== header.id || !this.work.isOut(tag.index, tag.attempt)) return;
    this.clearTimer(tag.index);
    this.apiPace.ended(tag);
    if (error === undefined || error === null) this.end(tag.index, tag.attempt, { state: "done" });
    else if (tag.attempt <= this.settings.retries && !header.cancelled) this.end(tag.index, tag.attempt, { state: "retry" });
    else this.end(tag.index, tag.attempt, { state: "failed", error: errorText(error) });
  }

  /** The work changed where this node did not change it (another Node-RED, the queue's store): catch up. */
  changed(): void {
    if (this.stopped || this.broken) return;
    this.follow(this.work.current());
    this.notePace();
    if (this.work.current()) this.pump();
    else this.startNext();
    this.progressSoon();
    this.showStatus();
  }

  /** pause, resume, cancel, status; `batchId` (msg.batch) narrows it to one batch. A command with nothing to act on is answered with a note. */
  async command(command: BatchCommand, batchId?: string): Promise<void> {
    const header = this.work.current();
    const running = header && (batchId === undefined || header.id === batchId) ? header : undefined;
    if (command === "status") {
      if (running || (batchId === undefined && this.work.last())) this.sendProgress();
      else this.sendNote(batchId === undefined ? "noBatchYet" : "noSuchBatch", command, batchId);
      return;
    }
    if (command === "cancel") {
      const dropped = await this.work.dropWaiting(batchId);
      if (running) {
        await this.work.cancelCurrent();
        this.pump();
      }
      for (const list of dropped) this.ports.sendProgress("done", this.cancelledSummary(list.id, list.total));
      if (!running && dropped.length === 0) this.sendNote(batchId === undefined ? "nothingRunning" : "noSuchBatch", command, batchId);
      this.showStatus();
      return;
    }
    if (!running) {
      this.sendNote(batchId === undefined ? "nothingRunning" : "noSuchBatch", command, batchId);
      return;
    }
    const pause = command === "pause";
    if (running.paused === pause) {
      this.sendNote(pause ? "alreadyPaused" : "notPaused", command, batchId);
      return;
    }
    await this.work.pause(pause);
    this.pump();
    this.showStatus();
  }

  /** The node stops (a deploy, a shutdown): timers go, nothing more is sent; the work keeps the rest. */
  stop(): void {
    this.stopped = true;
    if (this.progressTimer) clearTimeout(this.progressTimer);
    this.clearTimers();
  }

  private startNext(): void {
    if (this.stopped || this.broken) return;
    this.work
      .startNext(new Date(this.ports.now()).toISOString())
      .then((header) => {
        if (!header || this.stopped) return;
        this.pump();
        this.showStatus();
      })
      .catch((error: unknown) => this.fail(error));
  }

  /** The running batch is another one than last time (a new one, or none): its own pace, its own minute. */
  private follow(header: BatchHeader | undefined): void {
    if (header?.id === this.batchId) return;
    if (this.batchId !== undefined) this.remember(this.batchId);
    this.batchId = header?.id;
    if (!header) return;
    const now = this.ports.now();
    this.pace = new Pace(now);
    this.apiPace = new ApiPace();
    this.lastProgressAt = Number.NEGATIVE_INFINITY;
    this.endedSeen = endedOf(this.work.counts());
  }

  private remember(id: string): void {
    if (this.endedIds.includes(id)) return;
    this.endedIds.push(id);
    if (this.endedIds.length > ENDED_IDS_KEPT) this.endedIds.shift();
  }

  /** Items ended since last looked (by any Node-RED) count towards the pace. */
  private notePace(): void {
    const ended = endedOf(this.work.counts());
    if (ended > this.endedSeen) this.pace.ended(this.ports.now(), ended - this.endedSeen);
    this.endedSeen = ended;
  }

  private end(index: number, attempt: number, ending: Ending): void {
    this.work
      .settle(index, attempt, ending)
      .then(() => {
        this.notePace();
        this.pump();
        this.progressSoon();
      })
      .catch((error: unknown) => this.fail(error));
  }

  private fail(error: unknown): void {
    if (this.stopped || this.broken) return;
    this.broken = true;
    this.clearTimers();
    this.ports.failed(asError(error));
  }

  private pump(): void {
    void this.pumpNow();
  }

  /**
   * Sends items while places are free, each once the work has it on record as out; ends the batch when
   * nothing runs or waits. One pump at a time: what ends while it waits for the disk is picked up after.
   */
  private async pumpNow(): Promise<void> {
    if (this.pumping) {
      this.pumpAgain = true;
      return;
    }
    this.pumping = true;
    try {
      for (;;) {
        this.pumpAgain = false;
        const header = this.work.current();
        this.follow(header);
        if (!header || this.stopped || this.broken) return;
        const counts = this.work.counts();
        if (counts.running === 0 && this.work.runningHere() === 0 && (counts.waiting === 0 || header.cancelled)) {
          await this.finish(header);
          continue;
        }
        const free = this.settings.parallel - this.work.runningHere();
        const taken = header.paused || header.cancelled || free <= 0 ? [] : await this.work.take(free);
        if (this.stopped) return;
        for (const item of taken) this.send(header, item);
        if (taken.length === 0 && !this.pumpAgain) return;
      }
    } catch (error) {
      this.fail(error);
    } finally {
      this.pumping = false;
    }
  }

  private send(header: BatchHeader, taken: TakenItem): void {
    this.armTimer(taken.index, taken.attempt);
    const id = itemIdOf(taken.item, taken.index);
    const origin = this.ports.clone(header.origin);
    const carried = (origin.morelogin ?? {}) as Record<string, unknown>;
    const tag: BatchTag = { id: header.id, item: id, index: taken.index, total: header.total, attempt: taken.attempt };
    this.ports.sendItem({ ...origin, _msgid: this.ports.generateId(), payload: this.ports.clone(taken.item), topic: id, morelogin: { ...carried, batch: tag } });
  }

  private armTimer(index: number, attempt: number): void {
    const ms = this.settings.itemTimeoutMs;
    if (ms <= 0) return;
    const timer = setTimeout(() => {
      this.timers.delete(index);
      if (this.stopped || !this.work.isOut(index, attempt)) return;
      this.end(index, attempt, { state: "timedOut", error: `timed out after ${ms / 1000} s` });
    }, ms);
    timer.unref();
    this.timers.set(index, timer);
  }

  private clearTimer(index: number): void {
    const timer = this.timers.get(index);
    if (timer) clearTimeout(timer);
    this.timers.delete(index);
  }

  private clearTimers(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }

  private async finish(header: BatchHeader): Promise<void> {
    this.clearTimers();
    this.notePace();
    const summary = { ...this.progressOf(header), endedAt: new Date(this.ports.now()).toISOString(), etaMs: 0, pacedPerMinute: null };
    if (this.progressTimer) clearTimeout(this.progressTimer);
    this.progressTimer = undefined;
    const announced = await this.work.finish(summary);
    this.follow(this.work.current());
    if (this.stopped) return;
    if (announced) this.ports.sendProgress("done", announced);
    this.showStatus();
    this.startNext();
  }

  private progressOf(header: BatchHeader): BatchProgress {
    const counts = this.work.counts();
    const workers = this.work.workers();
    const twice = this.work.workedTwice();
    const eta = batchEta(this.pace, this.apiPace, counts.running + counts.waiting, this.ports.now());
    return {
      id: header.id,
      total: header.total,
      ...counts,
      startedAt: header.startedAt,
      endedAt: null,
      etaMs: header.paused ? null : eta.etaMs,
      perMinute: Math.round(eta.perMinute * 10) / 10,
      pacedPerMinute: header.paused ? null : eta.pacedPerMinute,
      failures: this.work.failures().slice(),
      interruptions: this.work.interruptions().slice(),
      ...(twice ? { workedTwice: twice.slice() } : {}),
      queued: this.work.waiting().map((list) => list.id),
      ...(workers ? { workers: workers.map((figures) => ({ ...figures })) } : {}),
    };
  }

  /** The `done` of a list cancelled while it waited its turn: every item cancelled, none sent. */
  private cancelledSummary(id: string, total: number): BatchProgress {
    const at = new Date(this.ports.now()).toISOString();
    return {
      id,
      total,
      done: 0,
      failed: 0,
      timedOut: 0,
      interrupted: 0,
      cancelled: total,
      running: 0,
      waiting: 0,
      startedAt: at,
      endedAt: at,
      etaMs: 0,
      perMinute: 0,
      pacedPerMinute: null,
      failures: [],
      interruptions: [],
    };
  }

  /** A `progress` message saying why a command did nothing: the running batch's figures, else the last batch's, else none. */
  private sendNote(why: keyof typeof NOTES, command: BatchCommand, batchId: string | undefined): void {
    const header = this.work.current();
    const figures = header ? this.progressOf(header) : (this.work.last() ?? this.cancelledSummary("", 0));
    const note = this.ports.t(NOTES[why], { command, id: batchId ?? "" });
    this.ports.sendProgress("progress", { ...figures, note });
  }

  /** Output 2 and the status, at most once a second while items end. */
  private progressSoon(): void {
    if (this.progressTimer || this.stopped || !this.work.current()) return;
    const wait = this.lastProgressAt + PROGRESS_EVERY_MS - this.ports.now();
    if (wait <= 0) {
      this.sendProgress();
      return;
    }
    this.progressTimer = setTimeout(() => {
      this.progressTimer = undefined;
      if (!this.stopped && this.work.current()) this.sendProgress();
    }, wait);
    this.progressTimer.unref();
  }

  private sendProgress(): void {
    const header = this.work.current();
    const payload = header ? this.progressOf(header) : this.work.last();
    if (!payload) return;
    this.lastProgressAt = this.ports.now();
    this.ports.sendProgress("progress", payload);
    this.showStatus();
  }

  private showStatus(): void {
    if (this.stopped) return;
    const trouble = this.work.trouble();
    if (trouble?.waitingAt !== undefined) {
      this.ports.status({ fill: "yellow", shape: "ring", text: this.ports.t("morelogin-batch.status.waitingForRedis", { where: trouble.waitingAt }) });
      return;
    }
    if (trouble !== undefined) {
      const key = { login: "morelogin-batch.status.login", refused: "morelogin-batch.status.refused", unreachable: "morelogin-batch.status.unreachable" }[trouble.kind];
      const text = this.ports.t(key, { reason: trouble.reason });
      this.ports.status({ fill: "red", shape: "ring", text });
      return;
    }
    const header = this.work.current();
    const last = this.work.last();
    if (header) this.ports.status(statusOf(this.progressOf(header), header.paused, this.ports.t));
    else if (last) this.ports.status(statusOf(last, false, this.ports.t));
    else this.ports.status({});
  }
}

/** An item's failure as progress, the done summary and the control panel show it: a URL's token (a cloud browser's cdpUrl) masked. */
function errorText(error: unknown): string {
  if (typeof error === "string") return redactSecrets(error);
  const message = (error as { message?: unknown } | undefined)?.message;
  return typeof message === "string" ? redactSecrets(message) : "failed";
}
