import type { Node, NodeMessage } from "node-red";
import { MoreLoginAbortError, MoreLoginError, messageOf, type MoreLoginClient } from "../../../client";
import type { Translate } from "../shell/i18n";
import { plainError, shortReason } from "../shell/operation-node";
import { browserAddress, profileHandle } from "../profile/handle";
import type { MoreLoginMessage, MoreLoginMessageInfo } from "../shell/types";
import { changesBetween, currentState, toRemember, type Change, type Remembered } from "./changes";
import { cloudProfileHandle } from "./cloud-handle";
import type { WatchSource } from "./kinds";
import { WatchMemory, type KeptStates } from "./memory";
import type { Observation } from "./observe";
import { sharedObservation } from "./shared-polls";
import type { WatchSettings } from "./settings";
import { pollStatus, type Polled, type WatchStatusKeys } from "./status";

export type { WatchStatusKeys } from "./status";

/** A profile watch's messages say where the browser runs: `kind` "local" (the desktop client) or "cloud". */
const KIND_OF: Partial<Record<WatchSource, "local" | "cloud">> = { profiles: "local", cloudBrowsers: "cloud" };

/**
 * One watch node's polling: a poll, its messages, then the next poll `interval` after the last one
 * began (or at once when that one took longer). Polls never overlap; after stop() nothing is sent.
 */
export class Watcher {
  private readonly stopping = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private firstPoll = true;
  /** Inside a run of failed polls: only its first one reaches Catch nodes. */
  private failing = false;
  /** One per source the watch reads, in the order of `settings.sources`. */
  private readonly memories: WatchMemory[];
  /** A profiles watch's sources it no longer reads (its `where` changed): it forgets what it saw there. */
  private readonly forgotten: WatchMemory[];

  constructor(
    private readonly node: Node,
    private readonly client: MoreLoginClient,
    private readonly settings: WatchSettings,
    private readonly t: Translate,
    private readonly keys: WatchStatusKeys,
    kept: KeptStates,
  ) {
    this.memories = settings.sources.map((source) => new WatchMemory(node, source, settings.api, kept));
    // A profiles watch no longer reading a source (its `where` changed) forgets what it saw there.
    const unread = settings.kind === "profiles" ? (["profiles", "cloudBrowsers"] as const).filter((source) => !settings.sources.includes(source)) : [];
    this.forgotten = unread.map((source) => new WatchMemory(node, source, settings.api, kept));
  }

  start(): void {
    this.node.status({ fill: "blue", shape: "dot", text: this.t(this.keys.starting) });
    for (const memory of this.forgotten) memory.clear().catch(() => undefined);
    this.schedule(0);
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.stopping.abort(new MoreLoginAbortError("the watch was stopped (a deploy or Node-RED shutting down) while it polled", {}));
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      // The next poll is due an interval after the one whose answer this watch used began (its own,
      // or another watch's it shared): watches on one config node fall into step and share each poll.
      this.poll().then(
        (began) => this.schedule(Math.max(0, this.settings.intervalMs - (performance.now() - began))),
        () => this.schedule(this.settings.intervalMs),
      );
    }, delayMs);
  }

  /** One poll and its messages; resolves to when the (earliest) poll whose answer it used began. */
  private async poll(): Promise<number> {
    let began = performance.now();
    try {
      // Another watch's poll sent less than half an interval ago is as fresh as this watch's own would be.
      const { sources, api, intervalMs } = this.settings;
      const shared = await Promise.all(sources.map((source) => sharedObservation(this.client, source, api, intervalMs / 2, this.stopping.signal)));
      began = Math.min(...shared.map((answer) => answer.began));
      if (this.stopped) return began;
      const polled: Polled[] = [];
      const saves: Array<() => Promise<void>> = [];
      for (const [index, source] of sources.entries()) {
        const observation = shared[index]?.observation;
        const memory = this.memories[index];
        if (!observation || !memory) continue;
        const before = await memory.load();
        if (this.stopped) return began;
        const changes = before === undefined ? [] : changesBetween(source, before, observation.seen);
        if (this.firstPoll && this.settings.initial) {
          const changed = new Set(changes.map((item) => item.id));
          changes.push(...currentState(source, observation.seen).filter((item) => !changed.has(item.id)));
        }
        polled.push({ source, observation, changes });
        saves.push(() => memory.save(this.toRemember(source, observation)));
      }
      // Remembered before sending: a change is never sent twice, even if Node-RED stops mid-way.
      await Promise.all(saves.map((save) => save()));
      if (this.stopped) return began;
      this.firstPoll = false;
      const messages: NodeMessage[] = [];
      for (const { source, observation, changes } of polled)
        messages.push(
          ...(await this.messagesOf(
            source,
            changes.filter((item) => this.wanted(item)),
            observation,
          )),
        );
      if (this.stopped) return began;
      this.failing = false;
      for (const message of messages) this.node.send(message);
      this.showPolled(polled);
    } catch (error) {
      if (!this.stopped) this.failed(error);
    }
    return began;
  }

  private toRemember(source: WatchSource, observation: Observation): Record<string, Remembered> {
    const remembered: Record<string, Remembered> = {};
    for (const [id, seen] of observation.seen) {
      const kept = toRemember(source, seen);
      if (kept) remembered[id] = kept;
    }
    return remembered;
  }

  private wanted(change: Change): boolean {
    return this.settings.events.has(change.event) && (this.settings.ids.size === 0 || this.settings.ids.has(change.owner) || this.settings.ids.has(change.id));
  }

  private async messagesOf(source: WatchSource, changes: Change[], observation: Observation): Promise<NodeMessage[]> {
    const at = new Date().toISOString();
    const info: MoreLoginMessageInfo & { watch: string } = { api: observation.api, path: observation.path, requestId: observation.requestId, watch: this.settings.kind };
    const kind = KIND_OF[source];
    const messages: NodeMessage[] = [];
    for (const { event, id, name, from, to, item } of changes) {
      const morelogin = { ...info };
      if (source === "profiles" && event === "started") {
        const debugPort = item.debugPort;
        morelogin.profile = profileHandle(id, debugPort, await browserAddress(this.client, debugPort));
      }
      if (source === "cloudBrowsers" && event === "started") {
        const profile = await cloudProfileHandle(this.client, id, this.stopping.signal);
        if (profile) morelogin.profile = profile;
      }
      const payload = { event, ...(kind ? { kind } : {}), id, name, from, to, item, at };
      messages.push({ topic: id, payload, morelogin } as MoreLoginMessage);
    }
    return messages;
  }

  private showPolled(polled: Polled[]): void {
    this.node.status({ fill: "green", shape: "dot", text: pollStatus(this.settings, polled, this.t, this.keys) });
  }

  private failed(error: unknown): void {
    this.node.status({ fill: "red", shape: "ring", text: shortReason(error, this.t) });
    if (this.failing) return;
    this.failing = true;
    const msg: MoreLoginMessage = { payload: undefined };
    if (error instanceof MoreLoginError) msg.morelogin = { api: error.api ?? this.settings.api, path: error.path ?? "", error: error.toFlowError() };
    this.node.error(plainError(`watch ${this.settings.kind} failed: ${messageOf(error)}`), msg);
  }
}
