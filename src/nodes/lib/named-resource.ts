import { isPlainObjectValue, type EndpointName } from "../../client";
import type { ActionContext } from "./action-node";
import { targetIds } from "./ids";
import { overlay, pick } from "./properties";
import { resourceReply } from "./resource-reply";

/** A team resource that is only a name, a group or a tag: node `morelogin-<kind>`, fields `<kind>Id` and `<kind>Name`. */
export interface NamedResource {
  kind: "group" | "tag";
  create: EndpointName;
  edit: EndpointName;
  delete: EndpointName;
  /** What the delete body carries besides `ids`. */
  deleteOptions?: (context: ActionContext) => Record<string, unknown>;
}

/** The node's fields, with an object msg.payload laid over them. */
function bodyOf(context: ActionContext, own: Record<string, unknown>): Record<string, unknown> {
  return isPlainObjectValue(context.msg.payload) ? overlay(own, context.msg.payload) : own;
}

/** The actions `create`, `edit` and `delete` of a named resource. */
export function namedResourceActions(resource: NamedResource) {
  const idField = `${resource.kind}Id`;
  const nameField = `${resource.kind}Name`;
  const statusKey = (context: ActionContext): string => `morelogin-${resource.kind}.status.${context.action}`;
  return {
    async create(context: ActionContext) {
      const result = await context.client.call(resource.create, bodyOf(context, pick(context.fields, [nameField])), context.options);
      const created = isPlainObjectValue(result.data) && result.data.id !== undefined ? [String(result.data.id)] : [];
      return resourceReply(context, statusKey(context), result, result.data, created);
    },
    async edit(context: ActionContext) {
      const { [idField]: id, [nameField]: name } = context.fields;
      const body = bodyOf(context, { ...(id === undefined ? {} : { id }), ...(name === undefined ? {} : { [nameField]: name }) });
      const result = await context.client.call(resource.edit, body, context.options);
      return resourceReply(context, statusKey(context), result, result.data, [String(body.id)]);
    },
    async delete(context: ActionContext) {
      const ids = targetIds(context.msg.payload, context.fields[idField], resource.kind);
      const result = await context.client.call(resource.delete, { ids, ...resource.deleteOptions?.(context) }, context.options);
      return resourceReply(context, statusKey(context), result, result.data, ids);
    },
  };
}
