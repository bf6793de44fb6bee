import type { CallOptions, MoreLoginClient } from "./client";
import { ENDPOINTS, MAX_PAGE_SIZE, type ItemOf, type PagedEndpointName } from "./endpoints";
import { MoreLoginResponseError } from "./errors";
import type { CallResult, Page } from "./types";

export interface PagingOptions extends CallOptions {
  /** Stop once this many items have been collected (default 10,000). */
  maxItems?: number;
}

export const DEFAULT_MAX_ITEMS = 10_000;

/**
 * Every page of a list endpoint, in order, from the page the query names (default 1). Uses the
 * endpoint's own page field (`pageNo` or `pageNum`) and the largest page size unless the query sets
 * one; ends at the reply's `pages` (a decimal string), on an empty page, or when the caller stops.
 */
export async function* iteratePages<K extends PagedEndpointName>(
  client: MoreLoginClient,
  endpoint: K,
  query: Record<string, unknown> = {},
  options: CallOptions = {},
): AsyncGenerator<CallResult<Page<ItemOf<K>>>> {
  const field = ENDPOINTS[endpoint].pageField;
  const firstPage = query[field] === undefined || query[field] === "" ? 1 : Number(query[field]);
  const pageSize = query.pageSize === undefined || query.pageSize === "" ? MAX_PAGE_SIZE : query.pageSize;
  for (let pageNumber = firstPage; ; pageNumber++) {
    const result = await client.call(endpoint, { ...query, [field]: pageNumber, pageSize }, options);
    const page = result.data as unknown as Page<ItemOf<K>>;
    if (!page || !Array.isArray(page.dataList)) {
      throw new MoreLoginResponseError(`the reply to page ${pageNumber} has no dataList array`, {
        api: result.api,
        path: result.path,
        requestId: result.requestId,
      });
    }
    yield { ...result, data: page };
    const pages = Number(page.pages);
    if (page.dataList.length === 0 || !Number.isFinite(pages) || pageNumber >= pages) return;
  }
}

export interface CollectedItems<T> {
  items: T[];
  pagesFetched: number;
  /** True when maxItems stopped the walk before the last page. */
  truncated: boolean;
  requestId?: string;
}

/** Collects the items of every page, up to `maxItems`. */
export async function fetchAll<K extends PagedEndpointName>(
  client: MoreLoginClient,
  endpoint: K,
  query: Record<string, unknown> = {},
  options: PagingOptions = {},
): Promise<CollectedItems<ItemOf<K>>> {
  const maxItems = options.maxItems ?? DEFAULT_MAX_ITEMS;
  const collected: CollectedItems<ItemOf<K>> = { items: [], pagesFetched: 0, truncated: false };
  for await (const page of iteratePages(client, endpoint, query, options)) {
    collected.pagesFetched++;
    collected.requestId = page.requestId;
    for (const item of page.data.dataList) {
      if (collected.items.length >= maxItems) {
        collected.truncated = true;
        return collected;
      }
      collected.items.push(item);
    }
    if (collected.items.length >= maxItems && Number(page.data.pages) > Number(page.data.current)) {
      collected.truncated = true;
      return collected;
    }
  }
  return collected;
}
