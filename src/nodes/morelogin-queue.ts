import type { NodeAPI, NodeDef } from "node-red";
import { createTranslator } from "./lib/shell/i18n";
import { type QueueConfigNode, type QueueCredentials, queueSettings } from "./lib/queue/settings";

/** The queue config node only checks and holds its settings; the batch nodes that name it do the work (src/batch/queue-work.ts). */
export = (RED: NodeAPI): void => {
  const t = createTranslator(RED);

  function MoreLoginQueueNode(this: QueueConfigNode, def: NodeDef): void {
    RED.nodes.createNode(this, def);
    const settings = queueSettings(def as NodeDef & Record<string, unknown>, this.credentials ?? {}, (RED.settings as { uiPort?: unknown }).uiPort);
    this.queueSettings = "key" in settings ? t(`morelogin-queue.error.${settings.key}`, settings.values) : settings;
    if (typeof this.queueSettings === "string") this.error(t("morelogin-queue.error.invalid", { reason: this.queueSettings }));
  }

  RED.nodes.registerType<QueueConfigNode, NodeDef, Record<string, never>, QueueCredentials>("morelogin-queue", MoreLoginQueueNode, {
    credentials: { username: { type: "text" }, password: { type: "password" } },
  });
};
