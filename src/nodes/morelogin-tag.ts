import type { NodeAPI } from "node-red";
import { isPlainObjectValue } from "../client";
import { registerActionNode, type ActionContext } from "./lib/action-node";
import { targetIds } from "./lib/ids";
import { NODE_DECLARATIONS, type TAG_ACTIONS } from "./lib/node-declarations";
import { overlay, pick } from "./lib/properties";
import { resourceReply } from "./lib/resource-reply";

const declaration = NODE_DECLARATIONS["morelogin-tag"];
const statusKey = (context: ActionContext): string => `morelogin-tag.status.${context.action}`;

/** The node's fields, with an object msg.payload laid over them. */
function bodyOf(context: ActionContext, own: Record<string, unknown>): Record<string, unknown> {
  return isPlainObjectValue(context.msg.payload) ? overlay(own, context.msg.payload) : own;
}

const ACTIONS = {
  async create(context: ActionContext) {
    const result = await context.client.call("createTag", bodyOf(context, pick(context.fields, ["tagName"])), context.options);
    return resourceReply(context, statusKey(context), result, result.data, result.data?.id === undefined ? [] : [String(result.data.id)]);
  },
  async edit(context: ActionContext) {
    const { tagId, tagName } = context.fields;
    const body = bodyOf(context, { ...(tagId === undefined ? {} : { id: tagId }), ...(tagName === undefined ? {} : { tagName }) });
    const result = await context.client.call("editTag", body, context.options);
    return resourceReply(context, statusKey(context), result, result.data, [String(body.id)]);
  },
  async delete(context: ActionContext) {
    const ids = targetIds(context.msg.payload, context.fields.tagId, "tag");
    const result = await context.client.call("deleteTags", { ids }, context.options);
    return resourceReply(context, statusKey(context), result, result.data, ids);
  },
} satisfies Record<(typeof TAG_ACTIONS)[number], (context: ActionContext) => Promise<unknown>>;

export = (RED: NodeAPI): void => {
  registerActionNode(RED, declaration, ACTIONS);
};
