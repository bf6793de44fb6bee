import type { NodeAPI } from "node-red";
import { registerListNode } from "./lib/list-node";

export = (RED: NodeAPI): void => {
  registerListNode(RED, {
    type: "morelogin-list-groups",
    label: "list groups",
    endpoint: "listGroups",
    filters: [{ name: "groupName", defaultType: "str" }],
  });
};
