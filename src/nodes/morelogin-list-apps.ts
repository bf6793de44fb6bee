import type { NodeAPI } from "node-red";
import { registerListNode } from "./lib/list-node";

export = (RED: NodeAPI): void => {
  registerListNode(RED, {
    type: "morelogin-list-apps",
    label: "list cloud-phone apps",
    endpoint: "listApps",
    filters: [{ name: "appName", defaultType: "str" }],
  });
};
