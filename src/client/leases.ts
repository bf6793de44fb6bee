import type { CapacityKind, CapacityRole } from "./capacity";
import type { ApiName } from "./types";

/** What a config node started and still holds: a profile, a cloud phone or a cloud browser, with its lease if it has one. */
export interface LeaseRecord {
  kind: CapacityKind;
  id: string;
  /** The API the start (power-on) went to: the close goes there too. */
  api: ApiName;
  /** When it was started (ms since 1970): a read of the running set from before then does not count. */
  since: number;
  /**
   * The start's debug port: the session the entry belongs to. A profile found running on another port
   * was closed and started again elsewhere, and is not this entry's to close. Absent for phones and
   * cloud browsers (their start replies name no session) and for entries kept by 0.4.
   */
  port?: string;
  /** When the lease runs out (ms since 1970); absent: started without a lease. */
  until?: number;
  /** The lease as it was given, for the warning that names it. */
  seconds?: number;
  /** The node that started it, told when its lease closed it. */
  owner?: string;
}

/** Where the records outlive the process: the config node's context. */
export interface LeaseStore {
  load(): Promise<readonly LeaseRecord[] | undefined>;
  save(records: readonly LeaseRecord[]): Promise<void>;
}

/** How a lease ended on its own: closed by the config node (`closed`), or found stopped by someone else. */
export interface LeaseEnd {
  record: LeaseRecord;
  closed: boolean;
  /** Set when the close failed; it is tried again. */
  error?: unknown;
}

/** What the book asks of the client: does the entry's session still run (news from after `since`), and close it. */
export interface LeaseActions {
  isRunning(record: LeaseRecord, since: number): Promise<boolean>;
  close(kind: CapacityKind, id: string, api: ApiName): Promise<unknown>;
}

/** A close that failed (the client was down) is tried again after this. */
export const LEASE_RETRY_MS = 5_000;
/** Timers are set at most this far ahead (Node's timers take at most about 24 days). */
const LONGEST_TIMER_MS = 3_600_000;

const keyOf = (kind: CapacityKind, id: string): string => `${kind}:${id}`;

/**
 * The config node's book of what it started: every successful start (power-on, restart) through its
 * client is entered, every close (power-off, close-all, delete) through it is struck out. A lease
 * gives an entry a deadline; when the deadline passes and the profile still runs (the phone is still
 * on) the book closes it, once, through the client (so through pacing, and freeing its place under
 * the caps). A read that shows it stopped by someone else strikes it out without sending anything.
 */
export class LeaseBook {
  private readonly records = new Map<string, LeaseRecord>();
  /** Entries whose deadline passed and whose close is under way, with when to try again after a failure. */
  private readonly closing = new Set<string>();
  private readonly retryAt = new Map<string, number>();
  private readonly listeners = new Set<(end: LeaseEnd) => void>();
  private readonly deleteListeners = new Set<(ended: readonly LeaseRecord[]) => void>();
  private timer: NodeJS.Timeout | undefined;
  private store: LeaseStore | undefined;
  private saveFailed: ((error: unknown) => void) | undefined;
  private attached: Promise<void> = Promise.resolve();
  private saving: Promise<void> = Promise.resolve();
  /** A save is queued and has not begun: it will take the book as it is then, so no other is needed. */
  private saveQueued = false;

  constructor(
    private readonly actions: LeaseActions,
    private readonly closed: AbortSignal,
    private readonly now: () => number = Date.now,
  ) {
    closed.addEventListener("abort", () => this.stopTimer(), { once: true });
  }

  /**
   * Keeps the book in `store` from now on, after taking in what it held (what ran out meanwhile closes
   * soon). A store that cannot be read is still written from now on, and the error thrown; a save that
   * fails is told to `saveFailed`.
   */
  attach(store: LeaseStore, saveFailed?: (error: unknown) => void): Promise<void> {
    this.attached = this.takeIn(store, saveFailed);
    return this.attached;
  }

  private async takeIn(store: LeaseStore, saveFailed: ((error: unknown) => void) | undefined): Promise<void> {
    let saved: readonly LeaseRecord[] | undefined;
    let failure: { error: unknown } | undefined;
    try {
      saved = await store.load();
    } catch (error) {
      failure = { error };
    }
    for (const record of saved ?? []) {
      if (!isRecord(record)) continue;
      const key = keyOf(record.kind, record.id);
      if (!this.records.has(key)) this.records.set(key, { ...record });
    }
    this.store = store;
    this.saveFailed = saveFailed;
    this.persist();
    this.schedule();
    if (failure) throw failure.error;
  }

