import type { MoreLoginClient } from "../../../client";
import { cloudProfileOf, connectCloudBrowser } from "../profile/cloud-browser";
import type { ProfileHandle } from "../shell/types";

/**
 * `msg.morelogin.profile` for a cloud browser the watch saw start, as the start node sets it
 * (`{envId, where: "cloud", cdpUrl, webSocketDebuggerUrl}`), so watch -> browser works for cloud
 * browsers too. One `connect` call per start seen; when it fails (the browser stopped meanwhile,
 * say), the message goes without a profile: the start did happen.
 */
export async function cloudProfileHandle(client: MoreLoginClient, envId: string, signal: AbortSignal): Promise<ProfileHandle | undefined> {
  try {
    const { address } = await connectCloudBrowser(client, envId, { signal });
    if (typeof address.cdpUrl !== "string" || address.cdpUrl === "") return undefined;
    return cloudProfileOf(envId, address);
  } catch (error) {
    if (signal.aborted) throw error;
    return undefined;
  }
}
