import type { ApiGate } from "./api-gate";
import type { Capacities } from "./capacity-calls";
import type { ConcurrencyLimit } from "./concurrency";
import { tell, type ClientObserver } from "./observer";
import { readEnvelope, type ReadResult } from "./reply-reader";
import type { Exchange, PreparedCall, Send, Stage } from "./stages";
import type { PaceRole } from "./start-pace";
import type { Transport } from "./transport";
import type { ApiName } from "./types";
import type { BaseUrl } from "./urls";

/** A start first waits for a free profile or phone under the caps; a close frees one. */
export function capacityStage(capacities: Capacities): Stage {
  return { name: "capacity", through: (exchange, next) => capacities.run(exchange.call, exchange.options, () => next(exchange)) };
}

/** A long operation (start, power-on) waits for its place under `concurrency`; other calls pass. */
export function concurrencyStage(limit: ConcurrencyLimit): Stage {
  return {
    name: "concurrency",
    through: async (exchange, next) => {
      if (!exchange.call.limited) return next(exchange);
      const release = await limit.acquire(exchange.options, exchange.call);
      try {
        return await next(exchange);
      } finally {
        release();
      }
    },
  };
}

/**
 * Each request waits until the API's gate lets it through (pacing, a rate-limit hold), and tells the
 * gate when it is over; the call's `onRequest` hears of each request sent, `observer` of each wait.
 */
export function gateStage(gates: Record<ApiName, ApiGate>, observer?: ClientObserver): Stage {
  return {
    name: "gate",
    through: (exchange, next) => {
      const { api } = exchange.call;
      const gate = gates[api];
      const go = (): Promise<ReadResult> => {
        exchange.options.onRequest?.(api);
        return next(exchange).finally(() => gate.leave());
      };
      const waiting = gate.enter(exchange.options, exchange.resent, exchange.call, paceRoleOf(exchange.call));
      if (!waiting) return go();
      if (!observer) return waiting.then(go);
      const since = performance.now();
      return waiting.then(() => {
        tell(observer, (heard) => heard.paced?.(api, (performance.now() - since) / 1000));
        return go();
      });
    },
  };
}

/** Closes and power-offs free what starts and power-ons took: the gate lets them go first. */
function paceRoleOf(call: PreparedCall): PaceRole {
  const effect = call.capacity?.effect;
  if (effect === "take") return "start";
  return effect === "free" || effect === "freeAll" ? "release" : "other";
}

/** The end of every chain: the request on the wire, and its reply read as an envelope (or the typed error). */
export function sendAndRead(transport: Transport, bases: Record<ApiName, BaseUrl>, redact: (text: string) => string): Send {
  return ({ call, options, headers }: Exchange) => {
    const base = bases[call.api];
    return transport
      .send({
        api: call.api,
        origin: base.origin,
        method: call.method,
        path: base.basePath + call.path,
        displayPath: call.path,
        headers: call.json === undefined ? headers.plain : headers.json,
        body: call.json,
        timeoutMs: call.timeoutMs,
        signal: options.signal,
      })
      .then((response) =>
        readEnvelope(response, {
          api: call.api,
          method: call.method,
          path: call.path,
          allowBareJson: call.allowBareJson,
          wholeReply: call.wholeReply,
          replyFields: call.replyFields,
          redact,
        }),
      );
  };
}
