import { unlessAborted, type ApiName, type MoreLoginClient } from "../../../client";
import type { WatchSource } from "./kinds";
import { observe, type Observation } from "./observe";

interface Poll {
  /** performance.now() when it was sent. */
  began: number;
  result: Promise<Observation>;
}

/** Per config node's client: the last poll of each source on each API. Gone with the client. */
const pollsByClient = new WeakMap<MoreLoginClient, Map<string, Poll>>();

export interface SharedObservation {
  observation: Observation;
  /** performance.now() when the poll that saw it was sent. */
  began: number;
}

/**
 * What a watch's poll sees, shared by every watch on the same config node, source and API: a poll in
 * flight, or one sent less than `freshMs` ago, answers for all of them instead of another request.
 * Each watch gets its own copy (its messages must not share objects with another watch's). A failed
 * poll is not kept, so the next watch that asks polls again. The shared request runs for the client's
 * lifetime; a watch that stops stops waiting for it (its `signal`) without cancelling it for the others.
 */
export async function sharedObservation(client: MoreLoginClient, source: WatchSource, api: ApiName, freshMs: number, signal: AbortSignal): Promise<SharedObservation> {
  let polls = pollsByClient.get(client);
  if (!polls) {
    polls = new Map();
    pollsByClient.set(client, polls);
  }
  const key = `${source} ${api}`;
  let poll = polls.get(key);
  if (poll === undefined || performance.now() - poll.began >= freshMs) {
    const sent: Poll = { began: performance.now(), result: observe(client, source, { api }) };
    const kept = polls;
    sent.result.catch(() => {
      if (kept.get(key) === sent) kept.delete(key);
    });
    polls.set(key, sent);
    poll = sent;
  }
  const observation = await unlessAborted(poll.result, signal, () => signal.reason);
  return { observation: structuredClone(observation), began: poll.began };
}
