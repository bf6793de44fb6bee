/**
 * How a queue's Node-RED shows it is alive, and how soon a silent one's items move on. Every `renewEveryMs`
 * a Node-RED renews the locks of its items and its presence; a lock lasts `workerTimeoutMs` longer than the
 * renewal it follows, so a Node-RED that falls silent at any moment keeps its items for at least the worker
 * timeout. BullMQ's stalled check, every `stalledCheckMs`, finds an item whose lock has lapsed: a silent
 * Node-RED's items move on within workerTimeout + renewEveryMs + stalledCheckMs.
 */
export interface QueueTiming {
  renewEveryMs: number;
  lockMs: number;
  stalledCheckMs: number;
  /** How long a Node-RED's presence lasts after its last renewal: it leaves `workers` after this long unheard. */
  presenceMs: number;
}

export function queueTimingOf(workerTimeoutMs: number): QueueTiming {
  const renewEveryMs = clamp(Math.round(workerTimeoutMs / 15), 500, 2000);
  return {
    renewEveryMs,
    lockMs: workerTimeoutMs + renewEveryMs,
    stalledCheckMs: clamp(Math.round(workerTimeoutMs / 10), 1000, 2000),
    presenceMs: workerTimeoutMs,
  };
}

function clamp(value: number, low: number, high: number): number {
  return Math.min(high, Math.max(low, value));
}
