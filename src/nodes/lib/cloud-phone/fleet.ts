import { MoreLoginInputError, isPlainObjectValue, type CallOptions, type CloudPhoneDetail, type MoreLoginClient } from "../../../client";
import type { ActionContext, ActionRun } from "../shell/action-node";
import type { Translate } from "../shell/i18n";
import { leaseFor } from "../config/lease-seconds";
import { callOptions, checkApi, pollHint, reply } from "./reply";
import { PHONE_STATUS, POWER_WAIT_MS, waitForPower } from "./power";
import { pastReset, whenRunning } from "./reset-wait";
import { onePhoneBody, phoneIds } from "./target";
import { overlay, pick } from "../shell/properties";
import { seconds, waitUntil } from "../shell/wait";

/** Creating, changing and deleting cloud phones (both APIs, the Open API spec's `create`, `edit/batch`, `delete/batch`). */

/** A new phone is listed new (0) until it is provisioned: then off (2), or 1 when its creation failed. */
async function waitProvisioned(client: MoreLoginClient, options: CallOptions, id: string, t: Translate): Promise<CloudPhoneDetail> {
  const result = await waitUntil(options, POWER_WAIT_MS, (callOptions) => client.call("cloudPhoneInfo", { id }, callOptions), {
    reached: ({ data }) => data.envStatus !== PHONE_STATUS.new && data.envStatus !== PHONE_STATUS.creationFailed,
    failed: ({ data }) => (data.envStatus === PHONE_STATUS.creationFailed ? creationFailure(id, data.errorMsg, t) : undefined),
    describe: (last) =>
      t("morelogin-cloud-phone.error.notReady", {
        id,
        time: seconds(options.timeoutMs ?? POWER_WAIT_MS),
        status: last ? JSON.stringify(last.data.envStatus) : t("morelogin-cloud-phone.error.noStatus"),
      }),
    context: { api: options.api ?? "local" },
  });
  return result.data;
}

/** Why MoreLogin could not create the phone, with its own reason when it gave one. */
function creationFailure(id: string, errorMsg: unknown, t: Translate): string {
  return errorMsg ? t("morelogin-cloud-phone.error.notCreatedReason", { id, reason: String(errorMsg) }) : t("morelogin-cloud-phone.error.notCreated", { id });
}

/**
 * Powers a new phone on (taking its place under maxPhones only now, through the power-on's own cap)
 * with the node's lease (read before anything was sent), on disk before this answers; with `wait`, until it runs.
 */
async function powerOnCreated(context: ActionContext, options: CallOptions, id: string, wait: boolean, lease: number): Promise<CloudPhoneDetail | undefined> {
  await context.client.call("powerOnCloudPhone", { id }, options);
  if (lease > 0) context.client.leases.grant("phones", id, context.api, lease, context.node.id);
  await context.client.leases.flushed();
  return wait ? waitForPower(context.client, options, id, "powerOn", context.t) : undefined;
}

/**
 * `quantity` phones of the SKU (msg.payload's fields, when an object, over the node's). Without
 * `wait` or power-on it answers the new IDs at once, with `msg.poll`; otherwise each phone's info once
 * provisioned (and powered on, with both).
 */
export const create: ActionRun = async (context) => {
  checkApi(context, "createCloudPhones");
  const own = pick(context.fields, ["skuId", "quantity", "brand", "modelId", "envRemark"]);
  const body = isPlainObjectValue(context.msg.payload) ? overlay(own, context.msg.payload) : own;
  if (body.quantity === undefined) body.quantity = 1;
  const options = callOptions(context);
  // A lease that cannot be read fails the message before a phone is created, never after it is billed.
  const lease = context.def.powerOnCreated === true ? leaseFor(context.RED, context.def, context.msg) : 0;
  const result = await context.client.call("createCloudPhones", body, options);
  const ids = (Array.isArray(result.data) ? result.data : []).map(String);
  const wait = context.def.wait === true;
  const powerOn = context.def.powerOnCreated === true;
  if (!wait && !powerOn) {
    context.msg.poll = pollHint(
      "cloudPhoneInfo",
      context.api,
      ids.map((id) => ({ id })),
    );
    return reply(context, result, ids, ids, "morelogin-cloud-phone.status.create");
  }
  const phones = await Promise.all(
    ids.map(async (id) => {
      const ready = await waitProvisioned(context.client, options, id, context.t);
      return powerOn ? ((await powerOnCreated(context, options, id, wait, lease)) ?? ready) : ready;
    }),
  );
  delete context.msg.poll;
  return reply(context, result, phones, ids, powerOn && wait ? "morelogin-cloud-phone.status.createdRunning" : "morelogin-cloud-phone.status.create");
};

