import { MoreLoginResponseError, cancellationError } from "./errors";
import type { ApiName, CallResult, RunningProfile } from "./types";
import { unlessAborted } from "./abortable";

/** One answer of `getAllDebugInfo`: the profiles running, and when the read that saw them began. */
export interface RunningProfilesAnswer {
  rows: readonly RunningProfile[];
  /** The IDs of `rows`. */
  ids: ReadonlySet<string>;
  /** Each running profile's debug port, by ID (`""` when the row names none): which session runs. */
  ports: ReadonlyMap<string, string>;
  api: ApiName;
  path: string;
  requestId?: string;
  /** `Date.now()` when the read was sent for: nothing that changed before this is missing from it. */
  readAt: number;
}

export interface RunningProfilesRequest {
  /**
   * An answer whose read began at or after this time may be given, a finished one included. Default:
   * the read in flight, if there is one, else a new one.
   */
  notBefore?: number;
  /** Stops this caller's wait; the read goes on for the others. */
  signal?: AbortSignal;
}

type Fetch = () => Promise<CallResult<unknown>>;

/**
 * The one reader of the running profiles of a client: the caps, the leases and every profiles watch
 * of a config node ask it, so that they share `getAllDebugInfo` reads. One read is in flight at a
 * time; everyone who asks meanwhile gets its answer (or its error). A caller that wants news from
 * after a moment (`notBefore`) waits for the next read when the one in flight began earlier. A reply
 * that is not an array is an error (kind `response`) for every one of them.
 */
export class RunningProfilesReader {
  private inFlight: { readAt: number; answer: Promise<RunningProfilesAnswer> } | undefined;
  private last: RunningProfilesAnswer | undefined;
  private readonly listeners = new Set<(answer: RunningProfilesAnswer) => void>();

  constructor(
    private readonly fetch: Fetch,
    private readonly now: () => number = Date.now,
  ) {}

  /** Told of every answer, whoever asked for it (the leases forget what stopped elsewhere). */
  onAnswer(listener: (answer: RunningProfilesAnswer) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  read(request: RunningProfilesRequest = {}): Promise<RunningProfilesAnswer> {
    const answer = request.notBefore === undefined ? (this.inFlight?.answer ?? this.startRead()) : this.answerFor(request.notBefore);
    const signal = request.signal;
    if (!signal) return answer;
    // Aborted before asking, nothing was read on its behalf; later, the read goes on for the others.
    const notSent = signal.aborted;
    return unlessAborted(answer, signal, () => cancellationError(signal, notSent ? { api: "local", notSent } : { api: "local" }));
  }

  private async answerFor(notBefore: number): Promise<RunningProfilesAnswer> {
    for (;;) {
      if (this.last && this.last.readAt >= notBefore) return this.last;
      const pending = this.inFlight;
      if (!pending) return this.startRead();
      if (pending.readAt >= notBefore) return pending.answer;
      // The read in flight began too early for this caller: wait it out (one at a time), then ask again.
      await pending.answer.catch(() => undefined);
    }
  }

  private startRead(): Promise<RunningProfilesAnswer> {
    const readAt = this.now();
    const answer = this.fetch().then((result) => this.answered(result, readAt));
    const entry = { readAt, answer };
    this.inFlight = entry;
    const done = (): void => {
      if (this.inFlight === entry) this.inFlight = undefined;
    };
    answer.then(done, done);
    return answer;
  }

  private answered(result: CallResult<unknown>, readAt: number): RunningProfilesAnswer {
    if (!Array.isArray(result.data)) {
      throw new MoreLoginResponseError("the list of running profiles (getAllDebugInfo) is not an array", { api: result.api, path: result.path, requestId: result.requestId });
    }
    const rows = result.data as RunningProfile[];
    const ids = new Set<string>();
    const ports = new Map<string, string>();
    for (const row of rows) {
      const id = row?.envId === undefined || row.envId === null ? "" : String(row.envId);
      if (id === "") continue;
      ids.add(id);
      ports.set(id, row.debugPort === undefined || row.debugPort === null ? "" : String(row.debugPort));
    }
    const answer: RunningProfilesAnswer = { rows, ids, ports, api: result.api, path: result.path, requestId: result.requestId, readAt };
    if (!this.last || this.last.readAt <= readAt) this.last = answer;
    for (const listener of this.listeners) listener(answer);
    return answer;
  }
}
