import type { NodeAPI } from "node-red";
import { DEFAULT_MAX_ITEMS, ENDPOINTS, PreparedBody, fetchAll, isPlainObjectValue, pathOn, positiveInteger } from "../../../client";
import { registerOperationNode, type OperationContext, type OperationResult } from "./operation-node";
import { outputMode, single, split } from "./output";
import { bodyFields, selectField, selected, type ListDeclaration } from "../declarations/declaration";
import { fieldsToBody, fixedFields, overlay } from "./properties";
import type { OperationNodeDef } from "./types";
import { isChecked } from "./checkbox";

/**
 * A node for a paged list endpoint: one page, or every page with `all`, sent as one array or as one
 * message per item.
 */
export function registerListNode(RED: NodeAPI, declaration: ListDeclaration): void {
  const endpoint = declaration.list;
  const fields = bodyFields(declaration);
  /** A node that can call either API (list cloud-phone apps) has an `api` select. */
  const apiField = selectField(declaration, "api");

  /**
   * Per node: its one-page request body, checked and turned into JSON once, when all its fields are
   * plain values (null when some field is dynamic, or its settings are wrong and each message must
   * say so).
   */
  const fixedBodies = new WeakMap<OperationNodeDef, PreparedBody | null>();
  const fixedBodyOf = (def: OperationNodeDef): PreparedBody | null => {
    let prepared = fixedBodies.get(def);
    if (prepared === undefined) {
      try {
        const own = fixedFields(def, fields);
        prepared = own ? PreparedBody.for(endpoint, own) : null;
      } catch {
        prepared = null;
      }
      fixedBodies.set(def, prepared);
    }
    return prepared;
  };

  /** The node's fields for this message, with msg.payload's laid over them. */
  const bodyOf = async ({ node, def, msg }: OperationContext): Promise<Record<string, unknown>> => {
    const own = await fieldsToBody(RED, node, def, msg, fields);
    return isPlainObjectValue(msg.payload) ? overlay(own, msg.payload) : own;
  };

  registerOperationNode(RED, declaration.type, {
    label: declaration.label,
    async run(context: OperationContext): Promise<OperationResult> {
      const { def, msg, client, t } = context;
      const mode = outputMode(def.output);
      const options = apiField ? { ...context.options, api: selected(def, apiField) === "open" ? ("open" as const) : ("local" as const) } : context.options;

      if (isChecked(def.all)) {
        const body = await bodyOf(context);
        const maxItems = def.maxItems === undefined || def.maxItems === "" ? DEFAULT_MAX_ITEMS : positiveInteger(def.maxItems, "maxItems");
        const collected = await fetchAll(client, endpoint, body, { ...options, maxItems });
        const api = options.api ?? ENDPOINTS[endpoint].api;
        const info = { api, path: pathOn(ENDPOINTS[endpoint], api) ?? "", requestId: collected.requestId, pages: collected.pagesFetched, truncated: collected.truncated };
        const summaryKey = collected.truncated ? "morelogin.status.itemsCapped" : "morelogin.status.items";
        return {
          messages: mode === "split" ? split(RED, msg, collected.items, info) : single(msg, collected.items, info),
          summary: t(summaryKey, { count: collected.items.length }),
        };
      }

      const fixed = isPlainObjectValue(msg.payload) ? null : fixedBodyOf(def);
      const result = await client.call(endpoint, fixed ?? (await bodyOf(context)), options);
      const info = { api: result.api, path: result.path, requestId: result.requestId };
      const items = Array.isArray(result.data?.dataList) ? result.data.dataList : [];
      return {
        messages: mode === "split" ? split(RED, msg, items, info) : single(msg, result.data, info),
        summary: () => t("morelogin.status.itemsPage", { count: items.length, page: result.data?.current ?? "?", pages: result.data?.pages ?? "?" }),
      };
    },
  });
}
