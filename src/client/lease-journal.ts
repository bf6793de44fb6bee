import { rm } from "node:fs/promises";
import { Journal, JournalUnreadableError, type OpenedJournal } from "../journal";
import type { LeaseRecord, LeaseStore } from "./leases";

/** One line of the leases' journal: entries added or changed (`put`), entries ended (`drop`, by kind and ID). */
interface LeaseChange {
  put?: LeaseRecord[];
  drop?: string[];
}

/** The journal is compacted once it is this many bytes and four times what a snapshot of it would take. */
const COMPACT_FLOOR_BYTES = 64 * 1024;

const keyOf = (record: LeaseRecord): string => `${record.kind}:${record.id}`;

/**
 * A config node's leases in a journal file of their own: each save appends what changed since the one
 * before (written ahead, fsynced; saves made together share a commit) and resolves once it is on disk.
 * A start's reply so leaves after its lease is written. Compacted into one snapshot as it grows; removed
 * with its config node. `load` answers `undefined` for a journal never written (a 0.4 store may then
 * hand over what it kept).
 */
export class JournalLeaseStore implements LeaseStore {
  private journal: Journal<LeaseChange> | undefined;
  /** What the file holds, by key, as the JSON written: the next save writes only what differs. */
  private readonly written = new Map<string, string>();
  private wroteAny = false;
  private closed = false;

  constructor(readonly file: string) {}

  /** A journal that cannot be read is kept aside (and the error thrown): a new one takes the leases from now on. */
  async load(): Promise<readonly LeaseRecord[] | undefined> {
    let opened: OpenedJournal<LeaseChange>;
    try {
      opened = await Journal.open<LeaseChange>(this.file);
    } catch (error) {
      if (error instanceof JournalUnreadableError && error.keptAs !== this.file) this.journal = (await Journal.open<LeaseChange>(this.file)).journal;
      throw error;
    }
    const { journal, records } = opened;
    this.journal = journal;
    for (const change of records) this.apply(change);
    this.wroteAny = records.length > 0;
    return this.wroteAny ? [...this.written.values()].map((text) => JSON.parse(text) as LeaseRecord) : undefined;
  }

  async save(records: readonly LeaseRecord[]): Promise<void> {
    const journal = this.journal;
    if (!journal || this.closed) throw new Error(`the leases' journal ${this.file} is not open`);
    const next = new Map(records.map((record) => [keyOf(record), JSON.stringify(record)]));
    const put = records.filter((record) => this.written.get(keyOf(record)) !== next.get(keyOf(record)));
    const drop = [...this.written.keys()].filter((key) => !next.has(key));
    if (put.length === 0 && drop.length === 0 && this.wroteAny) return;
    this.written.clear();
    for (const [key, text] of next) this.written.set(key, text);
    this.wroteAny = true;
    const appended = journal.append({ ...(put.length > 0 ? { put } : {}), ...(drop.length > 0 ? { drop } : {}) });
    const snapshotBytes = [...next.values()].reduce((sum, text) => sum + text.length + 1, 16);
    if (journal.bytes > Math.max(COMPACT_FLOOR_BYTES, 4 * snapshotBytes)) {
      await journal.compact([{ put: [...records] }]);
    }
    await appended;
  }

  /** Writes what is pending and closes the file (a redeploy opens it again). */
  async close(): Promise<void> {
    this.closed = true;
    await this.journal?.close();
  }

  /** Deletes the file: its config node is gone. */
  async remove(): Promise<void> {
    this.closed = true;
    if (this.journal) await this.journal.remove();
    else await rm(this.file, { force: true });
  }

  private apply(change: LeaseChange): void {
    for (const key of change.drop ?? []) this.written.delete(key);
    for (const record of change.put ?? []) this.written.set(keyOf(record), JSON.stringify(record));
  }
}
