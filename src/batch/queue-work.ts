import { randomUUID } from "node:crypto";
import { type Job, Queue, Worker } from "bullmq";
import { Redis } from "ioredis";
import { endedOf, NO_COUNTS, type LedgerCounts } from "./ledger";
import { batchKeys, PREFIX, queueNameOf, type BatchKeys } from "./queue/keys";
import {
  decodeCounts,
  decodeFailures,
  decodeHandovers,
  decodeHeader,
  decodeInterruptions,
  decodeItems,
  decodeListMeta,
  decodeSummary,
  decodeWorkerCounts,
  encodeEntry,
  encodeItems,
  encodeListMeta,
  encodeSummary,
  headerFlag,
  itemJob,
  startedHeaderArgs,
  type ItemJob,
  type ListMeta,
} from "./queue/redis-records";
import { DROP_WAITING, FINISH, RECORD_ENDING, START_NEXT } from "./queue/scripts";
import { itemIdOf } from "./items";
import { queueTimingOf, type QueueTiming } from "./queue-timing";
import type { BatchFailure, BatchHandover, BatchHeader, BatchInterruption, BatchProgress, QueuedList, WorkerFigures } from "./types";
import type { BatchWork, DroppedList, Ending, TakenItem, Trouble } from "./work";

/** Where the queue is and who this Node-RED is in it. */
export interface QueueWorkOptions {
  /** `redis://` or `rediss://` (TLS); a password belongs in `password`, not here. */
  url: string;
  username?: string;
  password?: string;
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

interface Held {
  job: Job<ItemJob>;
  token: string;
  attempt: number;
  /** Its lock lapsed while this Node-RED was unheard (said once). */
  lost?: boolean;
}

interface Mirror {
  header: BatchHeader | undefined;
  counts: LedgerCounts;
  failures: BatchFailure[];
  interruptions: BatchInterruption[];
  workedTwice: BatchHandover[];
  /** Every Node-RED with a share of the batch, those unheard for the worker timeout marked `gone`. */
  workers: WorkerFigures[];
  waiting: Array<Pick<QueuedList, "id" | "origin"> & { total: number }>;
  last: BatchProgress | undefined;
}

/** The mirror while no batch runs: only the lists waiting and the last summary. */
function noBatch(waiting: Mirror["waiting"], last: BatchProgress | undefined): Mirror {
  return { header: undefined, counts: NO_COUNTS, failures: [], interruptions: [], workedTwice: [], workers: [], waiting, last };
}
/** The records of a batch that ended stay this long (for a late `status`), then Redis drops them. */
const KEEP_ENDED_SECONDS = 7 * 24 * 3600;
/** Items added to BullMQ per call when a list starts. */
const ENQUEUE_CHUNK = 500;
/** Another Node-RED that starts adding a list's items holds this long before a second may try. */
const ENQUEUE_LOCK_MS = 120_000;
/** Refreshes from Redis at least this often (to see what no message announces: a dead worker's items), and at most this often on messages. */
const REFRESH_EVERY_MS = 1000;
const REFRESH_AT_MOST_EVERY_MS = 100;
const CLOSE_WAIT_MS = 2000;

/**
 * A batch worked by several Node-REDs through Redis: BullMQ holds the items to send (one job each, taken
 * by whichever Node-RED has a free place, locked while it is out, failed as stalled when that Node-RED is
 * gone), and a few records beside them (src/batch/queue/scripts.ts) hold the lists, the counts and the end.
 * What the runner reads is a mirror of Redis, refreshed on every change any Node-RED announces.
 */
export class QueueBatchWork implements BatchWork {
  private readonly keys: BatchKeys;
  private readonly held = new Map<number, Held>();
  private mirror: Mirror = noBatch([], undefined);
  private problem: Trouble | undefined;
  /** Redis answered once since this node started. */
  private reached = false;
  private closed = false;
  private refreshing: Promise<void> | undefined;
  private refreshAgain = false;
  private refreshTimer: NodeJS.Timeout | undefined;
  private lastRefreshAt = 0;
  /** What the runner would show of the mirror: a refresh that changes none of it does not wake the runner. */
  private get signature(): string {
    const { header, counts, workers, waiting, last, failures, interruptions, workedTwice } = this.mirror;
    return JSON.stringify([
      header?.id,
      header?.paused,
      header?.cancelled,
      counts,
      workers,
      waiting.map((list) => list.id),
      last?.id,
      failures.length,
      interruptions.length,
      workedTwice.length,
      this.held.size,
    ]);
  }
  private readonly timing: QueueTiming;
  /** When this Node-RED last renewed its presence in Redis. */
  private heardAt = Date.now();
  private readonly renewTimer: NodeJS.Timeout;
  private readonly pollTimer: NodeJS.Timeout;

