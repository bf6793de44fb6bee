import type { NodeAPI } from "node-red";
import { registerActionNode } from "./lib/shell/action-node";
import { namedResourceActions } from "./lib/resources/named-resource";
import { NODE_DECLARATIONS } from "./lib/declarations/node-declarations";
import type { TAG_ACTIONS } from "./lib/declarations/resources";

const ACTIONS = namedResourceActions({
  kind: "tag",
  create: "createTag",
  edit: "editTag",
  delete: "deleteTags",
  statusKey: (context) => `morelogin-tag.status.${context.action}`,
}) satisfies Record<(typeof TAG_ACTIONS)[number], unknown>;

export = (RED: NodeAPI): void => {
  registerActionNode(RED, NODE_DECLARATIONS["morelogin-tag"], ACTIONS);
};
