import type { MoreLoginClient } from "./client";
import { fetchAll, type PagingOptions } from "./paging";
import type { CallOptions } from "./stages";
import type { CloudBrowser } from "./types";

/** Archive states of a run that was told to stop: the browser is ending or has ended, though the row may still say RUNNING. */
const STOPPING_ARCHIVES: ReadonlySet<unknown> = new Set(["PENDING", "ARCHIVING", "FAILED"]);

/**
 * Whether a `cloudbrowser/page` row holds a cloud browser (and bills it): starting, or running and not
 * stopping. The specification reports a runtime that is stopping, archiving or failed to stop as
 * RUNNING; its archive status tells it apart from one that runs.
 */
export function holdsCloudBrowser(row: CloudBrowser | undefined): boolean {
  return row?.cloudBrowserStatus === "STARTING" || runsCloudBrowser(row);
}

/** A row told to stop: its archive pending, archiving or failed, though the row may still say RUNNING. */
export function isStoppingRow(row: CloudBrowser): boolean {
  return STOPPING_ARCHIVES.has(row.cloudBrowserArchiveStatus ?? null);
}

/** RUNNING and not stopping: a cloud browser that connects. */
export function runsCloudBrowser(row: CloudBrowser | undefined): boolean {
  return row?.cloudBrowserStatus === "RUNNING" && !isStoppingRow(row);
}

/** The page's row of one profile's cloud browser (undefined when the page has none), with the page call's request ID: one `page` call filtered by its ID. */
export async function readCloudBrowser(client: MoreLoginClient, envId: string, options: CallOptions): Promise<{ row?: CloudBrowser; requestId?: string }> {
  const { data, requestId } = await client.call("cloudBrowserPage", { pageNo: 1, pageSize: 10, envId }, options);
  return { row: data.dataList.find((row) => String(row.id) === envId), requestId };
}

/** Whether the profile's cloud browser is starting or running (not stopping). */
export async function cloudBrowserHeld(client: MoreLoginClient, envId: string, options: CallOptions): Promise<boolean> {
  return holdsCloudBrowser((await readCloudBrowser(client, envId, options)).row);
}

/** The profiles whose cloud browser is starting or running, from every page of `cloudbrowser/page` (one request per 100 profiles). */
export async function heldCloudBrowsers(client: MoreLoginClient, options: PagingOptions): Promise<{ ids: string[]; pages: number }> {
  const { items, pagesFetched } = await fetchAll(client, "cloudBrowserPage", {}, { maxItems: Number.POSITIVE_INFINITY, ...options });
  return { ids: items.filter(holdsCloudBrowser).map((row) => String(row.id)), pages: pagesFetched };
}
