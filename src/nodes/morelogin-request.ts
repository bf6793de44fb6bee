import type { NodeAPI } from "node-red";
import { isPlainObjectValue, MoreLoginInputError, type ApiName, type HttpMethod } from "../client";
import { selectField, selected } from "./lib/declarations/declaration";
import { NODE_DECLARATIONS } from "./lib/declarations/node-declarations";
import { registerOperationNode } from "./lib/shell/operation-node";

import { single } from "./lib/shell/output";
import { evaluateProperty } from "./lib/shell/properties";
const declaration = NODE_DECLARATIONS["morelogin-request"];
const outputField = selectField(declaration, "output");

export = (RED: NodeAPI): void => {
  registerOperationNode(RED, declaration.type, {
    label: declaration.label,
    async run({ node, def, msg, client, options, t }) {
      const api = (def.api === "open" ? "open" : "local") satisfies ApiName;
      const method = (def.method === "GET" ? "GET" : "POST") satisfies HttpMethod;
      const path = await evaluateProperty(RED, node, msg, def.path, def.pathType, "path");
      if (typeof path !== "string" || path === "") throw new MoreLoginInputError("path is missing: set it in the node");
      const body = isPlainObjectValue(msg.payload) || Array.isArray(msg.payload) ? msg.payload : {};
      const wholeReply = outputField !== undefined && selected(def, outputField) === "reply";
      const result = await client.request({ api, method, path, body: method === "POST" ? body : undefined, wholeReply }, options);
      return {
        messages: single(msg, result.data, { api: result.api, path: result.path, requestId: result.requestId }),
        summary: t("morelogin.status.ok"),
      };
    },
  });
};
