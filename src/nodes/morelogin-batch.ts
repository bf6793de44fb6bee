import type { NodeAPI } from "node-red";
import { batchInstance } from "./lib/batch/instance";
import { startsWaitingFor } from "./lib/shell/flows-started";
import { createTranslator } from "./lib/shell/i18n";
import { registerStatefulNode } from "./lib/shell/operation-node";

/** Works through a list a few items at a time, in a journal that carries the batch over a restart or a crash. */
export = (RED: NodeAPI): void => {
  const t = createTranslator(RED);
  const waiting = startsWaitingFor(RED);
  registerStatefulNode(RED, "morelogin-batch", "batch", (node, def) => batchInstance(RED, node, def, t, waiting));
};
