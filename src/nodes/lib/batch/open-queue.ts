import { BatchRunner } from "../../../batch";
import type { QueueConfigNode } from "../queue/settings";
import { plainError } from "../shell/operation-node";
import type { BatchOpening, OpenBatch } from "./open";

/** The batch in a queue shared with other Node-REDs (BullMQ is loaded only here). */
export async function openQueue({ RED, node, def, settings, breakdown, ports, t }: BatchOpening, id: string): Promise<OpenBatch | undefined> {
  const config = RED.nodes.getNode(id) as QueueConfigNode | null;
  const queue = config?.queueSettings;
  if (!queue || typeof queue === "string") {
    breakdown.queueUnusable(queue ?? t("morelogin-batch.error.queueMissing", { id }));
    return undefined;
  }
  breakdown.queueWhere = queue.where;
  const { QueueBatchWork } = await import("../../../batch/queue-work.js");
  let runner: BatchRunner | undefined;
  let loginReported = false;
  const work = QueueBatchWork.open({
    url: queue.url,
    username: queue.username,
    password: queue.password,
    queue: typeof def.name === "string" && def.name.trim() !== "" ? def.name.trim() : node.id,
    worker: queue.worker,
    where: queue.where,
    workerTimeoutMs: queue.workerTimeoutMs,
    resend: settings.resend,
    onChange: () => {
      const trouble = work.trouble();
      if (trouble?.kind === "login" && !loginReported) {
        loginReported = true;
        node.error(plainError(t("morelogin-batch.error.queueLogin", { where: queue.where, reason: trouble.reason })));
      }
      if (!trouble) loginReported = false;
      runner?.changed();
    },
    onLost: ({ batch, ids, unheardMs }) => node.warn(t("morelogin-batch.error.handedOver", { seconds: Math.round(unheardMs / 1000), ids: ids.join(", "), batch })),
  });
  runner = new BatchRunner(settings, work, ports);
  return { work, runner };
}