  private constructor(
    private readonly options: QueueWorkOptions,
    private readonly client: Redis,
    private readonly subscriber: Redis,
    private readonly queue: Queue<ItemJob>,
    private readonly worker: Worker<ItemJob>,
  ) {
    this.keys = batchKeys(options.queue);
    this.timing = queueTimingOf(options.workerTimeoutMs);
    this.renewTimer = setInterval(() => void this.renew(), this.timing.renewEveryMs);
    this.renewTimer.unref();
    this.pollTimer = setInterval(() => this.refreshSoon(), REFRESH_EVERY_MS);
    this.pollTimer.unref();
  }

  /** Connects (in the background: Redis may come later) and starts following the queue. */
  static open(options: QueueWorkOptions): QueueBatchWork {
    const queueName = queueNameOf(options.queue);
    const client = connect(options);
    const subscriber = client.duplicate();
    const timing = queueTimingOf(options.workerTimeoutMs);
    const queue = new Queue<ItemJob>(queueName, { connection: client, prefix: PREFIX });
    const worker = new Worker<ItemJob>(queueName, null, {
      connection: client,
      prefix: PREFIX,
      name: options.worker,
      autorun: false,
      lockDuration: timing.lockMs,
      stalledInterval: timing.stalledCheckMs,
      maxStalledCount: options.resend ? 1 : 0,
    });
    const work = new QueueBatchWork({ ...options, queue: queueName }, client, subscriber, queue, worker);
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
    const meta: ListMeta = { id: list.id, total: list.items.length, origin: list.origin };
    await this.client
      .multi()
      .set(this.keys.list(list.id), encodeItems(list.items))
      .set(this.keys.meta(list.id), encodeListMeta(meta))
      .rpush(this.keys.waiting, list.id)
      .publish(this.keys.changed, "add")
      .exec()
      .catch(causeOf);
    this.mirror.waiting.push(meta);
  }

  async startNext(startedAt: string): Promise<BatchHeader | undefined> {
    const answer = (await this.client.eval(START_NEXT, 2, this.keys.current, this.keys.waiting, this.keys.prefix, ...startedHeaderArgs(startedAt))) as string | null;
    if (!answer) return undefined;
    if (answer.startsWith("started:")) {
      // A batch that ended while paused (its last items were out) left BullMQ's queue paused.
      await this.queue.resume();
      await this.client.publish(this.keys.changed, "start");
    }
    await this.refresh();
    return this.mirror.header;
  }

  async take(count: number): Promise<TakenItem[]> {
    const header = this.mirror.header;
    if (!header || header.paused || header.cancelled || this.problem || this.closed) return [];
    const taken: TakenItem[] = [];
    const handedOver: TakenItem[] = [];
    while (taken.length < count) {
      const token = randomUUID();
      const job = (await this.worker.getNextJob(token, { block: false })) as Job<ItemJob> | undefined;
      if (!job) break;
      const data = job.data;
      if (job.deferredFailure) {
        // Out on a Node-RED that was gone for workerTimeout (BullMQ's stalled job, past its limit): interrupted, not sent again.
        if (data.batch === header.id) {
          const worker = (await this.client.hget(this.keys.out(header.id), String(data.index))) ?? "";
          const interruption: BatchInterruption = { id: itemIdOf(data.item, data.index), attempt: data.attempt + Math.max(0, (job.stalledCounter ?? 1) - 1), ...(worker ? { worker } : {}) };
          await this.record(header.id, data.index, "interrupted", worker, encodeEntry(interruption));
        }
        await job.moveToCompleted(null, token, false).catch(() => undefined);
        await this.client.publish(this.keys.changed, "interrupted");
        continue;
      }
      if (data.batch !== header.id) {
        // A batch this node does not know yet (its mirror is behind): the job waits for it, or for another Node-RED.
        if ((await this.client.get(this.keys.current)) === data.batch) {
          await job.moveToWait(token).catch(() => undefined);
          this.refreshSoon();
          break;
        }
        await job.moveToCompleted(null, token, false).catch(() => undefined);
        continue;
      }
      const stale = this.held.has(data.index) || (await this.client.hexists(this.keys.ended(header.id), String(data.index))) === 1;
      if (stale) {
        await job.moveToCompleted(null, token, false).catch(() => undefined);
        continue;
      }
      const attempt = data.attempt + (job.stalledCounter ?? 0);
      this.held.set(data.index, { job, token, attempt });
      const item: TakenItem = { index: data.index, attempt, item: data.item };
      taken.push(item);
      if ((job.stalledCounter ?? 0) > 0) handedOver.push(item);
    }
    if (taken.length > 0) {
      await this.recordOut(header.id, taken, handedOver);
      this.shift(taken.length);
    }
    return taken;
  }

