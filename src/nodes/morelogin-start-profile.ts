import type { NodeAPI } from "node-red";
import { registerOperationNode } from "./lib/operation-node";
import { single } from "./lib/output";
import { profileBody, requireProfile } from "./lib/profile-body";
import { browserAddress, profileHandle } from "./lib/profile-handle";
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
      requireProfile(body, msg.payload);

      const result = await client.call("startProfile", body, options);
      const address = await browserAddress(client, result.data.debugPort);
      if (!address.cdpUrl) node.warn(t("morelogin.warnings.noDebugPort"));
      else if (!address.webSocketDebuggerUrl) node.warn(t("morelogin.warnings.noWebSocket", { cdpUrl: address.cdpUrl }));
      const envId = String(result.data.envId ?? body.envId ?? "");
      msg.topic = envId;
      return {
        messages: single(msg, { ...result.data, ...address }, { api: result.api, path: result.path, requestId: result.requestId, profile: profileHandle(envId, result.data.debugPort, address) }),
        summary: t("morelogin.status.started", { port: result.data.debugPort }),
      };
    },
  });
};
