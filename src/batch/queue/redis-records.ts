import { NO_COUNTS, type LedgerCounts } from "../ledger";
import type { BatchFailure, BatchHandover, BatchHeader, BatchInterruption, BatchProgress } from "../types";

/**
 * What the queue keeps in Redis, as objects: each record's fields and encoding, in this one place, and
 * checked when read back. A record the batch node did not write (another program's key under the same
 * name, a hand edit, a damaged value) fails here, naming its key, rather than later as a TypeError.
 */

/** A record in Redis that is not as the batch node writes it. */
export class UnreadableRecordError extends Error {
  constructor(
    readonly key: string,
    why: string,
  ) {
    super(`the queue's record ${key} cannot be read: ${why}`);
    this.name = "UnreadableRecordError";
  }
}

/** What a BullMQ job of ours carries: one item of a batch, at one attempt. */
export interface ItemJob {
  batch: string;
  index: number;
  attempt: number;
  item: unknown;
}

/** A job as BullMQ's add takes it: its ID fixed by batch, item and attempt (adding it again adds nothing), gone once completed. */
export function itemJob(data: ItemJob) {
  return { name: "item", data, opts: { jobId: `${data.batch}-${data.index}-${data.attempt}`, removeOnComplete: true, removeOnFail: false } };
}

/** A list as it waits its turn (`meta:<id>`, beside its items); its header holds the same once it runs. */
export interface ListMeta {
  id: string;
  total: number;
  origin: Record<string, unknown>;
}

export function encodeListMeta(meta: ListMeta): string {
  return JSON.stringify(meta);
}

export function decodeListMeta(key: string, json: string): ListMeta {
  const record = objectOf(key, json);
  return { id: textIn(key, record, "id"), total: countIn(key, record, "total"), origin: objectIn(key, record, "origin") };
}

/** A list's items (`list:<id>`). */
export function encodeItems(items: readonly unknown[]): string {
  return JSON.stringify(items);
}

export function decodeItems(key: string, json: string): unknown[] {
  const items = parsed(key, json);
  if (!Array.isArray(items)) throw new UnreadableRecordError(key, "it is not a JSON array");
  return items;
}

/**
 * The fields of a running batch's header (`header:<id>`, a hash): START_NEXT writes them all, from
 * startedHeaderArgs; pause, cancel and the enqueue each set one flag, through headerFlag.
 */
const HEADER = { meta: "meta", startedAt: "startedAt", paused: "paused", cancelled: "cancelled", enqueued: "enqueued" } as const;

/** `enqueued`: the batch's items are in BullMQ. */
export type HeaderFlag = "paused" | "cancelled" | "enqueued";

/** START_NEXT's ARGV after the prefix: the field the list's meta is copied into, then each other field and its value. */
export function startedHeaderArgs(startedAt: string): string[] {
  const flags = (["paused", "cancelled", "enqueued"] as const).flatMap((flag) => Object.entries(headerFlag(flag, false)).flat());
  return [HEADER.meta, HEADER.startedAt, startedAt, ...flags];
}

/** One flag of a header, as HSET takes it. */
export function headerFlag(flag: HeaderFlag, on: boolean): Record<string, string> {
  return { [HEADER[flag]]: on ? "1" : "0" };
}

/** A running batch's header as read back. */
export interface StoredHeader {
  batch: BatchHeader;
  /** Its items are in BullMQ. */
  enqueued: boolean;
}

/** The header of batch `id`, read from `key` (HGETALL); undefined while there is none (no list's meta in it). */
export function decodeHeader(key: string, id: string, hash: Readonly<Record<string, string>>): StoredHeader | undefined {
  const metaJson = hash[HEADER.meta];
  if (!metaJson) return undefined;
  const meta = decodeListMeta(key, metaJson);
  if (meta.id !== id) throw new UnreadableRecordError(key, `it describes list ${meta.id}, not ${id}`);
  const startedAt = hash[HEADER.startedAt];
  if (startedAt === undefined) throw new UnreadableRecordError(key, `it has no ${HEADER.startedAt}`);
  const batch: BatchHeader = { id, total: meta.total, startedAt, paused: flagIn(key, hash, "paused"), cancelled: flagIn(key, hash, "cancelled"), origin: meta.origin };
  return { batch, enqueued: flagIn(key, hash, "enqueued") };
}

