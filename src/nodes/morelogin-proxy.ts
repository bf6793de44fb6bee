import type { Node, NodeAPI } from "node-red";
import { isPlainObjectValue } from "../client";
import { registerActionNode, type ActionContext } from "./lib/shell/action-node";
import { selected, selectField } from "./lib/declarations/declaration";
import { targetIds } from "./lib/profile/ids";
import { NODE_DECLARATIONS } from "./lib/declarations/node-declarations";
import type { PROXY_ACTIONS } from "./lib/declarations/resources";
import { overlay, pick } from "./lib/shell/properties";
import { checkAction } from "./lib/proxy/check";
import { checkedProxyBody } from "./lib/resources/proxy-rules";
import { resourceReply } from "./lib/resources/reply";
import { withoutSecrets } from "./lib/shell/secrets";

const declaration = NODE_DECLARATIONS["morelogin-proxy"];
const statusKey = (context: ActionContext): string => `morelogin-proxy.status.${context.action}`;
const TEXT_FIELDS = ["proxyName", "proxyIp", "proxyPort", "username", "country", "state", "city", "refreshUrl", "encryptionType"];

/** A select of the node as the integer the API takes; undefined when it is left blank. */
function chosenNumber(def: Record<string, unknown>, name: string): number | undefined {
  const field = selectField(declaration, name);
  const value = field ? selected(def, field) : "";
  return value === "" ? undefined : Number(value);
}

/** The node's password credential, if it has one. */
function passwordOf(node: Node): string | undefined {
  return (node as Node<{ password?: string }>).credentials?.password || undefined;
}

/**
 * The proxy the node describes, its password from its credentials, an object msg.payload laid over it,
 * checked against the spec's rules before anything is sent.
 */
function proxyBody(context: ActionContext, action: "add" | "update", own: Record<string, unknown>): Record<string, unknown> {
  const { def, fields, node } = context;
  const body: Record<string, unknown> = { ...own, ...pick(fields, TEXT_FIELDS) };
  for (const name of ["proxyProvider", "proxyType", "ipChangeAction"]) {
    const value = chosenNumber(def, name);
    if (value !== undefined) body[name] = value;
  }
  if (def.ipMonitor === true) body.ipMonitor = true;
  const password = passwordOf(node);
  if (password) body.password = password;
  return checkedProxyBody(isPlainObjectValue(context.msg.payload) ? overlay(body, context.msg.payload) : body, action);
}

const ACTIONS = {
  async add(context: ActionContext) {
    const body = proxyBody(context, "add", {});
    const result = await withoutSecrets([body.password], () => context.client.call("addProxy", body, context.options));
    const id = typeof result.data === "string" || typeof result.data === "number" ? String(result.data) : undefined;
    return resourceReply(context, statusKey(context), result, id ?? result.data, id === undefined ? [] : [id]);
  },
  async update(context: ActionContext) {
    const body = proxyBody(context, "update", context.fields.proxyId === undefined ? {} : { id: context.fields.proxyId });
    const result = await withoutSecrets([body.password], () => context.client.call("updateProxy", body, context.options));
    return resourceReply(context, statusKey(context), result, result.data, [String(body.id)]);
  },
  async delete(context: ActionContext) {
    const ids = targetIds(context.msg.payload, context.fields.proxyId, "proxy", context.t);
    const result = await context.client.call("deleteProxies", { ids }, context.options);
    return resourceReply(context, statusKey(context), result, result.data, ids);
  },
  check(context: ActionContext) {
    return checkAction(context, passwordOf(context.node));
  },
} satisfies Record<(typeof PROXY_ACTIONS)[number], (context: ActionContext) => Promise<unknown>>;

export = (RED: NodeAPI): void => {
  registerActionNode(RED, declaration, ACTIONS);
};
