import type { NodeAPI } from "node-red";
import { NODE_DECLARATIONS } from "./lib/declarations/node-declarations";
import { registerOperationNode } from "./lib/shell/operation-node";
import { outputMode, single, split } from "./lib/shell/output";

const declaration = NODE_DECLARATIONS["morelogin-list-tags"];

export = (RED: NodeAPI): void => {
  registerOperationNode(RED, declaration.type, {
    label: declaration.label,
    async run({ def, msg, client, options, t }) {
      const result = await client.call("listTags", undefined, options);
      const info = { api: result.api, path: result.path, requestId: result.requestId };
      const tags = Array.isArray(result.data) ? result.data : [];
      return {
        messages: outputMode(def.output) === "split" ? split(RED, msg, tags, info) : single(msg, result.data, info),
        summary: t("morelogin.status.items", { count: tags.length }),
      };
    },
  });
};