export const edit: ActionRun = async (context) => {
  checkApi(context, "editCloudPhones");
  const { ids, extra } = phoneIds(context.fields.phoneId, context.msg.payload, "id", context.t);
  const body = overlay({ id: ids, ...pick(context.fields, ["envName", "envRemark"]) }, extra ?? {});
  const result = await context.client.call("editCloudPhones", body, callOptions(context));
  return reply(context, result, result.data, ids, "morelogin-cloud-phone.status.edit");
};

/** One or many phones; a refusal while one resets (33331, 33327: right after newMachine) is waited out. */
export const remove: ActionRun = async (context) => {
  checkApi(context, "deleteCloudPhones");
  const { ids, extra } = phoneIds(context.fields.phoneId, context.msg.payload, "ids", context.t);
  const options = callOptions(context);
  const result = await pastReset(context.client, options, ids, (current) => context.client.call("deleteCloudPhones", overlay({ ids: current }, extra ?? {}), options), context.t);
  const done = reply(context, result, result.data, ids, "morelogin-cloud-phone.status.delete");
  const leases = context.client.leases.heldBy(context.node.id);
  return leases > 0 ? { ...done, summary: context.t("morelogin.status.withLeases", { text: done.summary, count: leases }) } : done;
};

/** The brands and models MoreLogin offers for a SKU (`brand/models`). */
export const models: ActionRun = async (context) => {
  checkApi(context, "cloudPhoneModels");
  const own = pick(context.fields, ["skuId"]);
  const body = isPlainObjectValue(context.msg.payload) ? overlay(own, context.msg.payload) : own;
  const result = await context.client.call("cloudPhoneModels", body, callOptions(context));
  return reply(context, result, result.data, [], "morelogin-cloud-phone.status.models");
};

/** Package names: a list, or text with one per line or comma. */
function packageList(value: unknown, t: Translate): string[] {
  if (Array.isArray(value)) return value.map(String);
  if (typeof value === "string")
    return value
      .split(/[\n,]/)
      .map((name) => name.trim())
      .filter((name) => name !== "");
  if (value === undefined) return [];
  throw new MoreLoginInputError(t("morelogin-cloud-phone.error.packageName"));
}

export const hideAccessibilityApps: ActionRun = async (context) => {
  checkApi(context, "hideCloudPhoneAccessibilityApps");
  const { ids, extra } = phoneIds(context.fields.phoneId, context.msg.payload, "ids", context.t);
  const body = overlay({ ids, packageName: packageList(context.fields.packageName, context.t) }, extra ?? {});
  const result = await context.client.call("hideCloudPhoneAccessibilityApps", body, callOptions(context));
  return reply(context, result, result.data, ids, "morelogin-cloud-phone.status.hideAccessibilityApps");
};

export const setKeyBox: ActionRun = async (context) => {
  checkApi(context, "setCloudPhoneKeyBox");
  const body = onePhoneBody(pick(context.fields, ["filePath"]), context.fields.phoneId, context.msg.payload, context.t);
  const result = await context.client.call("setCloudPhoneKeyBox", body, callOptions(context));
  return reply(context, result, result.data, [String(body.id)], "morelogin-cloud-phone.status.setKeyBox");
};

/** One-click new device; with `wait`, until the reset is over and the phone runs again (its info). */
export const newMachine: ActionRun = async (context) => {
  checkApi(context, "newCloudPhoneMachine");
  const body = onePhoneBody(pick(context.fields, ["brand", "modelId"]), context.fields.phoneId, context.msg.payload, context.t);
  const options = callOptions(context);
  const id = String(body.id);
  const wait = context.def.wait === true;
  const send = () => context.client.call("newCloudPhoneMachine", body, options);
  const result = wait ? await whenRunning(context.client, options, id, send, context.t) : await send();
  if (!wait) {
    context.msg.poll = pollHint("cloudPhoneInfo", context.api, [{ id }]);
    return reply(context, result, result.data, [id], "morelogin-cloud-phone.status.newMachine");
  }
  delete context.msg.poll;
  // Done once seen away from running (resetting) and back: an answer from before the reset began is not its end.
  return reply(context, result, await waitForPower(context.client, options, id, "restart", context.t), [id], "morelogin-cloud-phone.status.running");
};
