/** BullMQ's key prefix; the batch's own records are under `<prefix>:<queue>:batch:`. */
export const PREFIX = "morelogin";

/** BullMQ refuses a colon in a queue's name. */
export function queueNameOf(name: string): string {
  return name.replace(/:/g, "_");
}

/** Keys of one queue's batch records, beside BullMQ's own (`queueName` as queueNameOf gives it). */
export function batchKeys(queueName: string) {
  const prefix = `${PREFIX}:${queueName}:batch:`;
  return {
    /** What START_NEXT puts before `meta:<id>` and `header:<id>`. */
    prefix,
    current: `${prefix}current`,
    waiting: `${prefix}waiting`,
    last: `${prefix}last`,
    changed: `${prefix}changed`,
    header: (id: string) => `${prefix}header:${id}`,
    list: (id: string) => `${prefix}list:${id}`,
    meta: (id: string) => `${prefix}meta:${id}`,
    ended: (id: string) => `${prefix}ended:${id}`,
    counts: (id: string) => `${prefix}counts:${id}`,
    workersDone: (id: string) => `${prefix}workers-done:${id}`,
    workersFailed: (id: string) => `${prefix}workers-failed:${id}`,
    failures: (id: string) => `${prefix}failures:${id}`,
    interruptions: (id: string) => `${prefix}interruptions:${id}`,
    /** Items sent to a second Node-RED after the first went unheard (BatchHandover JSON). */
    workedTwice: (id: string) => `${prefix}worked-twice:${id}`,
    /** Which Node-RED has each item out (index: worker), to name the one that went unheard. */
    out: (id: string) => `${prefix}out:${id}`,
    /** A Node-RED's presence, renewed while it runs; it lapses when the Node-RED is unheard for the worker timeout. */
    alive: (worker: string) => `${prefix}alive:${worker}`,
    announced: (id: string) => `${prefix}announced:${id}`,
    enqueuing: (id: string) => `${prefix}enqueuing:${id}`,
  };
}

export type BatchKeys = ReturnType<typeof batchKeys>;
