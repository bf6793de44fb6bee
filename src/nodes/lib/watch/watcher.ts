import type { Node, NodeMessage } from "node-red";
import { MoreLoginAbortError, MoreLoginError, messageOf, type MoreLoginClient } from "../../../client";
import type { Translate } from "../shell/i18n";
import { plainError, shortReason } from "../shell/operation-node";
import { browserAddress, profileHandle } from "../profile/handle";
import type { MoreLoginMessage, MoreLoginMessageInfo } from "../shell/types";
import { changesBetween, currentState, toRemember, type Change, type Remembered } from "./changes";
import { WatchMemory, type KeptStates } from "./memory";
import type { Observation } from "./observe";
import { sharedObservation } from "./shared-polls";
import type { WatchSettings } from "./settings";

const clock = (date: Date): string => date.toTimeString().slice(0, 8);

/** The catalog keys of the watch's status texts (kept with the node type, which owns its catalog). */
export interface WatchStatusKeys {
  starting: string;
  profiles: string;
  phones: string;
  runs: string;
}

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
  private readonly memory: WatchMemory;

  constructor(
    private readonly node: Node,
    private readonly client: MoreLoginClient,
    private readonly settings: WatchSettings,
    private readonly t: Translate,
    private readonly keys: WatchStatusKeys,
    kept: KeptStates,
  ) {
    this.memory = new WatchMemory(node, settings.kind, settings.api, kept);
  }

  start(): void {
    this.node.status({ fill: "blue", shape: "dot", text: this.t(this.keys.starting) });
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

  /** One poll and its messages; resolves to when the poll whose answer it used began. */
  private async poll(): Promise<number> {
    let began = performance.now();
    try {
      // Another watch's poll sent less than half an interval ago is as fresh as this watch's own would be.
      const shared = await sharedObservation(this.client, this.settings.kind, this.settings.api, this.settings.intervalMs / 2, this.stopping.signal);
      const observation = shared.observation;
      began = shared.began;
      if (this.stopped) return began;
      const before = await this.memory.load();
      if (this.stopped) return began;
      const changes = before === undefined ? [] : changesBetween(this.settings.kind, before, observation.seen);
      if (this.firstPoll && this.settings.initial) {
        const changed = new Set(changes.map((item) => item.id));
        changes.push(...currentState(this.settings.kind, observation.seen).filter((item) => !changed.has(item.id)));
      }
      const remembered: Record<string, Remembered> = {};
      for (const [id, seen] of observation.seen) remembered[id] = toRemember(this.settings.kind, seen);
      // Remembered before sending: a change is never sent twice, even if Node-RED stops mid-way.
      await this.memory.save(remembered);
      if (this.stopped) return began;
      this.firstPoll = false;
      const wanted = changes.filter((item) => this.wanted(item));
      const messages = await this.messagesOf(wanted, observation);
      if (this.stopped) return began;
      this.failing = false;
      for (const message of messages) this.node.send(message);
      this.showPolled(observation);
    } catch (error) {
      if (!this.stopped) this.failed(error);
    }
    return began;
  }

  private wanted(change: Change): boolean {
    return this.settings.events.has(change.event) && (this.settings.ids.size === 0 || this.settings.ids.has(change.owner) || this.settings.ids.has(change.id));
  }

  private async messagesOf(changes: Change[], observation: Observation): Promise<NodeMessage[]> {
    const at = new Date().toISOString();
    const info: MoreLoginMessageInfo & { watch: string } = { api: observation.api, path: observation.path, requestId: observation.requestId, watch: this.settings.kind };
    const messages: NodeMessage[] = [];
    for (const { event, id, name, from, to, item } of changes) {
      const morelogin = { ...info };
      if (this.settings.kind === "profiles" && event === "started") {
        const debugPort = item.debugPort;
        morelogin.profile = profileHandle(id, debugPort, await browserAddress(this.client, debugPort));
      }
      messages.push({ topic: id, payload: { event, id, name, from, to, item, at }, morelogin } as MoreLoginMessage);
    }
    return messages;
  }

  private showPolled(observation: Observation): void {
    const time = clock(new Date());
    const seen = [...observation.seen.values()];
    const watched = this.settings.ids.size === 0 ? seen : seen.filter((item) => this.settings.ids.has(item.owner));
    const count = (test: (item: (typeof seen)[number]) => boolean): number => watched.filter(test).length;
    const text =
      this.settings.kind === "profiles"
        ? this.t(this.keys.profiles, { count: watched.length, time })
        : this.settings.kind === "phones"
          ? this.t(this.keys.phones, { running: count((item) => item.state === 4), count: watched.length, time })
          : this.t(this.keys.runs, { count: count((item) => item.state === 0 || item.state === 1 || item.state === 2), time });
    this.node.status({ fill: "green", shape: "dot", text });
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
