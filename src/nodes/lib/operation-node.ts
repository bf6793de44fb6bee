import { setMaxListeners } from "node:events";
import type { Node, NodeAPI, NodeMessage } from "node-red";
import { MoreLoginAbortError, MoreLoginError, messageOf, type CallOptions, type MoreLoginClient } from "../../client";
import { createTranslator, type Translate } from "./i18n";
import { StatusTracker } from "./status";
import { timeoutOf } from "./timeout";
import type { ConfigNode, MoreLoginMessage, OperationNodeDef } from "./types";

export interface OperationContext {
  RED: NodeAPI;
  node: Node;
  def: OperationNodeDef;
  msg: MoreLoginMessage;
  client: MoreLoginClient;
  /** What every client call of this message takes: the node's stop signal, its timeout, its queue count. */
  options: CallOptions;
  /** The node set's messages, e.g. t("morelogin.status.items", { count: 3 }). */
  t: Translate;
}

export interface OperationResult {
  /** Sent in this order on the node's one output. */
  messages: NodeMessage[];
  /** Short status text for success; a function when working it out costs (asked for only when shown). */
  summary: string | (() => string);
}

export interface Operation {
  /** Names the operation in error texts: "<label> failed: …". */
  label: string;
  run(context: OperationContext): Promise<OperationResult>;
}

/**
 * Registers an operation node type. Every such node shares this input wrapper: find the config
 * node's client, run the operation, send, and end each message exactly once with done() or done(err).
 */
export function registerOperationNode(RED: NodeAPI, type: string, operation: Operation): void {
  const translate = createTranslator(RED);

  function OperationNodeConstructor(this: Node, def: OperationNodeDef): void {
    RED.nodes.createNode(this, def);
    // biome-ignore lint/complexity/noUselessThisAlias: Node-RED's idiom, `node` is the node in every handler below
    const node = this;
    const status = new StatusTracker(node, translate);
    const closing = new AbortController();
    // Each message in flight listens on this signal: more than 10 at once is normal, not a leak.
    setMaxListeners(0, closing.signal);

    node.on("input", (msg: NodeMessage, send: (msg: NodeMessage | Array<NodeMessage | NodeMessage[] | null>) => void, done: (err?: Error) => void) => {
      const message = msg as MoreLoginMessage;
      const client = findClient(RED, def, translate);
      if (typeof client === "string") {
        status.failEarly(translate("morelogin.status.noConfig"));
        done(plainError(`${operation.label} failed: ${client}`));
        return;
      }
      const end = (failure?: Error): void => {
        try {
          done(failure);
        } catch {
          // The runtime's own done() failed: this message has had its one outcome already.
        }
      };
      status.begin();
      const onQueued = (queued: boolean): void => status.queued(queued);
      timeoutOf(RED, node, def, message)
        .then((timeoutMs) => operation.run({ RED, node, def, msg: message, client, options: { signal: closing.signal, timeoutMs, onQueued }, t: translate }))
        .then(
          (result) => {
            let failure: Error | undefined;
            try {
              status.succeed(result.summary);
              if (result.messages.length === 1) send(result.messages[0] as NodeMessage);
              else if (result.messages.length > 1) send([result.messages]);
            } catch (error) {
              failure = asError(error);
            }
            end(failure);
          },
          (error: unknown) => {
            let failure: Error;
            try {
              status.fail(shortReason(error, translate));
              failure = describeFailure(operation.label, error, message);
            } catch (unexpected) {
              failure = asError(unexpected);
            }
            end(failure);
          },
        );
    });

    node.on("close", (_removed: boolean, done: () => void) => {
      closing.abort(new MoreLoginAbortError("the node was stopped (a deploy or Node-RED shutting down) while the call was in flight", {}));
      status.clear();
      done();
    });
  }

  RED.nodes.registerType(type, OperationNodeConstructor);
}

function findClient(RED: NodeAPI, def: OperationNodeDef, translate: Translate): MoreLoginClient | string {
  if (!def.server) return translate("morelogin.errors.noConfig");
  const server = RED.nodes.getNode(def.server) as ConfigNode | null;
  if (!server) return translate("morelogin.errors.configMissing");
  if (!server.client) return translate("morelogin.errors.configUnusable", { reason: server.clientError ?? "" });
  return server.client;
}

/** Records the failure on the message and builds the error that done() hands to Catch nodes. */
function describeFailure(label: string, error: unknown, msg: MoreLoginMessage): Error {
  if (error instanceof MoreLoginError) {
    msg.morelogin = {
      ...msg.morelogin,
      api: error.api ?? msg.morelogin?.api ?? "",
      path: error.path ?? msg.morelogin?.path ?? "",
      error: error.toFlowError(),
    };
  }
  return plainError(`${label} failed: ${messageOf(error)}`);
}

function asError(value: unknown): Error {
  if (value instanceof Error) return value;
  try {
    return new Error(String(value));
  } catch {
    return new Error("unexpected failure");
  }
}

/** An Error whose text in Catch nodes and the Debug sidebar is the message alone, without "Error: ". */
function plainError(message: string): Error {
  const error = new Error(message);
  error.name = "";
  return error;
}

function shortReason(error: unknown, translate: Translate): string {
  if (!(error instanceof MoreLoginError)) return translate("morelogin.status.failed");
  switch (error.kind) {
    case "api":
      return translate("morelogin.status.code", { code: error.code });
    case "http":
      return translate("morelogin.status.http", { status: error.status });
    default:
      return translate(`morelogin.status.${error.kind}`);
  }
}
