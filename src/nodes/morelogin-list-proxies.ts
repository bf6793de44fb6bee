import type { NodeAPI } from "node-red";
import { registerListNode } from "./lib/list-node";

export = (RED: NodeAPI): void => {
  registerListNode(RED, {
    type: "morelogin-list-proxies",
    label: "list proxies",
    endpoint: "listProxies",
    filters: [],
  });
};
