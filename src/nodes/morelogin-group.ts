import type { NodeAPI } from "node-red";
import { isPlainObjectValue } from "../client";
import { registerActionNode } from "./lib/shell/action-node";
import { namedResourceActions } from "./lib/resources/named-resource";
import { NODE_DECLARATIONS } from "./lib/declarations/node-declarations";
import type { GROUP_ACTIONS } from "./lib/declarations/resources";
import { pick } from "./lib/shell/properties";

const ACTIONS = namedResourceActions({
  kind: "group",
  create: "createGroup",
  edit: "editGroup",
  delete: "deleteGroups",
  statusKey: (context) => `morelogin-group.status.${context.action}`,
  // The node's checkbox, which an object msg.payload's own isDeleteAllEnv overrides.
  deleteOptions: ({ def, msg }) => ({
    ...(def.isDeleteAllEnv === true ? { isDeleteAllEnv: true } : {}),
    ...(isPlainObjectValue(msg.payload) ? pick(msg.payload, ["isDeleteAllEnv"]) : {}),
  }),
}) satisfies Record<(typeof GROUP_ACTIONS)[number], unknown>;

export = (RED: NodeAPI): void => {
  registerActionNode(RED, NODE_DECLARATIONS["morelogin-group"], ACTIONS);
};
