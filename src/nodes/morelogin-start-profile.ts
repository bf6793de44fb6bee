import type { NodeAPI } from "node-red";
import { cdpUrlFor, fetchWebSocketDebuggerUrl, onDebuggerHost } from "../client";
import { registerOperationNode } from "./lib/operation-node";
import { single } from "./lib/output";
import { profileBody, requireProfile } from "./lib/profile-body";
import { bodyFields } from "./lib/declaration";
import { NODE_DECLARATIONS } from "./lib/node-declarations";
import { fieldsToBody } from "./lib/properties";

const declaration = NODE_DECLARATIONS["morelogin-start-profile"];
const fields = bodyFields(declaration);

export = (RED: NodeAPI): void => {
  registerOperationNode(RED, declaration.type, {
    label: declaration.label,
    async run({ node, def, msg, client, options, t }) {
      const ownFields = await fieldsToBody(RED, node, def, msg, fields);
      if (def.isHeadless === true) ownFields.isHeadless = true;
      if (def.cdpEvasion === true) ownFields.cdpEvasion = true;
      const body = profileBody(ownFields, msg.payload);
      requireProfile(body);

      const result = await client.call("startProfile", body, options);
      const payload: Record<string, unknown> = { ...result.data };
      const cdpUrl = cdpUrlFor(result.data.debugPort, client.local);
      if (cdpUrl) {
        payload.cdpUrl = cdpUrl;
        const webSocketDebuggerUrl = await fetchWebSocketDebuggerUrl(cdpUrl);
        if (webSocketDebuggerUrl) payload.webSocketDebuggerUrl = onDebuggerHost(webSocketDebuggerUrl, client.local);
        else node.warn(t("morelogin.warnings.noWebSocket", { cdpUrl }));
      } else {
        node.warn(t("morelogin.warnings.noDebugPort"));
      }
      return {
        messages: single(msg, payload, { api: result.api, path: result.path, requestId: result.requestId }),
        summary: t("morelogin.status.started", { port: result.data.debugPort }),
      };
    },
  });
};
