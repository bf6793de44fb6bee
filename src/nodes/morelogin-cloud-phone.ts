import type { NodeAPI } from "node-red";
import { MoreLoginResponseError, type CallResult, type EndpointName } from "../client";
import { registerActionNode, type ActionContext, type ActionRun } from "./lib/shell/action-node";
import type { PHONE_ACTIONS } from "./lib/declarations/cloud-phone";
import { NODE_DECLARATIONS } from "./lib/declarations/node-declarations";
import { checkApi, reply as replyWith } from "./lib/cloud-phone/reply";
import { create, edit, hideAccessibilityApps, models, newMachine, remove, setKeyBox } from "./lib/cloud-phone/fleet";
import { downloadFile, uploadFile } from "./lib/cloud-phone/files";
import { balance, webhook } from "./lib/cloud-phone/account";
import { waitForPower, type PowerAction } from "./lib/cloud-phone/power";
import { pastReset } from "./lib/cloud-phone/reset-wait";
import { onePhoneBody, phoneIds } from "./lib/cloud-phone/target";
import { overlay, pick } from "./lib/shell/properties";
import { leaseFor } from "./lib/config/lease-seconds";
import type { Translate } from "./lib/shell/i18n";

const declaration = NODE_DECLARATIONS["morelogin-cloud-phone"];

/** `summaryKey`: the status text when not the action's own (where a waited power action left the phone). */
function reply(context: ActionContext, result: CallResult<unknown>, payload: unknown, ids: readonly string[], summaryKey?: string) {
  return replyWith(context, result, payload, ids, summaryKey ?? `morelogin-cloud-phone.status.${context.action}`);
}

/** An action on one phone; `own` gives the node's own fields for it. */
function onePhone(endpoint: EndpointName, own: (context: ActionContext) => Record<string, unknown> = () => ({})): ActionRun {
  return async (context) => {
    checkApi(context, endpoint);
    const body = onePhoneBody(own(context), context.fields.phoneId, context.msg.payload, context.t);
    const result = await context.client.call(endpoint, body, { ...context.options, api: context.api });
    return reply(context, result, result.data, [String(body.id)]);
  };
}

/** Power on, off or restart; with `wait`, until the phone is there, replying its info. */
function power(endpoint: EndpointName, action: PowerAction): ActionRun {
  return async (context) => {
    checkApi(context, endpoint);
    const body = onePhoneBody({}, context.fields.phoneId, context.msg.payload, context.t);
    const lease = action === "powerOff" ? 0 : leaseFor(context.RED, context.def, context.msg);
    const options = { ...context.options, api: context.api };
    const id = String(body.id);
    // A power-off right after newMachine can be refused while the phone resets: waited out (MoreLogin's skill).
    const send = () => context.client.call(endpoint, body, options);
    const result = action === "powerOff" ? await pastReset(context.client, options, [id], send, context.t) : await send();
    // The lease starts when the power-on (restart) is answered; another one renews it.
    if (lease > 0) context.client.leases.grant("phones", id, context.api, lease, context.node.id);
    await context.client.leases.flushed();
    const done =
      context.def.wait === true
        ? reply(
            context,
            result,
            await waitForPower(context.client, options, id, action, context.t),
            [id],
            action === "powerOff" ? "morelogin-cloud-phone.status.stopped" : "morelogin-cloud-phone.status.running",
          )
        : reply(context, result, result.data, [id]);
    // Like the start node, a node that holds leases says how many (a power-off through it may have ended one).
    const leases = context.client.leases.heldBy(context.node.id);
    return leases > 0 ? { ...done, summary: context.t("morelogin.status.withLeases", { text: done.summary, count: leases }) } : done;
  };
}

function adb(enableAdb: boolean): ActionRun {
  return async (context) => {
    const { ids, extra } = phoneIds(context.fields.phoneId, context.msg.payload, "ids", context.t);
    const body = overlay({ ids, enableAdb }, extra ?? {});
    const result = await context.client.call("setCloudPhoneAdb", body, { ...context.options, api: context.api });
    return reply(context, result, result.data, ids);
  };
}

/** `data:image/png;base64,...` to the PNG's bytes. */
function pngOf(result: CallResult<{ captureBase64?: unknown; success?: unknown; errorMessage?: unknown }>, t: Translate): Buffer {
  const capture = result.data?.captureBase64;
  const match = typeof capture === "string" ? /^data:image\/png;base64,(.*)$/s.exec(capture) : null;
  if (!match || result.data.success === false) {
    const reason = typeof result.data?.errorMessage === "string" ? result.data.errorMessage : t("morelogin-cloud-phone.error.noPng");
    throw new MoreLoginResponseError(t("morelogin-cloud-phone.error.screenCapture", { reason }), { api: result.api, path: result.path, requestId: result.requestId });
  }
  return Buffer.from(match[1] ?? "", "base64");
}

const ACTIONS = {
  powerOn: power("powerOnCloudPhone", "powerOn"),
  powerOff: power("powerOffCloudPhone", "powerOff"),
  restart: power("restartCloudPhone", "restart"),
  info: onePhone("cloudPhoneInfo"),
  enableAdb: adb(true),
  disableAdb: adb(false),
  async adbInfo(context: ActionContext) {
    checkApi(context, "cloudPhoneAdbInfo");
    const { ids, extra } = phoneIds(context.fields.phoneId, context.msg.payload, "envIds", context.t);
    const result = await context.client.call("cloudPhoneAdbInfo", overlay({ envIds: ids }, extra ?? {}), context.options);
    // One phone asked for, one row back: the row itself, as the other one-phone actions reply.
    const rows = Array.isArray(result.data) ? result.data : [];
    const oneAsked = ids.length === 1 && !Array.isArray(context.msg.payload);
    return reply(context, result, oneAsked ? (rows[0] ?? null) : result.data, ids);
  },
  shell: onePhone("cloudPhoneShell", ({ fields }) => pick(fields, ["command"])),
  installApp: onePhone("installCloudPhoneApp", ({ fields }) => pick(fields, ["appVersionId", "packageName"])),
  startApp: onePhone("startCloudPhoneApp", ({ fields }) => pick(fields, ["packageName"])),
  stopApp: onePhone("stopCloudPhoneApp", ({ fields }) => pick(fields, ["packageName"])),
  restartApp: onePhone("restartCloudPhoneApp", ({ fields }) => pick(fields, ["packageName"])),
  uninstallApp: onePhone("uninstallCloudPhoneApp", ({ fields }) => pick(fields, ["packageName"])),
  newMachine,
  async screenshot(context: ActionContext) {
    checkApi(context, "cloudPhoneScreenshot");
    const body = onePhoneBody({}, context.fields.phoneId, context.msg.payload, context.t);
    const result = await context.client.call("cloudPhoneScreenshot", body, context.options);
    return reply(context, result, pngOf(result, context.t), [String(body.id)]);
  },
  create,
  edit,
  delete: remove,
  models,
  setKeyBox,
  hideAccessibilityApps,
  uploadFile,
  downloadFile,
  balance,
  webhook,
} satisfies Record<(typeof PHONE_ACTIONS)[number], ActionRun>;

export = (RED: NodeAPI): void => {
  registerActionNode(RED, declaration, ACTIONS);
};
