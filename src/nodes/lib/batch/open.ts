import { join } from "node:path";
import type { Node, NodeAPI } from "node-red";
import { BatchRunner, LocalBatchWork, type BatchPorts, type BatchSettings, type BatchWork } from "../../../batch";
import { fileNameOf, stateDirOf } from "../config/state-dir";
import type { ContextStore } from "../shell/context-store";
import type { Translate } from "../shell/i18n";
import type { OperationNodeDef } from "../shell/types";
import type { BatchBreakdown } from "./breakdown";
import { openQueue } from "./open-queue";
import { forgetLegacyBatch, legacyBatch } from "./store";

/** A batch node's work (its journal or its queue) and the runner that works through it. */
export interface OpenBatch {
  work: BatchWork;
  runner: BatchRunner;
}

/** What opening a batch node's work needs. */
export interface BatchOpening {
  RED: NodeAPI;
  node: Node;
  def: OperationNodeDef;
  settings: BatchSettings;
  breakdown: BatchBreakdown;
  ports: BatchPorts;
  t: Translate;
  /** The node's context, where a 0.4 batch node kept its batch. */
  context: ContextStore;
  warnContext: (error: Error) => void;
}

/** The work in the queue the node's `queue` config node names, else in its own journal; undefined when it cannot open (the breakdown says why). */
export function openBatch(opening: BatchOpening): Promise<OpenBatch | undefined> {
  const queueId = typeof opening.def.queue === "string" ? opening.def.queue.trim() : "";
  if (queueId === "") return openJournal(opening);
  // The queue's code (BullMQ) loads here, and its connection opens: a failure of either is the node's breakdown, never an unhandled rejection.
  return openQueue(opening, queueId).catch((error: unknown) => {
    opening.breakdown.fail(error);
    return undefined;
  });
}

/** The batch in the node's journal file, which takes over a 0.4 batch left in the node's context. */
function openJournal({ RED, node, settings, breakdown, ports, context, warnContext }: BatchOpening): Promise<OpenBatch | undefined> {
  const file = join(stateDirOf(RED), `batch-${fileNameOf(node.id)}.jsonl`);
  return LocalBatchWork.open(file, {
    resend: settings.resend,
    onError: (error) => breakdown.fail(error),
    takeOver: () => legacyBatch(context, () => RED.util.generateId(), warnContext),
  }).then(
    (work) => {
      forgetLegacyBatch(context, warnContext);
      return { work, runner: new BatchRunner(settings, work, ports) };
    },
    (error: unknown) => {
      breakdown.fail(error);
      return undefined;
    },
  );
}
