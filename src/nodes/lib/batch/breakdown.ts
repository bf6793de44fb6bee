import type { Node } from "node-red";
import { messageOf } from "../../../client";
import { JournalUnreadableError } from "../../../journal";
import type { Translate } from "../shell/i18n";
import { plainError } from "../shell/operation-node";

/**
 * Why a batch node cannot work (its settings, its queue config node, its journal or its queue): once
 * something is wrong nothing more is sent, and every message ends with the reason.
 */
export class BatchBreakdown {
  private why: string | undefined;
  /** With a queue: where its Redis is (host:port/db, never the user or password), for texts. */
  queueWhere: string | undefined;

  constructor(
    private readonly node: Node,
    private readonly t: Translate,
  ) {}

  /** The words of what is wrong, once something is. */
  get reason(): string | undefined {
    return this.why;
  }

  /** The node's settings are wrong: its status says so, and each message gets the reason. */
  settingsWrong(reason: string): void {
    this.why = reason;
    this.node.status({ fill: "red", shape: "ring", text: this.t("morelogin.status.input") });
  }

  /** The queue config node the batch names is missing, or its settings are wrong. */
  queueUnusable(reason: string): void {
    this.report(reason, "morelogin-batch.status.queue");
  }

  /** The journal or the queue cannot be read or written; only the first failure is reported. */
  fail(error: unknown): void {
    if (this.why !== undefined) return;
    if (this.queueWhere !== undefined) {
      this.report(this.t("morelogin-batch.error.queue", { where: this.queueWhere, reason: messageOf(error) }), "morelogin-batch.status.queueFailed");
    } else if (error instanceof JournalUnreadableError) {
      this.report(this.t("morelogin-batch.error.journalUnreadable", { reason: error.reason, keptAs: error.keptAs }), "morelogin-batch.status.journal");
    } else {
      this.report(this.t("morelogin-batch.error.journalWrite", { reason: messageOf(error) }), "morelogin-batch.status.journalWrite");
    }
  }

  /** Logged once and shown on the status: every message after it ends with the same reason. */
  private report(reason: string, statusKey: string): void {
    this.why = reason;
    this.node.error(plainError(`batch failed: ${reason}`));
    this.node.status({ fill: "red", shape: "ring", text: this.t(statusKey) });
  }
}
