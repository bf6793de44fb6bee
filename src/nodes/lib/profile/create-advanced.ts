import { fetchAll, MoreLoginApiError, type CallOptions, type MoreLoginClient, type Profile } from "../../../client";
import type { ActionContext } from "../shell/action-node";
import type { OperationResult } from "../shell/operation-node";
import { single } from "../shell/output";
import { withoutSecrets } from "../shell/secrets";
import { provisionBody } from "./provision";

const PATH = "/api/env/create/advanced";

/** The profile whose name is exactly `envName` (MoreLogin's name filter matches parts of names too). */
async function profileNamed(client: MoreLoginClient, envName: string, options: CallOptions): Promise<Profile | undefined> {
  const { items } = await fetchAll(client, "listProfiles", { envName }, options);
  return items.find((profile) => profile.envName === envName);
}

/**
 * The profile that made a named create fail, if any: MoreLogin refuses a name in use without a code
 * of its own (the spec: the call "fails on the uniqueness check"), so any refusal of a create that
 * names a profile is checked against the list; when a profile has exactly that name, that profile is
 * the answer. A failed look-up leaves the refusal as it was.
 */
async function existingFor(client: MoreLoginClient, envName: string | undefined, error: unknown, options: CallOptions): Promise<Profile | undefined> {
  if (envName === undefined || !(error instanceof MoreLoginApiError)) return undefined;
  try {
    return await profileNamed(client, envName, options);
  } catch {
    return undefined;
  }
}

/**
 * createAdvanced (按设置创建): one profile with every setting the node and the message give. The reply's
 * msg.payload and msg.topic are its ID; `msg.morelogin.existed` is true when a profile of that name was
 * there already (exactly once by name), false when this call created it.
 */
export async function createAdvanced(context: ActionContext): Promise<OperationResult> {
  const { client, options, msg, t } = context;
  const { body, secrets, envName } = provisionBody(context);
  let envId: string;
  let info: { api: string; path: string; requestId?: string; existed: boolean };
  try {
    const result = await withoutSecrets(secrets, () => client.call("createAdvanced", body, options));
    envId = String(result.data);
    info = { api: result.api, path: result.path, requestId: result.requestId, existed: false };
  } catch (error) {
    const existing = await existingFor(client, envName, error, options);
    if (!existing) throw error;
    envId = existing.id;
    info = { api: "local", path: PATH, requestId: error instanceof MoreLoginApiError ? error.requestId : undefined, existed: true };
  }
  msg.topic = envId;
  return { messages: single(msg, envId, info), summary: t(info.existed ? "morelogin-profile.status.existed" : "morelogin-profile.status.createAdvanced") };
}
