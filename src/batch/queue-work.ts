import type { LedgerCounts } from "./ledger";
import { addList, announce, claimEnd, dropWaitingLists, enqueueItems, recordEnding, requeue, setCancelled, setPaused, startNextList } from "./queue/bookkeeping";
import { closeLink, openLink, type QueueLink, type RedisLogin } from "./queue/connection";
import { batchKeys, queueNameOf } from "./queue/keys";
import { markCancelled, markEnded, markRetried, markTaken, noBatch, signatureOf, type Mirror } from "./queue/mirror";
import { readQueue } from "./queue/reading";
import { troubleOf } from "./queue/redis-errors";
import { encodeEntry } from "./queue/redis-records";
import { takeItems, type Held } from "./queue/taking";
import { itemIdOf } from "./items";
import { queueTimingOf, type QueueTiming } from "./queue-timing";
import type { BatchFailure, BatchHandover, BatchHeader, BatchInterruption, BatchProgress, QueuedList, WorkerFigures } from "./types";
import type { BatchWork, DroppedList, Ending, TakenItem, Trouble } from "./work";

/** Where the queue is and who this Node-RED is in it. */
export interface QueueWorkOptions extends RedisLogin {
  /** The queue's name: the batch node's name, else its ID (the same on every Node-RED that shares it). */
  queue: string;
  /** This Node-RED's name in the batch's `workers`. */
  worker: string;
  /** Where the Redis is, host:port/db (never the user or password), for the status while none was reached yet. */
  where?: string;
  /** A Node-RED not heard from for this long is gone: its items out are interrupted (or, with `resend`, sent again once). */
  workerTimeoutMs: number;
  resend: boolean;
  /** The batch changed where this node did not change it, or the store came or went. */
  onChange(): void;
  /** This Node-RED was unheard for the worker timeout (paused, starved) and its items out moved on without it. */
  onLost?(lost: LostItems): void;
}

/** Items this Node-RED still has out whose locks lapsed while it was unheard: another Node-RED took them, or they were counted interrupted. */
export interface LostItems {
  batch: string;
  ids: string[];
  /** How long this Node-RED had been unheard when it found out. */
  unheardMs: number;
}

/** Refreshes from Redis at least this often (to see what no message announces: a dead worker's items), and at most this often on messages. */
const REFRESH_EVERY_MS = 1000;
const REFRESH_AT_MOST_EVERY_MS = 100;
/** Reads of Redis one refresh makes at most while this Node-RED keeps changing what it read. */
const FOLLOW_READS = 3;

/**
 * A batch worked by several Node-REDs through Redis: BullMQ holds the items to send (one job each, taken
 * by whichever Node-RED has a free place, locked while it is out, handed back as stalled when that
 * Node-RED is gone), and a few records beside them (src/batch/queue/) hold the lists, the counts and the
 * end. What the runner reads is a mirror of Redis, refreshed on every change any Node-RED announces.
 */
export class QueueBatchWork implements BatchWork {
  private readonly held = new Map<number, Held>();
  private mirror: Mirror = noBatch([], undefined);
  private problem: Trouble | undefined;
  /** Redis answered once since this node started. */
  private reached = false;
  private closed = false;
  private refreshing: Promise<void> | undefined;
  private refreshAgain = false;
  /** Counts the lists and headers this Node-RED changes, once as it starts writing and once when its mirror has the change (see follow). */
  private localChanges = 0;
  private refreshTimer: NodeJS.Timeout | undefined;
  private lastRefreshAt = 0;
  /** When this Node-RED last renewed its presence in Redis. */
  private heardAt = Date.now();
  private readonly renewTimer: NodeJS.Timeout;
  private readonly pollTimer: NodeJS.Timeout;

  private constructor(
    private readonly options: QueueWorkOptions,
    private readonly link: QueueLink,
    private readonly timing: QueueTiming,
  ) {
    this.renewTimer = setInterval(() => void this.renew(), this.timing.renewEveryMs);
    this.renewTimer.unref();
    this.pollTimer = setInterval(() => this.refreshSoon(), REFRESH_EVERY_MS);
    this.pollTimer.unref();
  }