  /** Told when a lease ends on its own (the start node warns, the config node logs). */
  onEnd(listener: (end: LeaseEnd) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * A start, close or power call went through the client: enter or strike out what it acted on. A start
   * enters a new session (its debug port, `port`) without a lease: a lease held from an earlier start
   * ends here, and `grant` gives the new one, if any.
   */
  noted(role: CapacityRole, api: ApiName, id: string, port?: string): void {
    if (role.effect === "take") {
      const key = keyOf(role.kind, id);
      this.records.set(key, { kind: role.kind, id, api, since: this.now(), ...(port ? { port } : {}) });
      this.closing.delete(key);
      this.retryAt.delete(key);
    } else if (role.effect === "free") this.forget(role.kind, [id]);
    else
      this.forget(
        role.kind,
        [...this.records.values()].filter((record) => record.kind === role.kind).map((record) => record.id),
      );
    this.persist();
    this.schedule();
  }

  /**
   * Told when a delete through the client ends leases, with the entries it ended that a node holds (so
   * that node can say how many it still holds).
   */
  onDeleted(listener: (ended: readonly LeaseRecord[]) => void): () => void {
    this.deleteListeners.add(listener);
    return () => this.deleteListeners.delete(listener);
  }

  /** Profiles (phones) deleted through the client: they no longer run, and their leases end as a close's do. */
  deleted(kind: CapacityKind, ids: readonly string[]): void {
    const ended = [...new Set(ids)].map((id) => this.records.get(keyOf(kind, id))).filter((record): record is LeaseRecord => record?.owner !== undefined && record.until !== undefined);
    if (!this.forget(kind, ids)) return;
    this.persist();
    this.schedule();
    if (ended.length === 0) return;
    for (const listener of this.deleteListeners) {
      try {
        listener(ended);
      } catch {
        // A listener's failure is its own: the book goes on.
      }
    }
  }

  /**
   * Gives a started profile (phone) a lease of `seconds` from now; a start of one that already has a
   * lease renews it. Returns the deadline (ms since 1970).
   */
  grant(kind: CapacityKind, id: string, api: ApiName, seconds: number, owner?: string): number {
    const key = keyOf(kind, id);
    const until = this.now() + seconds * 1000;
    const held = this.records.get(key);
    this.records.set(key, { kind, id, api, since: held?.since ?? this.now(), ...(held?.port ? { port: held.port } : {}), until, seconds, owner });
    this.closing.delete(key);
    this.retryAt.delete(key);
    this.persist();
    this.schedule();
    return until;
  }

  /**
   * A read of the running profiles (ID to debug port): what was started before it and is not in it
   * stopped elsewhere; what runs on another port than its start's was started again elsewhere.
   */
  sawRunning(kind: CapacityKind, running: ReadonlyMap<string, string>, readAt: number): void {
    const gone = [...this.records.values()].filter((record) => record.kind === kind && record.since < readAt && !runsSession(record, running) && !this.closing.has(keyOf(kind, record.id)));
    if (gone.length === 0) return;
    this.forget(
      kind,
      gone.map((record) => record.id),
    );
    this.persist();
    this.schedule();
  }

  /** What the book holds now (closeOnStop closes these). */
  entries(): LeaseRecord[] {
    return [...this.records.values()].map((record) => ({ ...record }));
  }

  /** What the book holds now by kind, for metrics: started and still running, and those of them with a lease. */
  counts(): Record<CapacityKind, { running: number; leased: number }> {
    const counts = { profiles: { running: 0, leased: 0 }, phones: { running: 0, leased: 0 }, cloudBrowsers: { running: 0, leased: 0 } };
    for (const record of this.records.values()) {
      const figures = counts[record.kind];
      if (!figures) continue;
      figures.running++;
      if (record.until !== undefined) figures.leased++;
    }
    return counts;
  }

  /** How many leases the node `owner` holds now, for its status. */
  heldBy(owner: string): number {
    let count = 0;
    for (const record of this.records.values()) if (record.owner === owner && record.until !== undefined) count++;
    return count;
  }

  /** Forgets everything (after closeOnStop closed it) and waits until the store has it. */
  async clear(): Promise<void> {
    // What the store held is taken in first, so that it is cleared too.
    await this.attached.catch(() => undefined);
    this.records.clear();
    this.persist();
    await this.saving;
  }

  /** Waits until every change so far is in the store (after the store is taken in, when it is being). */
  flushed(): Promise<void> {
    return this.attached.then(
      () => this.saving,
      () => this.saving,
    );
  }

  private forget(kind: CapacityKind, ids: readonly string[]): boolean {
    let changed = false;
    for (const id of ids) {
      const key = keyOf(kind, id);
      changed = this.records.delete(key) || changed;
      this.retryAt.delete(key);
    }
    return changed;
  }

  /**
   * Saves the book, after any save under way (so the last one written is the newest). Changes made while
   * one waits share it: it takes the book as it is when it begins.
   */
  private persist(): void {
    const store = this.store;
    if (!store || this.saveQueued) return;
    this.saveQueued = true;
    this.saving = this.saving
      .then(() => {
        this.saveQueued = false;
        return store.save(this.entries());
      })
      .catch((error: unknown) => this.saveFailed?.(error));
  }

  private dueAt(key: string, record: LeaseRecord): number | undefined {
    if (record.until === undefined || this.closing.has(key)) return undefined;
    return Math.max(record.until, this.retryAt.get(key) ?? 0);
  }

  private schedule(): void {
    if (this.closed.aborted) return;
    let next = Number.POSITIVE_INFINITY;
    for (const [key, record] of this.records) next = Math.min(next, this.dueAt(key, record) ?? Number.POSITIVE_INFINITY);
    this.stopTimer();
    if (next === Number.POSITIVE_INFINITY) return;
    this.timer = setTimeout(() => this.expireDue(), Math.min(LONGEST_TIMER_MS, Math.max(0, next - this.now())));
    this.timer.unref();
  }

  private expireDue(): void {
    this.timer = undefined;
    const now = this.now();
    for (const [key, record] of this.records) {
      const due = this.dueAt(key, record);
      if (due !== undefined && due <= now) void this.expire(key, record);
    }
    this.schedule();
  }

  /** A lease ran out: close what still runs, once; forget what stopped elsewhere. */
  private async expire(key: string, record: LeaseRecord): Promise<void> {
    this.closing.add(key);
    const current = (): boolean => this.records.get(key) === record;
    try {
      const running = await this.actions.isRunning(record, Math.max(record.since, record.until ?? 0));
      if (!current()) return;
      if (!running) {
        this.forget(record.kind, [record.id]);
        this.persist();
        this.tell({ record, closed: false });
        return;
      }
      await this.actions.close(record.kind, record.id, record.api);
      // The close went through the client, which struck the entry out already.
      if (this.forget(record.kind, [record.id])) this.persist();
      this.tell({ record, closed: true });
    } catch (error) {
      if (this.closed.aborted || !current()) return;
      this.retryAt.set(key, this.now() + LEASE_RETRY_MS);
      this.tell({ record, closed: false, error });
    } finally {
      this.closing.delete(key);
      this.schedule();
    }
  }

  private tell(end: LeaseEnd): void {
    for (const listener of this.listeners) {
      try {
        listener(end);
      } catch {
        // A listener's failure is its own: the book goes on.
      }
    }
  }

  private stopTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}

/**
 * Whether the entry's session is among `running` (ID to debug port): the profile runs, on the port its
 * start answered (an entry that knows no port, or a read that names none, takes the ID alone).
 */
export function runsSession(record: LeaseRecord, running: ReadonlyMap<string, string>): boolean {
  const port = running.get(record.id);
  if (port === undefined) return false;
  return record.port === undefined || port === "" || port === record.port;
}

function isRecord(value: unknown): value is LeaseRecord {
  if (value === null || typeof value !== "object") return false;
  const record = value as Partial<LeaseRecord>;
  return (
    (record.kind === "profiles" || record.kind === "phones" || record.kind === "cloudBrowsers") &&
    typeof record.id === "string" &&
    (record.api === "local" || record.api === "open") &&
    typeof record.since === "number" &&
    (record.port === undefined || typeof record.port === "string") &&
    (record.until === undefined || typeof record.until === "number")
  );
}
