import type { Node, NodeAPI, NodeDef, NodeMessage } from "node-red";
import { describeValue, messageOf } from "../client";
import { originOf, storableItems } from "./lib/batch/items";
import { BATCH_COMMANDS, BatchRunner, type BatchCommand, type BatchTag } from "./lib/batch/runner";
import { batchSettings } from "./lib/batch/settings";
import { BatchStore, type ContextLike, type QueuedList, type StoredBatch } from "./lib/batch/store";
import { startsWaitingFor } from "./lib/flows-started";
import { createTranslator } from "./lib/i18n";
import { plainError } from "./lib/operation-node";

type Saved = { batch?: StoredBatch; queue: QueuedList[]; last?: unknown };

/**
 * Without a configured context store Node-RED deletes a node's context when the node stops, so a deploy
 * would lose the batch: what the node held is also kept here, by node ID, for its next start in this process.
 */
const inProcess = new Map<string, Saved>();

/** Works through a list a few items at a time; see DESIGN.md "Unattended runs (0.4)". */
export = (RED: NodeAPI): void => {
  const t = createTranslator(RED);
  const waiting = startsWaitingFor(RED);

  function MoreLoginBatchNode(this: Node, def: NodeDef & Record<string, unknown>): void {
    RED.nodes.createNode(this, def);
    // biome-ignore lint/complexity/noUselessThisAlias: Node-RED's idiom, `node` is the node in every handler below
    const node = this;
    const settings = batchSettings(def);
    const store = new BatchStore(node.context() as unknown as ContextLike, (error) => node.warn(`batch context store: ${error.message}`));
    const runner =
      typeof settings === "string"
        ? undefined
        : new BatchRunner(settings, store, {
            sendItem: (msg) => node.send([msg as NodeMessage, null]),
            sendProgress: (topic, payload) => node.send([null, { topic, payload } as NodeMessage]),
            status: (status) => node.status(status),
            generateId: () => RED.util.generateId(),
            clone: (value) => RED.util.cloneMessage(value as never) as typeof value,
            now: () => Date.now(),
            t,
          });
    if (typeof settings === "string") node.status({ fill: "red", shape: "ring", text: t("morelogin.status.input") });

    const loading: Promise<void> = runner
      ? store.load().then((saved) => {
          const kept = inProcess.get(node.id);
          inProcess.delete(node.id);
          runner.restore(saved.batch || saved.queue.length > 0 || !kept ? saved : kept);
        })
      : Promise.resolve();
    const start = (): void => {
      loading.then(() => runner?.begin());
    };
    waiting.add(start);

    /** What this message is (a command, an item back, a list); the text of what is wrong with it, if anything. */
    const handle = (msg: Record<string, unknown>): string | undefined => {
      if (!runner) return settings as string;
      if (msg.command !== undefined) {
        const command = BATCH_COMMANDS.find((name) => name === msg.command);
        if (!command) return `msg.command must be one of ${BATCH_COMMANDS.join(", ")}, not ${describeValue(msg.command)}`;
        runner.command(command as BatchCommand);
        return undefined;
      }
      const tag = tagOf(msg);
      if (tag && runner.knows(tag.id)) {
        runner.back(tag, msg.error);
        return undefined;
      }
      if (Array.isArray(msg.payload)) {
        const items = storableItems(msg.payload);
        if (typeof items === "string") return `the list cannot be kept in the context store: ${items}`;
        runner.add(items, originOf(msg));
        return undefined;
      }
      // The late return of a batch this node no longer knows (ended long ago, or before a restart), or an
      // error a Catch node passed on that is not an item's (answering it with another error would loop): it ends here.
      if (tag || msg.error !== undefined) return undefined;
      return `msg.payload must be an array to start a batch (or msg.command one of ${BATCH_COMMANDS.join(", ")}), not ${describeValue(msg.payload)}`;
    };

    node.on("input", (msg: NodeMessage, _send: unknown, done: (err?: Error) => void) => {
      loading.then(
        () => {
          let problem: string | undefined;
          try {
            problem = handle(msg as Record<string, unknown>);
          } catch (error) {
            problem = messageOf(error);
          }
          done(problem === undefined ? undefined : plainError(`batch failed: ${problem}`));
        },
        (error: unknown) => done(plainError(`batch failed: its saved state could not be read: ${messageOf(error)}`)),
      );
    });

    node.on("close", (removed: boolean, done: () => void) => {
      waiting.delete(start);
      runner?.stop();
      const finish = (): void => {
        if (removed) {
          inProcess.delete(node.id);
          store.forget();
        } else if (runner) {
          inProcess.set(node.id, runner.snapshot());
        }
        node.status({});
        done();
      };
      loading.then(finish, finish);
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