  /** Connects (in the background: Redis may come later) and starts following the queue. */
  static open(options: QueueWorkOptions): QueueBatchWork {
    const queueName = queueNameOf(options.queue);
    const timing = queueTimingOf(options.workerTimeoutMs);
    const link = openLink(options, queueName, batchKeys(queueName), options.worker, options.resend, timing);
    const work = new QueueBatchWork({ ...options, queue: queueName }, link, timing);
    work.listen();
    return work;
  }

  current(): BatchHeader | undefined {
    return this.mirror.header;
  }

  waiting(): readonly Pick<QueuedList, "id" | "origin">[] {
    return this.mirror.waiting;
  }

  last(): BatchProgress | undefined {
    return this.mirror.last;
  }

  counts(): LedgerCounts {
    return this.mirror.counts;
  }

  runningHere(): number {
    return this.held.size;
  }

  /** The Node-REDs at work: one unheard for the worker timeout has left. */
  workers(): readonly WorkerFigures[] {
    return this.mirror.workers.filter((figures) => !figures.gone);
  }

  trouble(): Trouble | undefined {
    return this.problem;
  }

  failures(): readonly BatchFailure[] {
    return this.mirror.failures;
  }

  interruptions(): readonly BatchInterruption[] {
    return this.mirror.interruptions;
  }

  workedTwice(): readonly BatchHandover[] {
    return this.mirror.workedTwice;
  }

  isOut(index: number, attempt: number): boolean {
    return this.held.get(index)?.attempt === attempt;
  }

  async add(list: QueuedList): Promise<void> {
    this.localChanges++;
    const added = await addList(this.link, list);
    // After the await: a refresh meanwhile may have replaced the mirror, and may have read the list already.
    if (!this.mirror.waiting.some((waiting) => waiting.id === added.id)) this.mirror.waiting.push(added);
    this.localChanges++;
  }

  async startNext(startedAt: string): Promise<BatchHeader | undefined> {
    if (!(await startNextList(this.link, startedAt))) return undefined;
    await this.refresh();
    return this.mirror.header;
  }

  async take(count: number): Promise<TakenItem[]> {
    const header = this.mirror.header;
    if (!header || header.paused || header.cancelled || this.problem || this.closed) return [];
    const taken = await takeItems(this.link, header, count, this.held, () => this.refreshSoon());
    if (taken.length > 0) markTaken(this.mirror, taken.length);
    return taken;
  }

  async settle(index: number, attempt: number, ending: Ending): Promise<void> {
    const held = this.held.get(index);
    const header = this.mirror.header;
    if (!held || held.attempt !== attempt || !header) return;
    this.held.delete(index);
    // The item leaves `running` and takes its place (waiting again, or ended) in one step: between two awaits
    // the runner may look, and an item in neither lets it end the batch one item short.
    const me = this.options.worker;
    if (ending.state === "retry") {
      markRetried(this.mirror, me);
      await requeue(this.link, { ...held.job.data, attempt: attempt + 1 });
    } else {
      const failure: BatchFailure | undefined = ending.state === "done" ? undefined : { id: itemIdOf(held.job.data.item, index), attempt, error: ending.error };
      const counted = await recordEnding(this.link, header.id, index, ending.state, me, failure ? encodeEntry(failure) : "");
      markEnded(this.mirror, me, ending.state, failure, counted);
    }
    await held.job.moveToCompleted(null, held.token, false).catch(() => undefined);
    await announce(this.link, "settle");
  }

  async pause(paused: boolean): Promise<void> {
    const header = this.mirror.header;
    if (!header) return;
    this.localChanges++;
    await setPaused(this.link, header.id, paused);
    this.mirror.header = { ...header, paused };
    this.localChanges++;
    await announce(this.link, paused ? "pause" : "resume");
  }