  /**
   * Which Node-RED has each item out, so that one that goes unheard can be named; an item that went out
   * before on a Node-RED unheard since (BullMQ's stalled job, sent again with `resend`) is recorded as
   * worked twice, from that one to this.
   */
  private async recordOut(batchId: string, taken: TakenItem[], handedOver: TakenItem[]): Promise<void> {
    const me = this.options.worker;
    const outKey = this.keys.out(batchId);
    const before = handedOver.length > 0 ? await this.client.hmget(outKey, ...handedOver.map((item) => String(item.index))) : [];
    const transaction = this.client.multi().hset(outKey, Object.fromEntries(taken.map((item) => [String(item.index), me])));
    handedOver.forEach((item, at) => {
      const from = before[at] ?? "";
      if (from === me) return;
      const handover: BatchHandover = { id: itemIdOf(item.item, item.index), attempt: item.attempt, from, to: me };
      transaction.rpush(this.keys.workedTwice(batchId), encodeEntry(handover));
    });
    await transaction.exec().catch(causeOf);
  }

  async settle(index: number, attempt: number, ending: Ending): Promise<void> {
    const held = this.held.get(index);
    const header = this.mirror.header;
    if (!held || held.attempt !== attempt || !header) return;
    this.held.delete(index);
    // The item leaves `running` and takes its place (waiting again, or ended) in one step: between two awaits the
    // runner may look, and an item in neither let it end the batch one item short (seen: done 11 of 12).
    if (ending.state === "retry") {
      this.leaveRunning();
      this.mirror.counts = { ...this.mirror.counts, waiting: this.mirror.counts.waiting + 1 };
      const next = itemJob({ ...held.job.data, attempt: attempt + 1 });
      await this.queue.add(next.name, next.data, next.opts);
    } else {
      const failure: BatchFailure | undefined = ending.state === "done" ? undefined : { id: itemIdOf(held.job.data.item, index), attempt, error: ending.error };
      const counted = await this.record(header.id, index, ending.state, this.options.worker, failure ? encodeEntry(failure) : "");
      this.leaveRunning();
      if (counted) this.countHere(ending.state, failure);
    }
    await held.job.moveToCompleted(null, held.token, false).catch(() => undefined);
    await this.client.publish(this.keys.changed, "settle");
  }

  async pause(paused: boolean): Promise<void> {
    const header = this.mirror.header;
    if (!header) return;
    await this.client.hset(this.keys.header(header.id), headerFlag("paused", paused));
    if (paused) await this.queue.pause();
    else await this.queue.resume();
    this.mirror.header = { ...header, paused };
    await this.client.publish(this.keys.changed, paused ? "pause" : "resume");
  }

  async cancelCurrent(): Promise<void> {
    const header = this.mirror.header;
    if (!header) return;
    await this.client.hset(this.keys.header(header.id), headerFlag("cancelled", true));
    await this.queue.drain();
    if (header.paused) await this.queue.resume();
    this.mirror.header = { ...header, cancelled: true };
    this.mirror.counts = cancelledCounts(this.mirror.counts);
    await this.client.publish(this.keys.changed, "cancel");
  }

