import type { NodeAPI } from "node-red";
import { registerListNode } from "./lib/list-node";

export = (RED: NodeAPI): void => {
  registerListNode(RED, {
    type: "morelogin-list-profiles",
    label: "list profiles",
    endpoint: "listProfiles",
    filters: [
      { name: "envName", defaultType: "str" },
      { name: "groupId", defaultType: "str" },
    ],
  });
};