  async cancelCurrent(): Promise<void> {
    const header = this.mirror.header;
    if (!header) return;
    this.localChanges++;
    await setCancelled(this.link, header.id, header.paused);
    markCancelled(this.mirror, header);
    this.localChanges++;
    await announce(this.link, "cancel");
  }

  async dropWaiting(id?: string): Promise<DroppedList[]> {
    const candidates = this.mirror.waiting.filter((list) => id === undefined || list.id === id);
    if (candidates.length === 0) return [];
    this.localChanges++;
    const dropped = await dropWaitingLists(
      this.link,
      candidates.map((list) => list.id),
    );
    this.mirror.waiting = this.mirror.waiting.filter((list) => !dropped.includes(list.id));
    this.localChanges++;
    return candidates.filter((list) => dropped.includes(list.id)).map((list) => ({ id: list.id, total: list.total }));
  }

  async finish(summary: BatchProgress): Promise<BatchProgress | undefined> {
    await this.refresh();
    const header = this.mirror.header;
    const counts = this.mirror.counts;
    if (!header || header.id !== summary.id || counts.running > 0 || (counts.waiting > 0 && !header.cancelled)) return undefined;
    const ended: BatchProgress = {
      ...summary,
      ...counts,
      failures: this.mirror.failures.slice(),
      interruptions: this.mirror.interruptions.slice(),
      workedTwice: this.mirror.workedTwice.slice(),
      workers: this.mirror.workers.map((figures) => ({ ...figures })),
    };
    const announced = await claimEnd(this.link, header.id, ended);
    await this.refresh();
    return announced ? ended : undefined;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.renewTimer);
    clearInterval(this.pollTimer);
    if (this.refreshTimer) clearTimeout(this.refreshTimer);
    const { client, keys } = this.link;
    // Stopped on purpose: it leaves `workers` now, not after the worker timeout.
    const leaving = client.status === "ready" ? client.del(keys.alive(this.options.worker)).catch(() => undefined) : Promise.resolve();
    await closeLink(this.link, leaving);
  }

  /** The batch stays in Redis for the other Node-REDs: deleting the node here only lets go of it. */
  remove(): Promise<void> {
    return this.close();
  }

  private listen(): void {
    const { client, subscriber, queue, worker, keys } = this.link;
    const trouble = (error: Error): void => {
      const next = troubleOf(error);
      if (next.kind === "refused") {
        this.refusedBy(error);
        return;
      }
      // BullMQ's own errors while the connection is up (a lock lost) are not the store going away.
      if (next.kind === "unreachable" && client.status === "ready" && subscriber.status === "ready") return;
      if (next.kind === "unreachable" && !this.reached && this.options.where) next.waitingAt = this.options.where;
      if (this.problem?.kind === next.kind && this.problem.reason === next.reason) return;
      this.problem = next;
      this.options.onChange();
    };
    client.on("error", trouble);
    subscriber.on("error", trouble);
    queue.on("error", trouble);
    worker.on("error", trouble);
    client.on("ready", () => {
      this.reached = true;
      if (this.problem) {
        this.problem = undefined;
        this.options.onChange();
      }
      void this.renew();
      this.refreshSoon();
    });
    subscriber.on("message", () => this.refreshSoon());
    subscriber.subscribe(keys.changed).catch(() => undefined);
    worker.startStalledCheckTimer().catch(() => undefined);
    this.refreshSoon();
  }

  /** Redis answered a command with an error while connected (an ACL without the rights, a full memory): the status says so until a refresh works. */
  private refusedBy(error: unknown): void {
    if (this.closed || !(error instanceof Error)) return;
    const next = troubleOf(error);
    if (next.kind !== "refused") return;
    if (this.problem?.kind === next.kind && this.problem.reason === next.reason) return;
    this.problem = next;
    this.options.onChange();
  }

  /** Refreshes soon, at most every REFRESH_AT_MOST_EVERY_MS, one at a time; tells the runner when done. */
  private refreshSoon(): void {
    if (this.closed || this.refreshTimer) return;
    if (this.refreshing) {
      this.refreshAgain = true;
      return;
    }
    const wait = Math.max(0, this.lastRefreshAt + REFRESH_AT_MOST_EVERY_MS - Date.now());
    this.refreshTimer = setTimeout(() => {
      this.refreshTimer = undefined;
      const before = signatureOf(this.mirror, this.held.size);
      this.refresh()
        .then(() => {
          const refused = this.problem?.kind === "refused";
          if (refused) this.problem = undefined;
          if (refused || signatureOf(this.mirror, this.held.size) !== before) this.options.onChange();
        })
        .catch((error: unknown) => this.refusedBy(error));
    }, wait);
    this.refreshTimer.unref();
  }

  /** Brings the mirror up to Redis: one refresh at a time. */
  private async refresh(): Promise<void> {
    while (this.refreshing) await this.refreshing;
    this.refreshing = this.follow();
    try {
      await this.refreshing;
      this.forgetHeldOfEndedBatches();
    } finally {
      this.refreshing = undefined;
      this.lastRefreshAt = Date.now();
      if (this.refreshAgain) {
        this.refreshAgain = false;
        this.refreshSoon();
      }
    }
  }

  /**
   * Reads Redis into the mirror. A running batch whose items are not in BullMQ yet gets them from this
   * Node-RED if none is adding them (the one that started it may have died doing so).
   */
  private async follow(): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      const changes = this.localChanges;
      const reading = await readQueue(this.link);
      if (reading.enqueuePending !== undefined) await enqueueItems(this.link, reading.enqueuePending);
      // A change this Node-RED wrote while Redis was being read (a list added or dropped, a pause, a
      // cancel) may be missing from what was read; taken as it is, the mirror would lose it until the next
      // refresh, and a cancel by the list's ID meanwhile would find nothing. Read again, from after it.
      // Items taken and settled need not: each announces itself, and the refresh that brings follows.
      if (this.localChanges === changes || attempt === FOLLOW_READS) {
        this.mirror = reading.mirror;
        return;
      }
    }
  }

  /**
   * This Node-RED is heard from: its presence and the locks of its items out are renewed. Items whose
   * locks lapsed while it was unheard (a pause, a starved CPU) have moved on: said once, not stopped.
   */
  private async renew(): Promise<void> {
    const { client, keys, worker } = this.link;
    if (this.closed || client.status !== "ready") return;
    const unheardMs = Date.now() - this.heardAt;
    try {
      await client.set(keys.alive(this.options.worker), String(Date.now()), "PX", this.timing.presenceMs);
      const held = [...this.held.values()].filter((entry) => !entry.lost);
      const lapsed =
        held.length === 0
          ? []
          : await worker.extendJobLocks(
              held.map((entry) => entry.job.id ?? ""),
              held.map((entry) => entry.token),
              this.timing.lockMs,
            );
      this.heardAt = Date.now();
      if (lapsed.length > 0)
        this.sayLost(
          held.filter((entry) => lapsed.includes(entry.job.id ?? "")),
          unheardMs,
        );
    } catch {
      // Redis is away: the status says so (listen); the next renewal tries again.
    }
  }

  private sayLost(entries: Held[], unheardMs: number): void {
    for (const entry of entries) entry.lost = true;
    const batch = entries[0]?.job.data.batch;
    if (batch === undefined || !this.options.onLost) return;
    this.options.onLost({ batch, ids: entries.map((entry) => itemIdOf(entry.job.data.item, entry.job.data.index)), unheardMs });
    this.refreshSoon();
  }

  /** Items out here of a batch that has ended (on every Node-RED, while this one was unheard) no longer take a place. */
  private forgetHeldOfEndedBatches(): void {
    const current = this.mirror.header?.id;
    for (const [index, entry] of this.held) if (entry.job.data.batch !== current) this.held.delete(index);
  }
}
