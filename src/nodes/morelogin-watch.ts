import type { Node, NodeAPI } from "node-red";
import { messageOf } from "../client";
import { startsWaitingFor } from "./lib/shell/flows-started";
import { createTranslator } from "./lib/shell/i18n";
import { findClient, plainError } from "./lib/shell/operation-node";
import type { OperationNodeDef } from "./lib/shell/types";
import { KeptStates } from "./lib/watch/memory";
import { watchSettings } from "./lib/watch/settings";
import { Watcher, type WatchStatusKeys } from "./lib/watch/watcher";

const STATUS_KEYS: WatchStatusKeys = {
  starting: "morelogin.status.watchStarting",
  profiles: "morelogin.status.watchProfiles",
  cloud: "morelogin.status.watchCloud",
  both: "morelogin.status.watchBoth",
  phones: "morelogin.status.watchPhones",
  runs: "morelogin.status.watchRuns",
};

/** A trigger node: no input; one message per change of the profiles, phones or runs it watches. */
export = (RED: NodeAPI): void => {
  const t = createTranslator(RED);
  const waiting = startsWaitingFor(RED);
  // Node-RED registers the type once per runtime: its watches' memory ends with that runtime.
  const kept = new KeptStates();

  function MoreLoginWatchNode(this: Node, def: OperationNodeDef): void {
    RED.nodes.createNode(this, def);
    // biome-ignore lint/complexity/noUselessThisAlias: Node-RED's idiom, `node` is the node in every handler below
    const node = this;
    let watcher: Watcher | undefined;
    let closed = false;
    const refuse = (status: string, reason: string): void => {
      node.status({ fill: "red", shape: "ring", text: status });
      node.error(plainError(`watch failed: ${reason}`), { payload: undefined });
    };

    const start = (): void => {
      const client = findClient(RED, def, t);
      if (typeof client === "string") {
        refuse(t("morelogin.status.noConfig"), client);
        return;
      }
      watchSettings(RED, node, def).then(
        (settings) => {
          if (closed) return;
          watcher = new Watcher(node, client, settings, t, STATUS_KEYS, kept);
          watcher.start();
        },
        (error: unknown) => {
          if (!closed) refuse(t("morelogin.status.input"), messageOf(error));
        },
      );
    };
    waiting.add(start);

    node.on("close", (removed: boolean, done: () => void) => {
      closed = true;
      waiting.delete(start);
      watcher?.stop();
      if (removed) kept.forget(node.id);
      node.status({});
      done();
    });
  }

  RED.nodes.registerType("morelogin-watch", MoreLoginWatchNode);
};
