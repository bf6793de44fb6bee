import type { NodeAPI } from "node-red";
import { registerOperationNode } from "./lib/shell/operation-node";
import { single } from "./lib/shell/output";
import { profileBody, requireProfile, withCarriedProfile } from "./lib/profile/body";
import { bodyFields } from "./lib/declarations/declaration";
import { NODE_DECLARATIONS } from "./lib/declarations/node-declarations";
import { fieldsToBody } from "./lib/shell/properties";
import { stopInCloud } from "./lib/profile/cloud-runs";
import { whereOf } from "./lib/profile/where";
import { isChecked } from "./lib/shell/checkbox";

const declaration = NODE_DECLARATIONS["morelogin-close-profile"];
const fields = bodyFields(declaration);

export = (RED: NodeAPI): void => {
  registerOperationNode(RED, declaration.type, {
    label: declaration.label,
    async run({ node, def, msg, client, options, t }) {
      const ownFields = await fieldsToBody(RED, node, def, msg, fields);
      const body = withCarriedProfile(profileBody(ownFields, msg.payload), msg);
      requireProfile(body, msg.payload, t);
      if (whereOf(declaration, def, body, msg, true) === "cloud") return stopInCloud({ RED, node, def, msg, client, options, t }, { force: isChecked(def.force), ...body });
      // force belongs to the cloud's stop: a local close has no such field.
      delete body.force;
      const result = await client.call("closeProfile", body, options);
      if (body.envId !== undefined) msg.topic = String(body.envId);
      const messages = single(msg, result.data, { api: result.api, path: result.path, requestId: result.requestId });
      // The profile is closed: its browser address no longer leads anywhere.
      if (msg.morelogin && msg.morelogin.profile?.envId === body.envId) {
        delete msg.morelogin.profile;
        delete msg.morelogin.page;
      }
      return { messages, summary: t("morelogin.status.closed") };
    },
  });
};
