/**
 * A journal: an append-only file of records (one JSON text a line), written ahead and made durable with
 * group commits (the appends made while a write is under way, or in the same turn of the event loop,
 * share one write and one fdatasync; each caller awaits the durable point), compacted into a snapshot
 * (temp file, fsync, rename, fsync of the folder) and removed with its owner.
 *
 * Each group commit, each snapshot and the new file end with a commit marker: a line `#<crc>` (JSON never
 * starts a value with `#`) holding the CRC-32 of the commit's bytes, those since the previous marker. A
 * power loss can leave the last commit (never fsynced, so none of its appends resolved) with holes or
 * pages written out of order, even with its marker on disk: whatever follows the last marker that matches
 * its commit is cut when the journal is opened. Anything else that cannot be read is moved aside (kept,
 * renamed) and reported; the journal never starts again from empty on its own.
 * Plain Node.js: no Node-RED here.
 */
import { type FileHandle, mkdir, open, readFile, rename, rm, truncate } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { crc32 } from "node:zlib";
import { asError } from "../client/errors";

const MARKER = 0x23; // "#"
const NEWLINE = 10;

/** The marker line that ends a commit of `bytes` (everything written since the previous marker). */
export function commitMarker(bytes: Buffer | string): string {
  return `#${crc32(bytes).toString(36)}\n`;
}

/** The journals hold a batch's items and the message that started it (a proxy row has its password): owner only. */
const PRIVATE_FOLDER = 0o700;
const PRIVATE_FILE = 0o600;

/** The journal's file could not be read: it is kept under `keptAs` (or where it was, when even that failed). */
export class JournalUnreadableError extends Error {
  constructor(
    readonly file: string,
    readonly keptAs: string,
    readonly reason: string,
  ) {
    super(`the journal ${file} cannot be read (${reason}); it is kept as ${keptAs}`);
    this.name = "JournalUnreadableError";
  }
}

/** What a journal has written since it was opened: for the bench and the docs' figures. */
export interface JournalStats {
  appends: number;
  /** fdatasync calls (group commits and compactions). */
  syncs: number;
  bytesWritten: number;
  compactions: number;
}

/** Hears how long each fdatasync of a journal's file took (metrics); set by the node side, one for the process. */
export type SyncListener = (file: string, seconds: number) => void;
let syncListener: SyncListener | undefined;

/** Tells `listener` of every journal's fdatasyncs from now on (undefined: no one). */
export function listenToSyncs(listener: SyncListener | undefined): void {
  syncListener = listener;
}

async function timedSync(file: string, handle: Pick<FileHandle, "datasync">): Promise<void> {
  const since = performance.now();
  await handle.datasync();
  if (!syncListener) return;
  try {
    syncListener(file, (performance.now() - since) / 1000);
  } catch {
    // A metrics listener's failure is its own.
  }
}

interface Waiter {
  resolve(): void;
  reject(error: Error): void;
}

export interface OpenedJournal<R> {
  journal: Journal<R>;
  /** The records in the file, in the order they were appended (a compaction's snapshot first). */
  records: R[];
  /** Bytes of a torn last record that were cut, 0 when the file ended cleanly. */
  cutBytes: number;
}

export class Journal<R> {
  readonly stats: JournalStats = { appends: 0, syncs: 0, bytesWritten: 0, compactions: 0 };
  private pending: string[] = [];
  private waiters: Waiter[] = [];
  /** The file's operations (group commits, compactions), one after another. */
  private tail: Promise<void> = Promise.resolve();
  private flushQueued = false;
  private compactionsAhead = 0;
  private closed = false;
  private failure: Error | undefined;

  private constructor(
    readonly file: string,
    private handle: FileHandle,
    /** The file's size in bytes, counting the appends on their way. */
    private size: number,
  ) {}

