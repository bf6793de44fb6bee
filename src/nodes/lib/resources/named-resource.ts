import { MoreLoginInputError, isPlainObjectValue, type EndpointName } from "../../../client";
import type { ActionContext } from "../shell/action-node";
import { targetIds } from "../profile/ids";
import { overlay, pick } from "../shell/properties";
import { resourceReply } from "./reply";

/** A team resource that is only a name, a group or a tag: node `morelogin-<kind>`, fields `<kind>Id` and `<kind>Name`. */
export interface NamedResource {
  kind: "group" | "tag";
  create: EndpointName;
  edit: EndpointName;
  delete: EndpointName;
  /** The status text's catalog key, written out in the node's own file (`morelogin-<kind>.status.<action>`). */
  statusKey: (context: ActionContext) => string;
  /** What the delete body carries besides `ids`. */
  deleteOptions?: (context: ActionContext) => Record<string, unknown>;
}

/** The shared spec: a group or tag name is 1 to 100 characters. */
const MAX_NAME = 100;

/** The node's fields, with an object msg.payload laid over them; a name the spec does not allow is refused here. */
function bodyOf(context: ActionContext, own: Record<string, unknown>, nameField: string): Record<string, unknown> {
  const body = isPlainObjectValue(context.msg.payload) ? overlay(own, context.msg.payload) : own;
  const name = typeof body[nameField] === "number" ? String(body[nameField]) : body[nameField];
  if (name === undefined) return body;
  if (typeof name !== "string" || name.length > MAX_NAME) throw new MoreLoginInputError(`${nameField} must be text of 1 to ${MAX_NAME} characters`);
  return { ...body, [nameField]: name };
}

/** The actions `create`, `edit` and `delete` of a named resource. */
export function namedResourceActions(resource: NamedResource) {
  const idField = `${resource.kind}Id`;
  const nameField = `${resource.kind}Name`;
  const { statusKey } = resource;
  return {
    async create(context: ActionContext) {
      const result = await context.client.call(resource.create, bodyOf(context, pick(context.fields, [nameField]), nameField), context.options);
      const created = isPlainObjectValue(result.data) && result.data.id !== undefined ? [String(result.data.id)] : [];
      return resourceReply(context, statusKey(context), result, result.data, created);
    },
    async edit(context: ActionContext) {
      const { [idField]: id, [nameField]: name } = context.fields;
      const body = bodyOf(context, { ...(id === undefined ? {} : { id }), ...(name === undefined ? {} : { [nameField]: name }) }, nameField);
      const result = await context.client.call(resource.edit, body, context.options);
      return resourceReply(context, statusKey(context), result, result.data, [String(body.id)]);
    },
    async delete(context: ActionContext) {
      const ids = targetIds(context.msg.payload, context.fields[idField], resource.kind, context.t);
      const result = await context.client.call(resource.delete, { ids, ...resource.deleteOptions?.(context) }, context.options);
      return resourceReply(context, statusKey(context), result, result.data, ids);
    },
  };
}
