import type { Node, NodeAPI } from "node-red";
import { messageOf } from "../../../client";
import { nodeContext } from "../shell/context-store";
import type { Translate } from "../shell/i18n";
import type { NodeInstance } from "../shell/operation-node";
import type { MoreLoginMessage, OperationNodeDef } from "../shell/types";
import { batchSources, labelOf, type BatchSource } from "../metrics/sources";
import { BatchBreakdown } from "./breakdown";
import { BatchInbox } from "./inbox";
import { tagOf } from "./item-tag";
import { openBatch, type OpenBatch } from "./open";
import { runnerPorts } from "./ports";
import { batchSettings } from "./settings";
import { forgetLegacyBatch } from "./store";

/**
 * One batch node: its journal (or its queue) opens when the node is created, its batch carries on once
 * the flows have started (`waiting`), and each message is a list, a command or an item coming back.
 * It sends on its own and shows its own status; a message ends once what it asked for is done.
 */
export function batchInstance(RED: NodeAPI, node: Node, def: OperationNodeDef, t: Translate, waiting: Set<() => void>): NodeInstance {
  const breakdown = new BatchBreakdown(node, t);
  const read = batchSettings(def);
  const settings = "key" in read ? t(`morelogin-batch.error.setting.${read.key}`, read.values) : read;
  if (typeof settings === "string") breakdown.settingsWrong(settings);
  const context = nodeContext(node);
  const warnContext = (error: Error): void => node.warn(t("morelogin-batch.error.contextStore", { reason: error.message }));
  const ports = runnerPorts(RED, node, t, (error) => breakdown.fail(error));
  const opening: Promise<OpenBatch | undefined> = typeof settings === "string" ? Promise.resolve(undefined) : openBatch({ RED, node, def, settings, breakdown, ports, t, context, warnContext });
  // The scrape reads the batch's counts while the node is deployed.
  let source: BatchSource | undefined;
  let closing = false;
  void opening.then((opened) => {
    if (!opened || closing) return;
    source = { label: labelOf({ id: node.id, name: def.name }), work: opened.work, queued: typeof def.queue === "string" && def.queue.trim() !== "" };
    batchSources.add(source);
  });
  const start = (): void => {
    opening.then((opened) => opened?.runner.begin());
  };
  waiting.add(start);
  const inbox = new BatchInbox(breakdown, t);

  return {
    async run({ msg }) {
      const problem = await problemOf(msg, await opening, breakdown, inbox);
      // The wrapper ends the message with done(err): "batch failed: <problem>".
      if (problem !== undefined) throw new Error(problem);
      // Items and progress leave through the runner's ports, when their time comes; the status is the batch's own.
      return { messages: [], summary: "" };
    },
    async close(removed) {
      waiting.delete(start);
      closing = true;
      if (source) batchSources.delete(source);
      try {
        const opened = await opening;
        opened?.runner.stop();
        if (removed) {
          forgetLegacyBatch(context, warnContext);
          await opened?.work.remove();
        } else {
          await opened?.work.close();
        }
      } catch (error) {
        node.warn(t("morelogin-batch.error.journalClose", { reason: messageOf(error) }));
      }
      node.status({});
    },
  };
}

/** What is wrong with the message, if anything: the reason the node cannot work, or what its inbox says. */
async function problemOf(msg: MoreLoginMessage, opened: OpenBatch | undefined, breakdown: BatchBreakdown, inbox: BatchInbox): Promise<string | undefined> {
  if (breakdown.reason !== undefined) {
    // An item coming back or an error a Catch passed on ends quietly: another error would go round
    // through a Catch wired back into this node. The reason was logged once, and the status says it.
    return msg.error !== undefined || tagOf(msg) !== undefined ? undefined : breakdown.reason;
  }
  if (!opened) return undefined;
  try {
    return await inbox.take(msg, opened);
  } catch (error) {
    return breakdown.reason ?? messageOf(error);
  }
}