  /**
   * Opens (or creates) the journal at `file` and reads what it holds. A torn last record is cut; a file
   * that cannot be read otherwise is renamed aside and a JournalUnreadableError thrown.
   */
  static async open<R>(file: string): Promise<OpenedJournal<R>> {
    await mkdir(dirname(file), { recursive: true, mode: PRIVATE_FOLDER });
    await rm(`${file}.tmp`, { force: true });
    let content: Buffer | undefined;
    try {
      content = await readFile(file);
    } catch (error) {
      // A file that cannot be read now (permissions, too many open files, EIO) is kept where it is: only
      // content that cannot be parsed is moved aside, or the next start would begin with an empty journal.
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
    const { records, goodBytes, unmarkedBytes, problem } = content ? parse<R>(content) : { records: [], goodBytes: 0, unmarkedBytes: 0, problem: undefined };
    if (problem) throw await moveAside(file, problem);
    const cutBytes = content ? content.length - goodBytes : 0;
    if (cutBytes > 0) await truncate(file, goodBytes);
    const handle = await open(file, "a", PRIVATE_FILE);
    let size = goodBytes;
    // A new file starts with the marker of an empty commit, and a file without markers (see parse) is
    // sealed with one: from here on every file has one, and its commits are framed.
    const seal = !content || goodBytes === 0 || unmarkedBytes > 0 ? commitMarker(content ? content.subarray(goodBytes - unmarkedBytes, goodBytes) : "") : "";
    try {
      if (seal) {
        await writeAll(handle, Buffer.from(seal));
        size += Buffer.byteLength(seal);
      }
      if (seal || cutBytes > 0) {
        await handle.datasync();
        await syncFolder(file);
      }
    } catch (error) {
      await handle.close();
      throw error;
    }
    return { journal: new Journal<R>(file, handle, size), records, cutBytes };
  }

  /** The file's size in bytes once what has been appended is written (durable or on its way). */
  get bytes(): number {
    return this.size;
  }

  /** Adds records; resolves once they are on disk (with every record appended before them). */
  append(...records: R[]): Promise<void> {
    if (this.closed) return Promise.reject(new Error(`the journal ${this.file} is closed`));
    if (this.failure) return Promise.reject(this.failure);
    for (const record of records) this.add(record);
    const durable = new Promise<void>((resolve, reject) => this.waiters.push({ resolve, reject }));
    this.schedule();
    return durable;
  }

  /**
   * Adds a record without waiting for it: it goes with the next group commit (the next append's promise
   * covers it). A write that fails is the rejection of every later append.
   */
  appendLater(record: R): void {
    if (this.closed || this.failure) return;
    this.add(record);
    this.schedule();
  }

  private add(record: R): void {
    const line = `${JSON.stringify(record)}\n`;
    this.pending.push(line);
    this.size += Buffer.byteLength(line);
    this.stats.appends++;
  }

  /**
   * Replaces the file with `snapshot`, which must stand for every record appended before this call (those
   * not yet written are dropped, and their appends resolve when the snapshot is on disk).
   */
  compact(snapshot: readonly R[]): Promise<void> {
    if (this.closed) return Promise.reject(new Error(`the journal ${this.file} is closed`));
    const records = snapshot.map((record) => `${JSON.stringify(record)}\n`).join("");
    const text = `${records}${commitMarker(records)}`;
    const covered = this.waiters;
    this.size = Buffer.byteLength(text);
    this.pending = [];
    this.waiters = [];
    // A flush queued before this call must not write later appends into the file being replaced.
    this.compactionsAhead++;
    this.flushQueued = false;
    const done = this.tail.then(() => this.replace(text, covered));
    this.tail = done.catch(() => undefined);
    return done;
  }

  /** Writes what is pending and closes the file. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.pending.length > 0) this.enqueueFlush();
    await this.tail;
    await this.handle.close();
  }

  /** Closes and deletes the file: its owner is gone. */
  async remove(): Promise<void> {
    this.pending = [];
    for (const waiter of this.waiters.splice(0)) waiter.reject(new Error(`the journal ${this.file} was removed`));
    const wasClosed = this.closed;
    this.closed = true;
    await this.tail;
    if (!wasClosed) await this.handle.close();
    await rm(this.file, { force: true });
    await syncFolder(this.file).catch(() => undefined);
  }

  /** One flush waits for the end of this turn, so that every append made in it shares the write. */
  private schedule(): void {
    if (this.flushQueued) return;
    this.flushQueued = true;
    this.tail = this.tail.then(() => new Promise<void>((resolve) => setImmediate(resolve))).then(() => this.flushNow());
  }

  private enqueueFlush(): void {
    this.flushQueued = true;
    this.tail = this.tail.then(() => this.flushNow());
  }

  /** One group commit: everything pending in one write and one fdatasync. */
  private async flushNow(): Promise<void> {
    if (this.compactionsAhead > 0) return;
    this.flushQueued = false;
    const waiters = this.waiters;
    const records = Buffer.from(this.pending.join(""));
    const marker = records.length > 0 ? commitMarker(records) : "";
    const buffer = marker ? Buffer.concat([records, Buffer.from(marker)]) : records;
    this.size += Buffer.byteLength(marker);
    this.pending = [];
    this.waiters = [];
    // After a failed write or sync nothing more is written: what follows a torn record, or a sync that may
    // have dropped earlier pages (EIO), would be reported durable when it is not.
    if (this.failure) {
      for (const waiter of waiters) waiter.reject(this.failure);
      return;
    }
    if (buffer.length === 0) {
      for (const waiter of waiters) waiter.resolve();
      return;
    }
    try {
      await writeAll(this.handle, buffer);
      await timedSync(this.file, this.handle);
      this.stats.bytesWritten += buffer.length;
      this.stats.syncs++;
      for (const waiter of waiters) waiter.resolve();
    } catch (error) {
      this.failure = asError(error);
      for (const waiter of waiters) waiter.reject(this.failure);
    }
  }

  /** A compaction: the snapshot to a temp file, made durable, renamed over the journal, the folder synced. */
  private async replace(text: string, covered: Waiter[]): Promise<void> {
    this.compactionsAhead--;
    try {
      const temporary = `${this.file}.tmp`;
      const handle = await open(temporary, "w", PRIVATE_FILE);
      try {
        await handle.writeFile(text);
        await timedSync(this.file, handle);
      } finally {
        await handle.close();
      }
      await rename(temporary, this.file);
      await syncFolder(this.file);
      await this.handle.close();
      this.handle = await open(this.file, "a", PRIVATE_FILE);
      this.stats.syncs += 2;
      this.stats.bytesWritten += Buffer.byteLength(text);
      this.stats.compactions++;
      for (const waiter of covered) waiter.resolve();
    } catch (error) {
      this.failure = asError(error);
      for (const waiter of covered) waiter.reject(this.failure);
      throw this.failure;
    }
  }
}

/** A write may take fewer bytes than given (a disk filling up): the rest goes after it, or the write fails. */
export async function writeAll(handle: Pick<FileHandle, "write">, buffer: Buffer): Promise<void> {
  for (let offset = 0; offset < buffer.length; ) {
    const { bytesWritten } = await handle.write(buffer, offset, buffer.length - offset);
    if (bytesWritten <= 0) throw new Error(`the journal took no more bytes after ${offset} of ${buffer.length}`);
    offset += bytesWritten;
  }
}

interface Parsed<R> {
  records: R[];
  /** Where the file's committed part ends: the rest is cut. */
  goodBytes: number;
  /** Bytes of committed records with no marker after them (a file from before the markers). */
  unmarkedBytes: number;
  problem?: string;
}

/**
 * The committed records of a journal file: those up to the last marker that matches its commit. What
 * follows it is the last commit, never made durable, torn by a crash or a power loss (a torn line, zeros,
 * pages written out of order, with or without its marker): it is cut, whatever it holds. A line that is not
 * a record before that marker, or a commit before it that does not match its own, is a problem, never
 * skipped.
 */
function parse<R>(content: Buffer): Parsed<R> {
  const records: R[] = [];
  let commit: R[] = [];
  let commitStart = 0;
  let commitProblem: string | undefined;
  let badCommit: string | undefined;
  let goodBytes = 0;
  let hasMarker = false;
  let at = 0;
  let line = 0;
  while (at < content.length) {
    const end = content.indexOf(NEWLINE, at);
    if (end === -1) break;
    line++;
    const lineStart = at;
    at = end + 1;
    if (content[lineStart] === MARKER) {
      hasMarker = true;
      const matches = content.toString("latin1", lineStart, at) === commitMarker(content.subarray(commitStart, lineStart));
      if (matches) {
        // The commit's bytes are the ones written: a bad line in them, or a torn commit before them, is no crash.
        const problem = badCommit ?? commitProblem;
        if (problem !== undefined) return { records, goodBytes, unmarkedBytes: 0, problem: `${problem}, and records follow it` };
        records.push(...commit);
        goodBytes = at;
      } else {
        badCommit ??= commitProblem ?? `the commit ending at line ${line} does not match its marker`;
      }
      commit = [];
      commitStart = at;
      commitProblem = undefined;
      continue;
    }
    const record = parseLine(content.toString("utf8", lineStart, end));
    if (record === undefined) commitProblem ??= `line ${line} is not a record`;
    else commit.push(record.value as R);
  }
  if (hasMarker) return { records, goodBytes, unmarkedBytes: 0 };
  return parseUnmarked(content);
}

/**
 * A file with no marker at all is from before the markers (only unreleased development builds wrote
 * those): each good line is read as committed, only a torn last line is cut, a bad line with a good one
 * after it is a problem. Opening it seals it with a marker.
 */
function parseUnmarked<R>(content: Buffer): Parsed<R> {
  const records: R[] = [];
  let at = 0;
  let goodBytes = 0;
  let badLine: number | undefined;
  let line = 0;
  while (at < content.length) {
    const end = content.indexOf(NEWLINE, at);
    line++;
    const complete = end !== -1;
    const text = content.toString("utf8", at, complete ? end : content.length);
    at = complete ? end + 1 : content.length;
    const record = complete ? parseLine(text) : undefined;
    if (record === undefined) {
      if (text.replace(/\0/g, "").trim() === "" && !complete) continue;
      badLine ??= line;
      continue;
    }
    if (badLine !== undefined) return { records, goodBytes, unmarkedBytes: goodBytes, problem: `line ${badLine} is not a record, and records follow it` };
    records.push(record.value as R);
    goodBytes = at;
  }
  return { records, goodBytes, unmarkedBytes: goodBytes };
}

function parseLine(text: string): { value: unknown } | undefined {
  if (text === "") return undefined;
  try {
    return { value: JSON.parse(text) };
  } catch {
    return undefined;
  }
}

/** Renames an unreadable journal aside (kept for a person to look at) and returns the error to throw. */
async function moveAside(file: string, reason: string): Promise<JournalUnreadableError> {
  const keptAs = join(dirname(file), `${basename(file)}.unreadable-${new Date().toISOString().replace(/[:.]/g, "-")}`);
  try {
    await rename(file, keptAs);
    await syncFolder(file);
    return new JournalUnreadableError(file, keptAs, reason);
  } catch {
    return new JournalUnreadableError(file, file, reason);
  }
}

/** Makes a rename or a new file in `file`'s folder durable. */
async function syncFolder(file: string): Promise<void> {
  const folder = await open(dirname(file), "r");
  try {
    await folder.sync();
  } finally {
    await folder.close();
  }
}
