import type { NodeAPI } from "node-red";
import { DEFAULT_MAX_ITEMS, ENDPOINTS, PreparedBody, fetchAll, isPlainObjectValue, positiveInteger, type PagedEndpointName } from "../../client";
import { registerOperationNode, type OperationContext, type OperationResult } from "./operation-node";
import { outputMode, single, split } from "./output";
import { fieldsToBody, fixedFields, overlay, type FieldSpec } from "./properties";
import type { OperationNodeDef } from "./types";

export interface ListNodeSpec {
  type: string;
  label: string;
  endpoint: PagedEndpointName;
  /** Filters the node offers besides the page fields. */
  filters: readonly FieldSpec[];
}

/**
 * A node for a paged list endpoint: one page, or every page with `all`, sent as one array or as one
 * message per item.
 */
export function registerListNode(RED: NodeAPI, spec: ListNodeSpec): void {
  const pageField = ENDPOINTS[spec.endpoint].pageField;
  const fields: FieldSpec[] = [
    { name: pageField, defaultType: "num" },
    { name: "pageSize", defaultType: "num" },
    ...spec.filters,
  ];

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
        prepared = own ? PreparedBody.for(spec.endpoint, own) : null;
      } catch {
        prepared = null;
      }
      fixedBodies.set(def, prepared);
    }
    return prepared;
  };

  registerOperationNode(RED, spec.type, {
    label: spec.label,
    async run(context: OperationContext): Promise<OperationResult> {
      const { def, msg, client, signal, t } = context;
      const mode = outputMode(def.output);
      const fromMessage = isPlainObjectValue(msg.payload);
      const all = def.all === true || def.all === "true";
      const fixed = fromMessage || all ? null : fixedBodyOf(def);
      const ownFields = fixed ? {} : await fieldsToBody(RED, context.node, def, msg, fields);
      const body = fromMessage ? overlay(ownFields, msg.payload as Record<string, unknown>) : ownFields;

      if (all) {
        const maxItems = def.maxItems === undefined || def.maxItems === "" ? DEFAULT_MAX_ITEMS : positiveInteger(def.maxItems, "maxItems");
        const collected = await fetchAll(client, spec.endpoint, body, { maxItems, signal });
        const { api, path } = ENDPOINTS[spec.endpoint];
        const info = { api, path, requestId: collected.requestId, pages: collected.pagesFetched, truncated: collected.truncated };
        const summaryKey = collected.truncated ? "morelogin.status.itemsCapped" : "morelogin.status.items";
        return {
          messages: mode === "split" ? split(RED, msg, collected.items, info) : single(msg, collected.items, info),
          summary: t(summaryKey, { count: collected.items.length }),
        };
      }

      const result = await client.call(spec.endpoint, fixed ?? body, { signal });
      const info = { api: result.api, path: result.path, requestId: result.requestId };
      const items = Array.isArray(result.data?.dataList) ? result.data.dataList : [];
      return {
        messages: mode === "split" ? split(RED, msg, items, info) : single(msg, result.data, info),
        summary: () => t("morelogin.status.page", { count: items.length, page: result.data?.current ?? "?", pages: result.data?.pages ?? "?" }),
      };
    },
  });
}
