import { isPlainObjectValue, type ApiName, type MoreLoginClient } from "../../../client";
import type { MoreLoginMessage } from "./types";

/** One message's requests, counted as its call sends them, and recorded on its batch tag when it ends. */
export interface ItemRequests {
  onRequest?: (api: ApiName) => void;
  record(): void;
}

/**
 * Counts the requests one message's call sends to each API and, when the message is a batch's item,
 * adds them to `msg.morelogin.batch.requests` with the config node's budget (`perMinute`): what the
 * batch needs to know the pace the API allows it (see batch/api-pace.ts).
 */
export function itemRequests(msg: MoreLoginMessage, client: MoreLoginClient | undefined): ItemRequests {
  const tag = msg.morelogin?.batch;
  if (!isPlainObjectValue(tag) || !client) return { record: () => undefined };
  const sent: Partial<Record<ApiName, number>> = {};
  return {
    onRequest: (api) => {
      sent[api] = (sent[api] ?? 0) + 1;
    },
    record: () => {
      const requests = isPlainObjectValue(tag.requests) ? (tag.requests as Partial<Record<ApiName, number>>) : {};
      const perMinute = isPlainObjectValue(tag.perMinute) ? (tag.perMinute as Partial<Record<ApiName, number>>) : {};
      for (const [api, count] of Object.entries(sent) as Array<[ApiName, number]>) {
        requests[api] = (typeof requests[api] === "number" ? (requests[api] as number) : 0) + count;
        perMinute[api] = client.requestsPerMinute(api);
      }
      tag.requests = requests;
      tag.perMinute = perMinute;
    },
  };
}