  async dropWaiting(id?: string): Promise<DroppedList[]> {
    const candidates = this.mirror.waiting.filter((list) => id === undefined || list.id === id);
    if (candidates.length === 0) return [];
    const dropped = (await this.client.eval(DROP_WAITING, 1, this.keys.waiting, ...candidates.map((list) => list.id))) as string[];
    const lists = candidates.filter((list) => dropped.includes(list.id));
    if (lists.length > 0) {
      await this.client.del(...lists.flatMap((list) => [this.keys.list(list.id), this.keys.meta(list.id)]));
      await this.client.publish(this.keys.changed, "drop");
    }
    this.mirror.waiting = this.mirror.waiting.filter((list) => !dropped.includes(list.id));
    return lists.map((list) => ({ id: list.id, total: list.total }));
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
    const announced =
      (await this.client.eval(FINISH, 3, this.keys.current, this.keys.announced(header.id), this.keys.last, header.id, this.options.worker, encodeSummary(ended), String(KEEP_ENDED_SECONDS))) === 1;
    if (announced) {
      const id = header.id;
      await this.client
        .multi()
        .expire(this.keys.header(id), KEEP_ENDED_SECONDS)
        .expire(this.keys.ended(id), KEEP_ENDED_SECONDS)
        .expire(this.keys.counts(id), KEEP_ENDED_SECONDS)
        .expire(this.keys.workersDone(id), KEEP_ENDED_SECONDS)
        .expire(this.keys.workersFailed(id), KEEP_ENDED_SECONDS)
        .expire(this.keys.failures(id), KEEP_ENDED_SECONDS)
        .expire(this.keys.interruptions(id), KEEP_ENDED_SECONDS)
        .expire(this.keys.workedTwice(id), KEEP_ENDED_SECONDS)
        .del(this.keys.list(id), this.keys.meta(id), this.keys.out(id))
        .publish(this.keys.changed, "end")
        .exec()
        .catch(causeOf);
      await this.queue.clean(0, 0, "failed").catch(() => undefined);
    }
    await this.refresh();
    return announced ? ended : undefined;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.renewTimer);
    clearInterval(this.pollTimer);
    if (this.refreshTimer) clearTimeout(this.refreshTimer);
    // Stopped on purpose: it leaves `workers` now, not after the worker timeout.
    const leave = this.client.status === "ready" ? this.client.del(this.keys.alive(this.options.worker)).catch(() => undefined) : Promise.resolve();
    const quit = leave.then(() => Promise.allSettled([this.worker.close(true), this.queue.close(), this.subscriber.quit(), this.client.quit()]));
    const timer = new Promise<void>((resolve) => setTimeout(resolve, CLOSE_WAIT_MS).unref());
    await Promise.race([quit, timer]);
    this.subscriber.disconnect();
    this.client.disconnect();
  }

  /** The batch stays in Redis for the other Node-REDs: deleting the node here only lets go of it. */
  remove(): Promise<void> {
    return this.close();
  }

