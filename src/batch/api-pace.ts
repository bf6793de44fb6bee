import type { Pace } from "./pace";

/** The APIs a MoreLogin node records its requests for on `msg.morelogin.batch`. */
const APIS = ["local", "open"] as const;
type Api = (typeof APIS)[number];

/**
 * What the MoreLogin nodes an item went through record on its `msg.morelogin.batch`: the requests they
 * sent to each API for it, and the requests a minute their config node lets through to that API.
 */
export interface ItemRequests {
  requests?: Partial<Record<Api, number>>;
  perMinute?: Partial<Record<Api, number>>;
}

/**
 * The rate the API budget allows a batch: per API, the budget a minute ÷ the requests an item has made
 * on average so far; the slowest API bounds the batch. Items that made no request count too (they
 * lower the average); an API without pacing (0) bounds nothing.
 */
export class ApiPace {
  private items = 0;
  private readonly requests: Record<Api, number> = { local: 0, open: 0 };
  private readonly budget: Partial<Record<Api, number>> = {};

  /** An item came back with what its nodes recorded (anything else counts as no request). */
  ended(tag: ItemRequests): void {
    this.items++;
    for (const api of APIS) {
      const sent = tag.requests?.[api];
      if (typeof sent === "number" && Number.isFinite(sent) && sent > 0) this.requests[api] += sent;
      const perMinute = tag.perMinute?.[api];
      if (typeof perMinute === "number" && Number.isFinite(perMinute) && perMinute > 0) this.budget[api] = Math.min(this.budget[api] ?? perMinute, perMinute);
    }
  }

  /** Items a minute the budget allows; undefined while no item has sent a paced request. */
  perMinute(): number | undefined {
    let bound: number | undefined;
    for (const api of APIS) {
      const budget = this.budget[api];
      const requests = this.requests[api];
      if (budget === undefined || requests === 0) continue;
      const items = (budget * this.items) / requests;
      bound = bound === undefined ? items : Math.min(bound, items);
    }
    return bound;
  }
}

/** The time left and the rate it is counted at: the slower of the recent rate and the API budget's. */
export interface BatchEta {
  etaMs: number | null;
  perMinute: number;
  /** The API budget's items a minute, when it is the slower rate (the batch goes at the API's pace). */
  pacedPerMinute: number | null;
}

export function batchEta(pace: Pace, apiPace: ApiPace, left: number, now: number): BatchEta {
  const recent = pace.perMinute(now);
  const bound = apiPace.perMinute();
  const paced = bound !== undefined && (recent === 0 || bound < recent);
  const rate = paced ? bound : recent;
  const etaMs = left === 0 ? 0 : rate > 0 ? Math.round((left / rate) * 60_000) : null;
  return { etaMs, perMinute: recent, pacedPerMinute: paced ? Math.round(bound * 10) / 10 : null };
}
