import type { NodeAPI } from "node-red";
import { registerListNode } from "./lib/shell/list-node";
import { NODE_DECLARATIONS } from "./lib/declarations/node-declarations";

export = (RED: NodeAPI): void => {
  registerListNode(RED, NODE_DECLARATIONS["morelogin-list-cloud-phones"]);
};
