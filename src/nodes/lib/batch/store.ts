import { ITEM_STATES, Ledger } from "../../../batch/ledger";
import type { BatchState } from "../../../batch/records";
import type { BatchFailure, BatchHeader, BatchProgress, QueuedList } from "../../../batch/types";
import type { ContextStore } from "../shell/context-store";

/**
 * What a 0.4 batch node kept in its Node-RED context (one key per part), read once so that a batch
 * running when the package was updated carries on in the node's journal; then the keys are cleared.
 */

const KEY = {
  header: "batch",
  items: "batchItems",
  checkpoint: "batchCheckpoint",
  journal: "batchJournal",
  failures: "batchFailures",
  queue: "batchQueue",
  last: "batchLast",
} as const;

/** The 0.4 batch in the context, as the journal's state; undefined when the context holds none. */
export async function legacyBatch(context: ContextStore, generateId: () => string, onError: (error: Error) => void): Promise<BatchState | undefined> {
  const [header, items, checkpoint, journal, failures, queue, last] = await Promise.all(Object.values(KEY).map((key) => readOrUndefined(context, key, onError)));
  const waiting: QueuedList[] = (Array.isArray(queue) ? queue : [])
    .filter((list): list is { items: unknown[]; origin?: Record<string, unknown> } => Array.isArray((list as { items?: unknown })?.items))
    .map((list) => ({ id: generateId(), items: list.items, origin: list.origin ?? {} }));
  const state: BatchState = { waiting, last: isProgress(last) ? last : undefined };
  if (isHeader(header) && Array.isArray(items) && items.length === header.total) {
    const point = (checkpoint ?? {}) as { checkpoint?: unknown; attempts?: unknown };
    const ledger = Ledger.fromCheckpoint(
      header.total,
      typeof point.checkpoint === "string" ? point.checkpoint : "",
      point.attempts && typeof point.attempts === "object" ? (point.attempts as Record<string, number>) : {},
    );
    const changes = Array.isArray(journal) ? (journal as number[]) : [];
    for (let at = 0; at + 2 < changes.length; at += 3) {
      const name = ITEM_STATES[changes[at + 1] as number];
      if (name) ledger.set(changes[at] as number, name, changes[at + 2] as number);
    }
    state.batch = { header, items, ledger, failures: Array.isArray(failures) ? (failures as BatchFailure[]) : [] };
  }
  return state.batch || state.waiting.length > 0 || state.last ? state : undefined;
}

/** Clears the 0.4 keys: taken over once. */
export function forgetLegacyBatch(context: ContextStore, onError: (error: Error) => void): void {
  for (const key of Object.values(KEY)) context.set(key, undefined).catch(onError);
}

/** What the context holds under a key; undefined when it cannot be read (the error goes to `onError`). */
function readOrUndefined(context: ContextStore, key: string, onError: (error: Error) => void): Promise<unknown> {
  return context.get(key).catch((error: Error) => {
    onError(error);
    return undefined;
  });
}

function isHeader(value: unknown): value is BatchHeader {
  const header = value as Partial<BatchHeader> | undefined;
  return typeof header?.id === "string" && typeof header.total === "number" && typeof header.startedAt === "string";
}

function isProgress(value: unknown): value is BatchProgress {
  return typeof value === "object" && value !== null && typeof (value as BatchProgress).id === "string" && typeof (value as BatchProgress).total === "number";
}
