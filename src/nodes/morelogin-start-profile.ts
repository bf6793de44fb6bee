import type { NodeAPI } from "node-red";
import { MoreLoginApiError, type CallOptions, type MoreLoginClient } from "../client";
import type { Translate } from "./lib/shell/i18n";
import { registerOperationNode } from "./lib/shell/operation-node";
import { single } from "./lib/shell/output";
import { isDecimalId, profileBody, requireProfile } from "./lib/profile/body";
import { browserAddress, profileHandle } from "./lib/profile/handle";
import { bodyFields } from "./lib/declarations/declaration";
import { NODE_DECLARATIONS } from "./lib/declarations/node-declarations";
import { fieldsToBody } from "./lib/shell/properties";
import { leaseFor } from "./lib/config/lease-seconds";
import { startInCloud } from "./lib/profile/cloud-runs";
import { whereOf } from "./lib/profile/where";

const declaration = NODE_DECLARATIONS["morelogin-start-profile"];
const fields = bodyFields(declaration);
/** Refusals whose published meaning is not a lock: no such profile, a field MoreLogin could not take, a token missing or wrong. */
const NOT_A_LOCK: ReadonlySet<number> = new Set([101, 99001, 10001, 10009, 35001, 35002]);

/**
 * MoreLogin publishes no code for refusing to start a locked profile (its security lock), so after any
 * other refusal the node asks lock/query, and when the profile is locked the error says so. The
 * question's own failure leaves the refusal as it was.
 */
async function lockedRefusal(client: MoreLoginClient, envId: unknown, refusal: unknown, options: CallOptions, t: Translate): Promise<unknown> {
  if (!(refusal instanceof MoreLoginApiError) || refusal.code === undefined || NOT_A_LOCK.has(refusal.code) || !isDecimalId(envId)) return refusal;
  const lock = await client.call("profileLock", { envId: envId.trim() }, { signal: options.signal, onRequest: options.onRequest }).catch(() => undefined);
  if (lock?.data.locked !== true) return refusal;
  const { api, method, path, status, code, apiMsg, requestId } = refusal;
  return new MoreLoginApiError(`${refusal.message.replace(/\.$/, "")}. ${t("morelogin-start-profile.error.locked")}`, { api, method, path, status, code, apiMsg, requestId });
}

export = (RED: NodeAPI): void => {
  registerOperationNode(RED, declaration.type, {
    label: declaration.label,
    async run({ node, def, msg, client, options, t }) {
      const ownFields = await fieldsToBody(RED, node, def, msg, fields);
      if (def.isHeadless === true) ownFields.isHeadless = true;
      if (def.cdpEvasion === true) ownFields.cdpEvasion = true;
      const body = profileBody(ownFields, msg.payload);
      requireProfile(body, msg.payload, t);
      const lease = leaseFor(RED, def, msg);
      if (whereOf(declaration, def, body, msg, false) === "cloud") return startInCloud({ node, def, msg, client, options, t, RED }, body, lease);

      const result = await client.call("startProfile", body, options).catch(async (refusal: unknown) => {
        throw await lockedRefusal(client, body.envId, refusal, options, t);
      });
      const address = await browserAddress(client, result.data.debugPort);
      if (!address.cdpUrl) node.warn(t("morelogin.warnings.noDebugPort"));
      else if (!address.webSocketDebuggerUrl) node.warn(t("morelogin.warnings.noWebSocket", { cdpUrl: address.cdpUrl }));
      const envId = String(result.data.envId ?? body.envId ?? "");
      msg.topic = envId;
      const profile = profileHandle(envId, result.data.debugPort, address);
      // A lease starts when the start is answered; a start of a profile that runs already renews it.
      if (lease > 0 && envId !== "") profile.leaseUntil = new Date(client.leases.grant("profiles", envId, "local", lease, node.id)).toISOString();
      // The reply leaves only once the lease (or its end, for lease 0) is written down.
      await client.leases.flushed();
      const leases = client.leases.heldBy(node.id);
      return {
        messages: single(msg, { ...result.data, ...address }, { api: result.api, path: result.path, requestId: result.requestId, profile }),
        summary: leases > 0 ? t("morelogin.status.startedLeases", { port: result.data.debugPort, count: leases }) : t("morelogin.status.started", { port: result.data.debugPort }),
      };
    },
  });
};
