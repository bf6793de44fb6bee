import { MoreLoginError, type ErrorKind } from "./errors";
import type { Send } from "./stages";
import type { ApiName } from "./types";

/** How a request on the wire ended: answered (`ok`), or the kind of error it failed with. */
export type RequestOutcome = "ok" | ErrorKind;

/** One request as it left the wire: a retry is one more. `endpoint` is a name the client knows (never a path or an ID). */
export interface ObservedRequest {
  api: ApiName;
  endpoint: string;
  outcome: RequestOutcome;
}

/**
 * Hears what a client does, for metrics: the node side feeds Prometheus from it, the client knows
 * nothing of Prometheus. A listener that throws is ignored; it never fails a call.
 */
export interface ClientObserver {
  requested?(request: ObservedRequest): void;
  /** A request waited its turn under pacing or a rate-limit hold for `seconds` before it was sent. */
  paced?(api: ApiName, seconds: number): void;
}

/** The endpoint name of a request to a path the client has no name for (a generic request). */
export const OTHER_ENDPOINT = "other";

export function outcomeOf(error: unknown): RequestOutcome {
  return error instanceof MoreLoginError ? error.kind : "network";
}

/** Tells `observer` of a call without ever letting it fail the call. */
export function tell(observer: ClientObserver | undefined, hear: (observer: ClientObserver) => void): void {
  if (!observer) return;
  try {
    hear(observer);
  } catch {
    // A metrics listener's failure is its own.
  }
}

/** The wire, telling `observer` how each request ended. */
export function observedWire(wire: Send, observer: ClientObserver): Send {
  return (exchange) => {
    const { api, endpoint } = exchange.call;
    const name = endpoint ?? OTHER_ENDPOINT;
    return wire(exchange).then(
      (result) => {
        tell(observer, (heard) => heard.requested?.({ api, endpoint: name, outcome: "ok" }));
        return result;
      },
      (error: unknown) => {
        tell(observer, (heard) => heard.requested?.({ api, endpoint: name, outcome: outcomeOf(error) }));
        throw error;
      },
    );
  };
}
