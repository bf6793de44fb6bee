import type { NodeAPI } from "node-red";
import { registerOperationNode } from "./lib/operation-node";
import { single } from "./lib/output";
import { profileBody, requireProfile } from "./lib/profile-body";
import { fieldsToBody } from "./lib/properties";

export = (RED: NodeAPI): void => {
  registerOperationNode(RED, "morelogin-close-profile", {
    label: "close profile",
    async run({ node, def, msg, client, signal, t }) {
      const ownFields = await fieldsToBody(RED, node, def, msg, [{ name: "envId", defaultType: "str" }]);
      const body = profileBody(ownFields, msg.payload);
      requireProfile(body);
      const result = await client.call("closeProfile", body, { signal });
      return {
        messages: single(msg, result.data, { api: result.api, path: result.path, requestId: result.requestId }),
        summary: t("morelogin.status.closed"),
      };
    },
  });
};
