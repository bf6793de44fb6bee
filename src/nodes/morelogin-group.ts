import type { NodeAPI } from "node-red";
import { isPlainObjectValue } from "../client";
import { registerActionNode, type ActionContext } from "./lib/action-node";
import { targetIds } from "./lib/ids";
import { NODE_DECLARATIONS, type GROUP_ACTIONS } from "./lib/node-declarations";
import { overlay, pick } from "./lib/properties";
import { resourceReply } from "./lib/resource-reply";

const declaration = NODE_DECLARATIONS["morelogin-group"];
const statusKey = (context: ActionContext): string => `morelogin-group.status.${context.action}`;

/** The node's fields, with an object msg.payload laid over them. */
function bodyOf(context: ActionContext, own: Record<string, unknown>): Record<string, unknown> {
  return isPlainObjectValue(context.msg.payload) ? overlay(own, context.msg.payload) : own;
}

const ACTIONS = {
  async create(context: ActionContext) {
    const result = await context.client.call("createGroup", bodyOf(context, pick(context.fields, ["groupName"])), context.options);
    return resourceReply(context, statusKey(context), result, result.data, result.data?.id === undefined ? [] : [String(result.data.id)]);
  },
  async edit(context: ActionContext) {
    const { groupId, groupName } = context.fields;
    const body = bodyOf(context, { ...(groupId === undefined ? {} : { id: groupId }), ...(groupName === undefined ? {} : { groupName }) });
    const result = await context.client.call("editGroup", body, context.options);
    return resourceReply(context, statusKey(context), result, result.data, [String(body.id)]);
  },
  async delete(context: ActionContext) {
    const ids = targetIds(context.msg.payload, context.fields.groupId, "group");
    const extra = isPlainObjectValue(context.msg.payload) ? pick(context.msg.payload, ["isDeleteAllEnv"]) : {};
    const body = { ids, ...(context.def.isDeleteAllEnv === true ? { isDeleteAllEnv: true } : {}), ...extra };
    const result = await context.client.call("deleteGroups", body, context.options);
    return resourceReply(context, statusKey(context), result, result.data, ids);
  },
} satisfies Record<(typeof GROUP_ACTIONS)[number], (context: ActionContext) => Promise<unknown>>;

export = (RED: NodeAPI): void => {
  registerActionNode(RED, declaration, ACTIONS);
};
