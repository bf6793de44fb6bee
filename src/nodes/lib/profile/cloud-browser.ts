import { fetchWebSocketDebuggerUrl, isStoppingRow, MoreLoginApiError, readCloudBrowser, runsCloudBrowser, type CallOptions, type CloudBrowser, type MoreLoginClient } from "../../../client";
import type { Translate } from "../shell/i18n";
import type { ProfileHandle } from "../shell/types";
import { seconds, waitUntil } from "../shell/wait";

/** How long a cloud start waits for RUNNING when the node's timeout is blank: MoreLogin provisions a machine, as for a phone's power-on. */
export const CLOUD_START_DEFAULT_MS = 120_000;
const PAGE = "/api/cloudbrowser/page";

/** The page's row of one profile's cloud browser, or undefined when the page has none. */
async function cloudBrowserRow(client: MoreLoginClient, envId: string, options: CallOptions): Promise<CloudBrowser | undefined> {
  return (await readCloudBrowser(client, envId, options)).row;
}

/** A row's state in a few words: `"STARTING"`, `"CLOSED" (archive FAILED)`, or that there was none. */
export function describeRow(row: CloudBrowser | undefined, t: Translate): string {
  if (!row) return t("morelogin.cloud.noRow");
  const archive = row.cloudBrowserArchiveStatus;
  return `${JSON.stringify(row.cloudBrowserStatus)}${archive ? ` (${t("morelogin.cloud.archive", { status: String(archive) })})` : ""}`;
}

/**
 * Starts the profile's cloud browser and waits until its row says RUNNING (backing off 1 s to 5 s).
 * A start MoreLogin refuses while the browser is starting or running already is no failure: the wait
 * follows. Any other refusal of a profile without a proxy says that a cloud browser needs one. The wait
 * fails at once when the row shows CLOSED after it was starting (or CLOSED with a failed archive), and
 * with kind `timeout`, naming the last state seen, when the timeout runs out. `started` is told once
 * MoreLogin has taken the start (or said the browser starts or runs already), before the wait.
 */
export async function startCloudBrowser(
  client: MoreLoginClient,
  envId: string,
  body: Record<string, unknown>,
  options: CallOptions,
  t: Translate,
  started: (already: boolean) => void = () => undefined,
): Promise<CloudBrowser> {
  // Seen STARTING already (a start refused because one is under way): CLOSED from then on means it stopped.
  let wasStarting = await client.call("cloudBrowserStart", body, options).then(
    () => {
      started(false);
      return false;
    },
    async (refusal: unknown) => {
      if (!(refusal instanceof MoreLoginApiError)) throw refusal;
      const row = await cloudBrowserRow(client, envId, { signal: options.signal, onRequest: options.onRequest }).catch(() => undefined);
      // Told to stop, its row still says RUNNING (the spec) until its archive is done.
      if (row?.cloudBrowserStatus === "RUNNING" && isStoppingRow(row)) throw withHint(refusal, t("morelogin.cloud.stopping", { state: describeRow(row, t) }));
      if (row?.cloudBrowserStatus === "STARTING" || row?.cloudBrowserStatus === "RUNNING") {
        started(true);
        return row.cloudBrowserStatus === "STARTING";
      }
      if (row && hasNoProxy(row)) throw withHint(refusal, t("morelogin.cloud.noProxy"));
      throw refusal;
    },
  );
  return waitUntil(options, CLOUD_START_DEFAULT_MS, async (callOptions) => cloudBrowserRow(client, envId, callOptions), {
    reached: runsCloudBrowser,
    failed: (row) => {
      if (row?.cloudBrowserStatus === "STARTING") wasStarting = true;
      if (row?.cloudBrowserStatus !== "CLOSED") return undefined;
      if (row.cloudBrowserArchiveStatus === "FAILED") return t("morelogin.cloud.archiveFailed", { id: envId });
      return wasStarting ? t("morelogin.cloud.closedAgain", { id: envId, state: describeRow(row, t) }) : undefined;
    },
    describe: (last) =>
      t("morelogin.cloud.notRunning", { id: envId, time: seconds(options.timeoutMs ?? CLOUD_START_DEFAULT_MS), state: last === undefined ? t("morelogin.cloud.noState") : describeRow(last, t) }),
    context: { api: "local", path: PAGE },
  }) as Promise<CloudBrowser>;
}

/** A row without a proxy: null or blank, or "0" as MoreLogin's profiles name "no proxy". */
function hasNoProxy(row: CloudBrowser): boolean {
  return row.proxyId === null || row.proxyId === undefined || row.proxyId === "" || row.proxyId === "0";
}

/** The refusal with a sentence added, keeping MoreLogin's code and msg for msg.morelogin.error. */
function withHint(refusal: MoreLoginApiError, hint: string): MoreLoginApiError {
  const { api, method, path, status, code, apiMsg, requestId } = refusal;
  return new MoreLoginApiError(`${refusal.message.replace(/\.$/, "")}. ${hint}`, { api, method, path, status, code, apiMsg, requestId });
}

/** What a started cloud browser replies: connect's URLs (each with its token) and, when `/json/version` names one, the DevTools WebSocket URL. */
export interface CloudAddress {
  cdpUrl: string;
  accessUrl?: string | null;
  webSocketDebuggerUrl?: string;
  [field: string]: unknown;
}

/** msg.morelogin.profile of a connected cloud browser, as a cloud start sets it and a watch of cloud browsers does. */
export function cloudProfileOf(envId: string, address: CloudAddress): ProfileHandle {
  return { envId, where: "cloud", cdpUrl: address.cdpUrl, ...(address.webSocketDebuggerUrl ? { webSocketDebuggerUrl: address.webSocketDebuggerUrl } : {}) };
}

/**
 * Connects to a running cloud browser: `cdpUrl` and `accessUrl` from MoreLogin, and the WebSocket URL
 * its `/json/version` gives (asked with cdpUrl's token in the query; a WebSocket URL without a token
 * is taken as given, never given one).
 */
export async function connectCloudBrowser(client: MoreLoginClient, envId: string, options: CallOptions): Promise<{ address: CloudAddress; requestId?: string }> {
  const result = await client.call("cloudBrowserConnect", { envId }, options);
  const { data } = result;
  const webSocketDebuggerUrl = typeof data.cdpUrl === "string" && data.cdpUrl !== "" ? await fetchWebSocketDebuggerUrl(data.cdpUrl) : undefined;
  return { address: { ...data, ...(webSocketDebuggerUrl ? { webSocketDebuggerUrl } : {}) }, requestId: result.requestId };
}
