import type { NodeAPI } from "node-red";
import { registerListNode } from "./lib/list-node";

export = (RED: NodeAPI): void => {
  registerListNode(RED, {
    type: "morelogin-list-cloud-phones",
    label: "list cloud phones",
    endpoint: "listCloudPhones",
    filters: [{ name: "keyword", defaultType: "str" }],
  });
};
