import { BATCH_COMMANDS, originOf, storableItems, type BatchCommand, type BatchRunner, type BatchWork } from "../../../batch";
import { describeValue } from "../../../client";
import type { Translate } from "../shell/i18n";
import type { BatchBreakdown } from "./breakdown";
import { tagOf } from "./item-tag";
import type { OpenBatch } from "./open";

/** The messages of a batch node that works: a command, an item coming back, or a list to work through. */
export class BatchInbox {
  /** Lists and commands act in the order they arrived (with a queue, each waits for Redis). */
  private turn: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly breakdown: BatchBreakdown,
    private readonly t: Translate,
  ) {}

  /** Acts on the message; the text of what is wrong with it, if anything. */
  async take(msg: Record<string, unknown>, { runner, work }: OpenBatch): Promise<string | undefined> {
    if (msg.command !== undefined) return this.command(msg, runner, work);
    // A message carrying msg.morelogin.batch is an item coming back, whatever its payload: this node's
    // (counted), or the late return of a batch it no longer knows (ended long ago, or before a restart: it ends here).
    const tag = tagOf(msg);
    if (tag) {
      if (runner.knows(tag.id)) runner.back(tag, msg.error);
      return undefined;
    }
    if (Array.isArray(msg.payload)) return this.list(msg, msg.payload, runner, work);
    // An error a Catch node passed on that is not an item's (answering it with another error would loop): it ends here.
    if (msg.error !== undefined) return undefined;
    return this.t("morelogin-batch.error.notAList", { commands: BATCH_COMMANDS.join(", "), value: describeValue(msg.payload) });
  }

  private async command(msg: Record<string, unknown>, runner: BatchRunner, work: BatchWork): Promise<string | undefined> {
    const command = BATCH_COMMANDS.find((name) => name === msg.command);
    if (!command) return this.t("morelogin-batch.error.command", { commands: BATCH_COMMANDS.join(", "), value: describeValue(msg.command) });
    if (msg.batch !== undefined && typeof msg.batch !== "string") return this.t("morelogin-batch.error.batchId", { value: describeValue(msg.batch) });
    const refused = this.unavailable(work);
    if (refused) return refused;
    await this.inTurn(() => runner.command(command as BatchCommand, msg.batch === "" ? undefined : (msg.batch as string | undefined)));
    return undefined;
  }

  private async list(msg: Record<string, unknown>, list: unknown[], runner: BatchRunner, work: BatchWork): Promise<string | undefined> {
    const items = storableItems(list);
    if (typeof items === "string") return this.t("morelogin-batch.error.notStorable", { reason: items });
    const refused = this.unavailable(work);
    if (refused) return refused;
    await this.inTurn(() => runner.add(items, originOf(msg)));
    return undefined;
  }

  /** With a queue Redis cannot take now (unreachable, the login or a command refused): why a list or a command is refused at once. */
  private unavailable(work: BatchWork): string | undefined {
    const trouble = work.trouble();
    const where = this.breakdown.queueWhere;
    return trouble && where !== undefined ? this.t("morelogin-batch.error.queueDown", { where, reason: trouble.reason }) : undefined;
  }

  private inTurn<T>(act: () => Promise<T>): Promise<T> {
    const acting = this.turn.then(act);
    this.turn = acting.catch(() => undefined);
    return acting;
  }
}
