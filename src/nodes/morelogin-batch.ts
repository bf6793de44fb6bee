import { join } from "node:path";
import type { Node, NodeAPI, NodeDef, NodeMessage } from "node-red";
import { BATCH_COMMANDS, BatchRunner, LocalBatchWork, originOf, storableItems, type BatchCommand, type BatchPorts, type BatchSettings, type BatchTag, type BatchWork } from "../batch";
import { describeValue, messageOf } from "../client";
import { JournalUnreadableError } from "../journal";
import { batchSettings } from "./lib/batch/settings";
import { forgetLegacyBatch, legacyBatch } from "./lib/batch/store";
import { nodeContext } from "./lib/shell/context-store";
import { startsWaitingFor } from "./lib/shell/flows-started";
import { createTranslator } from "./lib/shell/i18n";
import { plainError } from "./lib/shell/operation-node";
import { fileNameOf, stateDirOf } from "./lib/config/state-dir";
import type { QueueConfigNode } from "./morelogin-queue";

/** Works through a list a few items at a time, in a journal that carries the batch over a restart or a crash. */
export = (RED: NodeAPI): void => {
  const t = createTranslator(RED);
  const waiting = startsWaitingFor(RED);

  function MoreLoginBatchNode(this: Node, def: NodeDef & Record<string, unknown>): void {
    RED.nodes.createNode(this, def);
    const node = this;
    const read = batchSettings(def);
    const settings = "key" in read ? t(`morelogin-batch.error.setting.${read.key}`, read.values) : read;
    const context = nodeContext(node);
    const warnContext = (error: Error): void => node.warn(t("morelogin-batch.error.contextStore", { reason: error.message }));
    const file = join(stateDirOf(RED), `batch-${fileNameOf(node.id)}.jsonl`);
    /** Why this node cannot work (its settings, or its journal), for every message it gets. */
    let broken: string | undefined = typeof settings === "string" ? settings : undefined;
    if (typeof settings === "string") node.status({ fill: "red", shape: "ring", text: t("morelogin.status.input") });

    const ports = (): BatchPorts => ({
      sendItem: (msg) => node.send([msg as NodeMessage, null]),
      sendProgress: (topic, payload) => node.send([null, { topic, payload } as NodeMessage]),
      status: (status) => node.status(status),
      failed: (error) => fail(error),
      generateId: () => RED.util.generateId(),
      clone: (value) => RED.util.cloneMessage(value as never) as typeof value,
      now: () => Date.now(),
      t,
    });
    const queueId = typeof def.queue === "string" ? def.queue.trim() : "";
    /** With a queue: where its Redis is (host:port/db, never the user or password), for texts. */
    let queueWhere: string | undefined;

    const opening: Promise<{ work: BatchWork; runner: BatchRunner } | undefined> =
      typeof settings === "string"
        ? Promise.resolve(undefined)
        : queueId !== ""
          ? openQueue(queueId, settings)
          : LocalBatchWork.open(file, {
              resend: settings.resend,
              onError: (error) => fail(error),
              takeOver: () => legacyBatch(context, () => RED.util.generateId(), warnContext),
            }).then(
              (work) => {
                forgetLegacyBatch(context, warnContext);
                return { work, runner: new BatchRunner(settings, work, ports()) };
              },
              (error: unknown) => {
                fail(error);
                return undefined;
              },
            );

    /** The batch in a queue shared with other Node-REDs (BullMQ is loaded only here). */
    async function openQueue(id: string, batch: BatchSettings): Promise<{ work: BatchWork; runner: BatchRunner } | undefined> {
      const config = RED.nodes.getNode(id) as QueueConfigNode | null;
      const queue = config?.queueSettings;
      if (!queue || typeof queue === "string") {
        broken = queue ?? t("morelogin-batch.error.queueMissing", { id });
        node.error(plainError(`batch failed: ${broken}`));
        node.status({ fill: "red", shape: "ring", text: t("morelogin-batch.status.queue") });
        return undefined;
      }
      queueWhere = queue.where;
      const { QueueBatchWork } = await import("../batch/queue-work.js");
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
        resend: batch.resend,
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
      runner = new BatchRunner(batch, work, ports());
      return { work, runner };
    }

    /** The journal cannot be read or written: nothing more is sent, every message ends with the reason. */
    function fail(error: unknown): void {
      if (broken !== undefined) return;
      const unreadable = error instanceof JournalUnreadableError;
      if (queueWhere !== undefined) broken = t("morelogin-batch.error.queue", { where: queueWhere, reason: messageOf(error) });
      else if (unreadable) broken = t("morelogin-batch.error.journalUnreadable", { reason: error.reason, keptAs: error.keptAs });
      else broken = t("morelogin-batch.error.journalWrite", { reason: messageOf(error) });
      node.error(plainError(`batch failed: ${broken}`));
      const status = queueWhere !== undefined ? "morelogin-batch.status.queueFailed" : unreadable ? "morelogin-batch.status.journal" : "morelogin-batch.status.journalWrite";
      node.status({ fill: "red", shape: "ring", text: t(status) });
    }

    const start = (): void => {
      opening.then((opened) => opened?.runner.begin());
    };
    waiting.add(start);

    /** Lists and commands act in the order they arrived (with a queue, each waits for Redis). */
    let turn: Promise<unknown> = Promise.resolve();
    const inTurn = <T>(act: () => Promise<T>): Promise<T> => {
      const acting = turn.then(act);
      turn = acting.catch(() => undefined);
      return acting;
    };

    /** What this message is (a command, an item back, a list); the text of what is wrong with it, if anything. */
    /** With a queue Redis cannot take now (unreachable, the login or a command refused): why a list or a command is refused at once. */
    const unavailable = (work: BatchWork): string | undefined => {
      const trouble = work.trouble();
      return trouble && queueWhere !== undefined ? t("morelogin-batch.error.queueDown", { where: queueWhere, reason: trouble.reason }) : undefined;
    };

    const handle = async (msg: Record<string, unknown>, { runner, work }: { runner: BatchRunner; work: BatchWork }): Promise<string | undefined> => {
      if (msg.command !== undefined) {
        const command = BATCH_COMMANDS.find((name) => name === msg.command);
        if (!command) return t("morelogin-batch.error.command", { commands: BATCH_COMMANDS.join(", "), value: describeValue(msg.command) });
        if (msg.batch !== undefined && typeof msg.batch !== "string") return t("morelogin-batch.error.batchId", { value: describeValue(msg.batch) });
        const refused = unavailable(work);
        if (refused) return refused;
        await inTurn(() => runner.command(command as BatchCommand, msg.batch === "" ? undefined : (msg.batch as string | undefined)));
        return undefined;
      }
      // A message carrying msg.morelogin.batch is an item coming back, whatever its payload: this node's
      // (counted), or the late return of a batch it no longer knows (ended long ago, or before a restart: it ends here).
      const tag = tagOf(msg);
      if (tag) {
        if (runner.knows(tag.id)) runner.back(tag, msg.error);
        return undefined;
      }
      if (Array.isArray(msg.payload)) {
        const items = storableItems(msg.payload);
        if (typeof items === "string") return t("morelogin-batch.error.notStorable", { reason: items });
        const refused = unavailable(work);
        if (refused) return refused;
        await inTurn(() => runner.add(items, originOf(msg)));
        return undefined;
      }
      // An error a Catch node passed on that is not an item's (answering it with another error would loop): it ends here.
      if (msg.error !== undefined) return undefined;
      return t("morelogin-batch.error.notAList", { commands: BATCH_COMMANDS.join(", "), value: describeValue(msg.payload) });
    };

    node.on("input", (msg: NodeMessage, _send: unknown, done: (err?: Error) => void) => {
      opening.then(async (opened) => {
        // Broken, an item coming back or an error a Catch passed on ends quietly: another error would go round
        // through a Catch wired back into this node. The reason was logged once, and the status says it.
        const record = msg as Record<string, unknown>;
        const quiet = broken !== undefined && (record.error !== undefined || tagOf(record) !== undefined);
        let problem: string | undefined = quiet ? undefined : broken;
        if (opened && broken === undefined) {
          try {
            problem = await handle(record, opened);
          } catch (error) {
            problem = broken ?? messageOf(error);
          }
        }
        done(problem === undefined ? undefined : plainError(`batch failed: ${problem}`));
      });
    });

    node.on("close", (removed: boolean, done: () => void) => {
      waiting.delete(start);
      opening
        .then(async (opened) => {
          opened?.runner.stop();
          if (removed) {
            forgetLegacyBatch(context, warnContext);
            await opened?.work.remove();
          } else {
            await opened?.work.close();
          }
        })
        .catch((error: unknown) => node.warn(t("morelogin-batch.error.journalClose", { reason: messageOf(error) })))
        .finally(() => {
          node.status({});
          done();
        });
    });
  }

  RED.nodes.registerType("morelogin-batch", MoreLoginBatchNode);
};

function tagOf(msg: Record<string, unknown>): BatchTag | undefined {
  const morelogin = msg.morelogin as { batch?: unknown } | undefined;
  const tag = morelogin?.batch as Partial<BatchTag> | undefined;
  if (!tag || typeof tag !== "object" || typeof tag.id !== "string") return undefined;
  return { id: tag.id, item: String(tag.item ?? ""), index: Number(tag.index), total: Number(tag.total), attempt: Number(tag.attempt ?? 1), requests: tag.requests, perMinute: tag.perMinute };
}