  private listen(): void {
    const trouble = (error: Error): void => {
      const next = troubleOf(error);
      if (next.kind === "refused") {
        this.refusedBy(error);
        return;
      }
      // BullMQ's own errors while the connection is up (a lock lost) are not the store going away.
      if (next.kind === "unreachable" && this.client.status === "ready" && this.subscriber.status === "ready") return;
      if (next.kind === "unreachable" && !this.reached && this.options.where) next.waitingAt = this.options.where;
      if (this.problem?.kind === next.kind && this.problem.reason === next.reason) return;
      this.problem = next;
      this.options.onChange();
    };
    this.client.on("error", trouble);
    this.subscriber.on("error", trouble);
    this.queue.on("error", trouble);
    this.worker.on("error", trouble);
    this.client.on("ready", () => {
      this.reached = true;
      if (this.problem) {
        this.problem = undefined;
        this.options.onChange();
      }
      void this.renew();
      this.refreshSoon();
    });
    this.subscriber.on("message", () => this.refreshSoon());
    this.subscriber.subscribe(this.keys.changed).catch(() => undefined);
    this.worker.startStalledCheckTimer().catch(() => undefined);
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
      const before = this.signature;
      this.refresh()
        .then(() => {
          const refused = this.problem?.kind === "refused";
          if (refused) this.problem = undefined;
          if (refused || this.signature !== before) this.options.onChange();
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
    const reading = await this.read();
    if (reading.enqueuePending !== undefined) await this.enqueue(reading.enqueuePending);
    this.mirror = reading.mirror;
  }

  /** The running batch, the lists waiting and the last summary as Redis holds them. It writes nothing. */
  private async read(): Promise<{ mirror: Mirror; enqueuePending: string | undefined }> {
    const [current, waitingIds, lastJson] = repliesOf(await this.client.multi().get(this.keys.current).lrange(this.keys.waiting, 0, -1).get(this.keys.last).exec().catch(causeOf)) as [
      string | null,
      string[],
      string | null,
    ];
    const metas = waitingIds.length > 0 ? await this.client.mget(...waitingIds.map((id) => this.keys.meta(id))) : [];
    const waiting = metas.flatMap((json, at) => (json ? [decodeListMeta(this.keys.meta(waitingIds[at] ?? ""), json)] : []));
    const last = lastJson ? decodeSummary(this.keys.last, lastJson) : undefined;
    if (!current) return { mirror: noBatch(waiting, last), enqueuePending: undefined };
    const [header, counts, workersDone, workersFailed, failures, interruptions, workedTwice] = repliesOf(
      await this.client
        .multi()
        .hgetall(this.keys.header(current))
        .hgetall(this.keys.counts(current))
        .hgetall(this.keys.workersDone(current))
        .hgetall(this.keys.workersFailed(current))
        .lrange(this.keys.failures(current), 0, -1)
        .lrange(this.keys.interruptions(current), 0, -1)
        .lrange(this.keys.workedTwice(current), 0, -1)
        .exec()
        .catch(causeOf),
    ) as [Record<string, string>, Record<string, string>, Record<string, string>, Record<string, string>, string[], string[], string[]];
    const stored = decodeHeader(this.keys.header(current), current, header);
    if (!stored) return { mirror: noBatch(waiting, last), enqueuePending: undefined };
    const batch = stored.batch;
    const active = (await this.queue.getActive()).filter((job) => (job.data as ItemJob | undefined)?.batch === current);
    const ended = decodeCounts(this.keys.counts(current), counts);
    const endedSum = endedOf(ended);
    const running = active.length;
    const figures: LedgerCounts = batch.cancelled
      ? { ...ended, running, waiting: 0, cancelled: Math.max(0, batch.total - endedSum - running) }
      : { ...ended, running, waiting: Math.max(0, batch.total - endedSum - running), cancelled: 0 };
    const workers = workersOf(decodeWorkerCounts(this.keys.workersDone(current), workersDone), decodeWorkerCounts(this.keys.workersFailed(current), workersFailed), active);
    const present = workers.length > 0 ? await this.client.mget(...workers.map((figures) => this.keys.alive(figures.name))) : [];
    const mirror: Mirror = {
      header: batch,
      counts: figures,
      failures: decodeFailures(this.keys.failures(current), failures),
      interruptions: decodeInterruptions(this.keys.interruptions(current), interruptions),
      workedTwice: decodeHandovers(this.keys.workedTwice(current), workedTwice),
      workers: workers.map((figures, at) => (present[at] === null && figures.name !== this.options.worker ? { ...figures, gone: true } : figures)),
      waiting,
      last,
    };
    return { mirror, enqueuePending: stored.enqueued ? undefined : current };
  }

  /** A list that became the running batch: its items go into BullMQ (once: one Node-RED at a time, job IDs fixed). */
  private async enqueue(id: string): Promise<void> {
    const locked = await this.client.set(this.keys.enqueuing(id), this.options.worker, "PX", ENQUEUE_LOCK_MS, "NX");
    if (locked !== "OK") return;
    const json = await this.client.get(this.keys.list(id));
    const items = json ? decodeItems(this.keys.list(id), json) : [];
    for (let start = 0; start < items.length; start += ENQUEUE_CHUNK) {
      const chunk = items.slice(start, start + ENQUEUE_CHUNK).map((item, offset) => itemJob({ batch: id, index: start + offset, attempt: 1, item }));
      await this.queue.addBulk(chunk);
    }
    await this.client.multi().hset(this.keys.header(id), headerFlag("enqueued", true)).del(this.keys.enqueuing(id)).publish(this.keys.changed, "enqueued").exec().catch(causeOf);
  }

  private async record(batchId: string, index: number, state: string, worker: string, failure: string): Promise<boolean> {
    const keys = [this.keys.ended(batchId), this.keys.counts(batchId), this.keys.workersDone(batchId), this.keys.workersFailed(batchId), this.keys.failures(batchId), this.keys.interruptions(batchId)];
    return (await this.client.eval(RECORD_ENDING, keys.length, ...keys, String(index), state, worker, failure)) === 1;
  }

  /** Items this node took: from waiting to running in the mirror until the next refresh reads them. */
  private shift(count: number): void {
    const counts = this.mirror.counts;
    // Not in this worker's figures: the next refresh adds them, and that change wakes the runner to show them.
    this.mirror.counts = { ...counts, running: counts.running + count, waiting: Math.max(0, counts.waiting - count) };
  }

  /** One item of this Node-RED's is no longer out. */
  private leaveRunning(): void {
    this.mirror.counts = { ...this.mirror.counts, running: Math.max(0, this.mirror.counts.running - 1) };
    this.countWorker({ running: -1 });
  }

  private countHere(state: Exclude<Ending["state"], "retry">, failure: BatchFailure | undefined): void {
    const counts = { ...this.mirror.counts };
    counts[state] += 1;
    this.mirror.counts = counts;
    this.countWorker(state === "done" ? { done: 1 } : { failed: 1 });
    if (failure) this.mirror.failures = [...this.mirror.failures, failure];
  }

  /**
   * This Node-RED's own figures in the mirror's `workers`, changed with the counts until the next refresh
   * reads them: the summary a batch ends with must add up, workers and counts alike.
   */
  private countWorker(change: Partial<Record<"running" | "done" | "failed", number>>): void {
    const name = this.options.worker;
    const workers = this.mirror.workers.some((figures) => figures.name === name) ? this.mirror.workers : [...this.mirror.workers, { name, running: 0, done: 0, failed: 0 }];
    this.mirror.workers = workers
      .map((figures) =>
        figures.name === name
          ? {
              ...figures,
              running: Math.max(0, figures.running + (change.running ?? 0)),
              done: figures.done + (change.done ?? 0),
              failed: figures.failed + (change.failed ?? 0),
            }
          : figures,
      )
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  /**
   * This Node-RED is heard from: its presence and the locks of its items out are renewed. Items whose
   * locks lapsed while it was unheard (a pause, a starved CPU) have moved on: said once, not stopped.
   */
  private async renew(): Promise<void> {
    if (this.closed || this.client.status !== "ready") return;
    const unheardMs = Date.now() - this.heardAt;
    try {
      await this.client.set(this.keys.alive(this.options.worker), String(Date.now()), "PX", this.timing.presenceMs);
      const held = [...this.held.values()].filter((entry) => !entry.lost);
      const lapsed =
        held.length === 0
          ? []
          : await this.worker.extendJobLocks(
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

function connect(options: QueueWorkOptions): Redis {
  const secure = options.url.startsWith("rediss:");
  return new Redis(options.url, {
    username: options.username || undefined,
    password: options.password || undefined,
    maxRetriesPerRequest: null,
    retryStrategy: (times) => Math.min(200 * times, 2000),
    ...(secure ? { tls: {} } : {}),
  });
}

/** What went wrong with Redis, in a word (an error code, or Redis's own first word), never the message: it can name the address. */
function troubleOf(error: Error & { code?: unknown }): Trouble {
  const word = typeof error.code === "string" ? error.code : (/^[A-Z][A-Z_]+/.exec(error.message)?.[0] ?? error.name);
  if (LOGIN_REFUSED.has(word)) return { kind: "login", reason: word };
  return { kind: error.name === "ReplyError" && COMMAND_REFUSED.has(word) ? "refused" : "unreachable", reason: word };
}

/** Redis's answers to a login it refuses, and to commands it refuses whoever sends them (rights, memory, a replica, a failed save). */
const LOGIN_REFUSED = new Set(["WRONGPASS", "NOAUTH"]);
const COMMAND_REFUSED = new Set(["NOPERM", "OOM", "READONLY", "MISCONF"]);

/** A MULTI that Redis discarded (EXECABORT) fails with the error that made it discard it (NOPERM, OOM). */
function causeOf(error: Error & { previousErrors?: Error[] }): never {
  throw error.previousErrors?.[0] ?? error;
}

/** The replies of a MULTI, or its first error (a reply of null: the transaction did not run). */
function repliesOf(replies: Array<[Error | null, unknown]> | null): unknown[] {
  if (!replies) throw new Error("the Redis transaction was aborted");
  return replies.map(([error, value]) => {
    if (error) throw error;
    return value;
  });
}

function cancelledCounts(counts: LedgerCounts): LedgerCounts {
  return { ...counts, cancelled: counts.cancelled + counts.waiting, waiting: 0 };
}

function workersOf(done: ReadonlyMap<string, number>, failed: ReadonlyMap<string, number>, active: Job[]): WorkerFigures[] {
  const names = new Set<string>([...done.keys(), ...failed.keys(), ...active.flatMap((job) => (job.processedBy ? [job.processedBy] : []))]);
  names.delete("");
  return [...names].sort().map((name) => ({
    name,
    running: active.filter((job) => job.processedBy === name).length,
    done: done.get(name) ?? 0,
    failed: failed.get(name) ?? 0,
  }));
}
