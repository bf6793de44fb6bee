import { isPlainObjectValue } from "../../../client";
import { selectField, selected } from "../declarations/declaration";
import { NODE_DECLARATIONS } from "../declarations/node-declarations";
import type { ActionContext, ActionRun } from "../shell/action-node";
import { single } from "../shell/output";
import { overlay } from "../shell/properties";
import { callOptions, checkApi } from "./reply";

/** The team's account, on the cloud phone node because MoreLogin documents its wallet with the cloud phones' billing. */

const webhookEnabled = selectField(NODE_DECLARATIONS["morelogin-cloud-phone"], "webhookEnabled");

const meta = (result: { api: string; path: string; requestId?: string }) => ({ api: result.api, path: result.path, requestId: result.requestId });

/** The wallet as MoreLogin answers it (`{balance, remainingDuration, remainingConcurrency}`, balance in cents); the status shows it. */
export const balance: ActionRun = async (context: ActionContext) => {
  checkApi(context, "balance");
  const result = await context.client.call("balance", undefined, callOptions(context));
  const cents = Number(isPlainObjectValue(result.data) ? result.data.balance : Number.NaN);
  return {
    messages: single(context.msg, result.data, meta(result)),
    summary: context.t("morelogin-cloud-phone.status.balance", { amount: Number.isFinite(cents) ? (cents / 100).toFixed(2) : "?" }),
  };
};

/** Sets the team's webhook: the node's address and on/off, an object msg.payload laid over them. */
export const webhook: ActionRun = async (context: ActionContext) => {
  checkApi(context, "webhookConfig");
  const own = { callbackUrl: context.fields.callbackUrl, enabled: webhookEnabled === undefined || selected(context.def, webhookEnabled) !== "off" };
  const body = isPlainObjectValue(context.msg.payload) ? overlay(own, context.msg.payload) : own;
  const result = await context.client.call("webhookConfig", body, callOptions(context));
  const enabled = isPlainObjectValue(result.data) ? result.data.enabled !== false : body.enabled !== false;
  return { messages: single(context.msg, result.data, meta(result)), summary: context.t(enabled ? "morelogin-cloud-phone.status.webhook" : "morelogin-cloud-phone.status.webhookOff") };
};
