import { MoreLoginApiError, MoreLoginInputError, readCloudBrowser, runsCloudBrowser, type CloudBrowser } from "../../../client";
import type { OperationContext, OperationResult } from "../shell/operation-node";
import { isChecked } from "../shell/checkbox";
import { single } from "../shell/output";
import type { ProfileHandle } from "../shell/types";
import { seconds, waitUntil } from "../shell/wait";
import { CLOUD_START_DEFAULT_MS, cloudProfileOf, connectCloudBrowser, describeRow, startCloudBrowser } from "./cloud-browser";

/** What start, close and status do with a cloud browser: the body they built, for the profile it names. */
type CloudRun = (context: OperationContext, body: Record<string, unknown>) => Promise<OperationResult>;

/** How long status's `waitFor` waits when the node's timeout is blank: as long as a cloud start. */
const WAIT_DEFAULT_MS = 120_000;
const PAGE = "/api/cloudbrowser/page";

/** The profile ID a cloud call needs: cloudbrowser routes take `envId` only (no serial `uniqueId`). */
function cloudEnvId(body: Record<string, unknown>): string {
  const envId = body.envId;
  if (envId === undefined || envId === null || String(envId).trim() === "") throw new MoreLoginInputError("a cloud browser is named by envId (its profile's ID), not by uniqueId");
  return String(envId).trim();
}

/**
 * Start: cloudbrowser/start, wait until RUNNING, connect. msg.payload `{envId, cdpUrl, accessUrl, where: "cloud"}`
 * (+ webSocketDebuggerUrl). With a lease (`lease` seconds, 0 = none) the lease is granted as soon as
 * MoreLogin takes the start, for the wait's timeout and the lease (so a wait that fails leaves nothing
 * running for longer), and given again, the lease alone, once the browser runs: the flow has the lease's
 * time with a running browser. The reply leaves once the lease is written down.
 */
export async function startInCloud({ node, msg, client, options, t }: OperationContext, body: Record<string, unknown>, lease: number): Promise<OperationResult> {
  const envId = cloudEnvId(body);
  const { isHeadless: _headless, cdpEvasion: _evasion, uniqueId: _serial, ...startBody } = body;
  const waitSeconds = Math.ceil((options.timeoutMs ?? CLOUD_START_DEFAULT_MS) / 1000);
  await startCloudBrowser(client, envId, { ...startBody, envId }, options, t, (already) => {
    // A start refused because the browser runs already opens no session in the book: enter one, as a
    // local start of a running profile does (ending an earlier lease; lease 0 leaves none).
    if (already) client.leases.noted({ kind: "cloudBrowsers", effect: "take" }, "local", envId);
    if (lease > 0) client.leases.grant("cloudBrowsers", envId, "local", waitSeconds + lease, node.id);
  });
  const leaseUntil = lease > 0 ? new Date(client.leases.grant("cloudBrowsers", envId, "local", lease, node.id)).toISOString() : undefined;
  await client.leases.flushed();
  const { address, requestId } = await connectCloudBrowser(client, envId, options);
  msg.topic = envId;
  const profile: ProfileHandle = { ...cloudProfileOf(envId, address), ...(leaseUntil ? { leaseUntil } : {}) };
  const leases = client.leases.heldBy(node.id);
  return {
    messages: single(msg, { ...address, envId, where: "cloud" }, { api: "local", path: "/api/cloudbrowser/connect", requestId, profile }),
    summary: leases > 0 ? t("morelogin.status.cloudRunningLeases", { count: leases }) : t("morelogin.status.cloudRunning"),
  };
}

/** Close: cloudbrowser/stop `{envId, force}`; msg.morelogin.profile of that profile is dropped. */
export const stopInCloud: CloudRun = async ({ msg, client, options, t }, body) => {
  const envId = cloudEnvId(body);
  const { uniqueId: _serial, ...stopBody } = body;
  const result = await client.call("cloudBrowserStop", { ...stopBody, envId, force: isChecked(stopBody.force) }, options);
  msg.topic = envId;
  const messages = single(msg, { envId, where: "cloud" }, { api: result.api, path: result.path, requestId: result.requestId });
  forgetProfile(msg.morelogin, envId);
  return { messages, summary: t("morelogin.status.cloudClosed") };
};

/**
 * Status: the page's row, `{envId, where: "cloud", status, archiveStatus, startDate}`. `waitFor` running
 * waits for RUNNING, stopped for CLOSED (and its archive no longer PENDING or ARCHIVING: saved or failed).
 */
export function cloudStatus(waitFor: string): CloudRun {
  return async ({ msg, client, options, t }, body) => {
    const envId = cloudEnvId(body);
    let requestId: string | undefined;
    const read = async (callOptions: typeof options): Promise<CloudBrowser | undefined> => {
      const answer = await readCloudBrowser(client, envId, callOptions);
      requestId = answer.requestId;
      return answer.row;
    };
    const row = waitFor
      ? await waitUntil(options, WAIT_DEFAULT_MS, read, {
          reached: (seen) => (waitFor === "running" ? isRunning(seen) : isStopped(seen)),
          describe: (last) =>
            t(waitFor === "running" ? "morelogin.cloud.notRunning" : "morelogin.cloud.notStopped", {
              id: envId,
              time: seconds(options.timeoutMs ?? WAIT_DEFAULT_MS),
              state: last === undefined ? t("morelogin.cloud.noState") : describeRow(last, t),
            }),
          context: { api: "local", path: PAGE },
        })
      : await read(options);
    if (!row) throw new MoreLoginApiError(t("morelogin.cloud.noRowFor", { id: envId }), { api: "local", method: "POST", path: PAGE });
    msg.topic = envId;
    const payload = { envId, where: "cloud", status: row.cloudBrowserStatus, archiveStatus: row.cloudBrowserArchiveStatus ?? null, startDate: row.startDate ?? null };
    const messages = single(msg, payload, { api: "local", path: PAGE, requestId });
    if (!isRunning(row)) forgetProfile(msg.morelogin, envId);
    return { messages, summary: String(row.cloudBrowserStatus) };
  };
}

const isRunning = runsCloudBrowser;
const isStopped = (row: CloudBrowser | undefined): boolean => row?.cloudBrowserStatus === "CLOSED" && row.cloudBrowserArchiveStatus !== "PENDING" && row.cloudBrowserArchiveStatus !== "ARCHIVING";

/** A closed browser's address leads nowhere: the profile the message carries goes, and the tab an earlier browser node used. */
function forgetProfile(info: { profile?: ProfileHandle; page?: unknown } | undefined, envId: string): void {
  if (info && info.profile?.envId === envId) {
    delete info.profile;
    delete info.page;
  }
}