/** A failure, an interruption or a handover, as one entry of its list. */
export function encodeEntry(entry: BatchFailure | BatchInterruption | BatchHandover): string {
  return JSON.stringify(entry);
}

export function decodeFailures(key: string, entries: readonly string[]): BatchFailure[] {
  return entries.map((json) => {
    const record = objectOf(key, json);
    return { id: textIn(key, record, "id"), attempt: countIn(key, record, "attempt"), error: textIn(key, record, "error") };
  });
}

export function decodeInterruptions(key: string, entries: readonly string[]): BatchInterruption[] {
  return entries.map((json) => {
    const record = objectOf(key, json);
    const worker = record.worker === undefined ? {} : { worker: textIn(key, record, "worker") };
    return { id: textIn(key, record, "id"), attempt: countIn(key, record, "attempt"), ...worker };
  });
}

export function decodeHandovers(key: string, entries: readonly string[]): BatchHandover[] {
  return entries.map((json) => {
    const record = objectOf(key, json);
    return { id: textIn(key, record, "id"), attempt: countIn(key, record, "attempt"), from: textIn(key, record, "from"), to: textIn(key, record, "to") };
  });
}

/** The summary of the last batch that ended (`last`), as its `done` carried it. */
export function encodeSummary(summary: BatchProgress): string {
  return JSON.stringify(summary);
}

export function decodeSummary(key: string, json: string): BatchProgress {
  const record = objectOf(key, json);
  textIn(key, record, "id");
  for (const field of ["total", ...Object.keys(NO_COUNTS)]) countIn(key, record, field);
  if (!Array.isArray(record.failures)) throw new UnreadableRecordError(key, "its failures are not a list");
  // Its ID and figures checked; the rest goes to output 2 as the batch that ended sent it.
  return record as unknown as BatchProgress;
}

/** A batch's ended items by state (`counts:<id>`, counted by RECORD_ENDING). */
export function decodeCounts(key: string, hash: Readonly<Record<string, string>>): LedgerCounts {
  const of = (state: "done" | "failed" | "timedOut" | "interrupted"): number => countText(key, state, hash[state] ?? "0");
  return { ...NO_COUNTS, done: of("done"), failed: of("failed"), timedOut: of("timedOut"), interrupted: of("interrupted") };
}

/** Items ended by each Node-RED (`workers-done:<id>`, `workers-failed:<id>`: worker → count). */
export function decodeWorkerCounts(key: string, hash: Readonly<Record<string, string>>): Map<string, number> {
  return new Map(Object.entries(hash).map(([worker, count]) => [worker, countText(key, worker, count)]));
}

function parsed(key: string, json: string): unknown {
  try {
    return JSON.parse(json);
  } catch {
    throw new UnreadableRecordError(key, "it is not JSON");
  }
}

function objectOf(key: string, json: string): Record<string, unknown> {
  const value = parsed(key, json);
  if (!isObject(value)) throw new UnreadableRecordError(key, "it is not a JSON object");
  return value;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function textIn(key: string, record: Record<string, unknown>, field: string): string {
  const value = record[field];
  if (typeof value !== "string") throw new UnreadableRecordError(key, `its ${field} is not a text`);
  return value;
}

function countIn(key: string, record: Record<string, unknown>, field: string): number {
  const value = record[field];
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) throw new UnreadableRecordError(key, `its ${field} is not a whole number`);
  return value;
}

function objectIn(key: string, record: Record<string, unknown>, field: string): Record<string, unknown> {
  const value = record[field];
  if (!isObject(value)) throw new UnreadableRecordError(key, `its ${field} is not an object`);
  return value;
}

function flagIn(key: string, hash: Readonly<Record<string, string>>, flag: HeaderFlag): boolean {
  const value = hash[HEADER[flag]];
  if (value === "1" || value === "0") return value === "1";
  throw new UnreadableRecordError(key, `its ${HEADER[flag]} is neither "0" nor "1"`);
}

/** A count Redis keeps as text (HINCRBY's). */
function countText(key: string, field: string, text: string): number {
  if (!/^\d+$/.test(text)) throw new UnreadableRecordError(key, `its ${field} is not a whole number`);
  return Number(text);
}
