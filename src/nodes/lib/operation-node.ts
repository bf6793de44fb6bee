import type { Node, NodeAPI, NodeMessage } from "node-red";
import { MoreLoginError, type MoreLoginClient } from "../../client";
import { createTranslator, type Translate } from "./i18n";
import { StatusTracker } from "./status";
import type { ConfigNode, MoreLoginMessage, OperationNodeDef } from "./types";

export interface OperationContext {
  RED: NodeAPI;
  node: Node;
  def: OperationNodeDef;
  msg: MoreLoginMessage;
  client: MoreLoginClient;
  signal: AbortSignal;
  /** The node set's messages, e.g. t("morelogin.status.items", { count: 3 }). */
  t: Translate;
}

export interface OperationResult {
  /** Sent in this order on the node's one output. */
  messages: NodeMessage[];
  /** Short status text for success. */
  summary: string;
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
    const node = this;
    const status = new StatusTracker(node, translate);
    const closing = new AbortController();

    node.on("input", (msg: NodeMessage, send: (msg: NodeMessage | Array<NodeMessage | NodeMessage[] | null>) => void, done: (err?: Error) => void) => {
      const message = msg as MoreLoginMessage;
      const client = findClient(RED, def, translate);
      if (typeof client === "string") {
        status.failEarly(translate("morelogin.status.noConfig"));
        done(plainError(`${operation.label} failed: ${client}`));
        return;
      }
      let finished = false;
      const finish = (error?: Error): void => {
        if (finished) return;
        finished = true;
        done(error);
      };
      status.begin();
      operation
        .run({ RED, node, def, msg: message, client, signal: closing.signal, t: translate })
        .then(
          (result) => {
            status.succeed(result.summary);
            if (result.messages.length === 1) send(result.messages[0] as NodeMessage);
            else if (result.messages.length > 1) send([result.messages]);
            finish();
          },
          (error: unknown) => {
            status.fail(shortReason(error, translate));
            finish(describeFailure(operation.label, error, message));
          },
        )
        .catch((error: unknown) => finish(error instanceof Error ? error : new Error(String(error))));
    });

    node.on("close", (_removed: boolean, done: () => void) => {
      closing.abort();
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
  const text = error instanceof Error ? error.message : String(error);
  if (error instanceof MoreLoginError) {
    msg.morelogin = {
      ...msg.morelogin,
      api: error.api ?? msg.morelogin?.api ?? "",
      path: error.path ?? msg.morelogin?.path ?? "",
      error: {
        kind: error.kind,
        code: error.code,
        msg: error.apiMsg,
        status: error.status,
        requestId: error.requestId,
        path: error.path,
      },
    };
  }
  return plainError(`${label} failed: ${text}`);
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
