import { setMaxListeners } from "node:events";
import type { Node, NodeAPI, NodeMessage } from "node-red";
import { MoreLoginAbortError, MoreLoginClient, MoreLoginError, asError, isPlainObjectValue, messageOf, type CallOptions, type CapacityKind, type PacedStart, type WaitReason } from "../../../client";
import { createTranslator, type Translate } from "./i18n";
import { itemRequests, type ItemRequests } from "./item-requests";
import { OWN_STATUS, StatusTracker, type MessageStatus, type SuccessFill } from "./status";
import { timeoutOf } from "./timeout";
import type { ConfigNode, MoreLoginMessage, OperationNodeDef } from "./types";

export interface MessageContext {
  RED: NodeAPI;
  node: Node;
  def: OperationNodeDef;
  msg: MoreLoginMessage;
  /** What every call of this message takes: the node's stop signal, its timeout, its queue count. */
  options: CallOptions;
  /** The node set's messages, e.g. t("morelogin.status.items", { count: 3 }). */
  t: Translate;
}

export interface OperationContext extends MessageContext {
  client: MoreLoginClient;
}

export interface OperationResult {
  /** Sent in this order on the node's one output. */
  messages: NodeMessage[];
  /** Short status text for success; a function when working it out costs (asked for only when shown). */
  summary: string | (() => string);
  /** The status colour of the summary: green unless the outcome is partly or wholly bad without being an error (dead proxies). */
  fill?: SuccessFill;
}

export interface Operation<C extends MessageContext = OperationContext> {
  /** Names the operation in error texts: "<label> failed: …". */
  label: string;
  run(context: C): Promise<OperationResult>;
  /** The node's own secrets (Node-RED credentials of type password), read from `node.credentials`. */
  credentials?: readonly string[];
}

/** A node that works without a MoreLogin config node (the browser node talks to the browser directly). */
export interface MessageOperation extends Operation<MessageContext>, NodeLifecycle {}

/** One node's own part: what runs its messages and, for a node with state of its own, what its close waits for. */
export interface NodeInstance<C extends MessageContext = MessageContext> {
  run(context: C): Promise<OperationResult>;
  /**
   * Called when the node is stopped (removed: deleted rather than redeployed), after its messages are
   * cancelled; the node's close ends when this settles, so it reports its own failures.
   */
  close?(removed: boolean): Promise<void>;
}

/** What a node type shares between its nodes learns when one is created and when one is stopped. */
export interface NodeLifecycle {
  onStart?(): void;
  /** Called when the node is stopped (a deploy, Node-RED shutting down), after its messages are cancelled. */
  onClose?(): void;
}

/**
 * Registers an operation node type: its messages go through the config node's client (see
 * registerMessageNode for what every message gets).
 */
export function registerOperationNode(RED: NodeAPI, type: string, operation: Operation): void {
  const translate = createTranslator(RED);
  const instance: NodeInstance<OperationContext> = { run: operation.run };
  registerNode<OperationContext, MoreLoginClient>(RED, type, {
    label: operation.label,
    prerequisite: (def) => findClient(RED, def, translate),
    instance: () => instance,
    credentials: operation.credentials,
  });
}

/**
 * Registers a node type that needs no config node. Every node shares one input wrapper: run the
 * operation, send, and end each message exactly once with done() or done(err).
 */
export function registerMessageNode(RED: NodeAPI, type: string, operation: MessageOperation): void {
  const instance: NodeInstance = { run: operation.run };
  registerNode<MessageContext, undefined>(RED, type, { label: operation.label, prerequisite: () => undefined, instance: () => instance, lifecycle: operation });
}

/**
 * Registers a node type that needs no config node and whose nodes each keep state of their own and
 * show their own status (the batch node: its journal or queue, its progress). Each node makes its
 * instance when it is created; its messages go through the same input wrapper as every node's.
 */
export function registerStatefulNode(RED: NodeAPI, type: string, label: string, instance: (node: Node, def: OperationNodeDef) => NodeInstance): void {
  registerNode<MessageContext, undefined>(RED, type, { label, prerequisite: () => undefined, instance, ownStatus: true });
}

/** How the shell runs the nodes of one type. */
interface NodeShell<C extends MessageContext, E> {
  label: string;
  /** What the node's messages need beyond the message (the client), or the reason it cannot have it. */
  prerequisite: (def: OperationNodeDef) => E | string;
  /** Called for each node when it is created. */
  instance: (node: Node, def: OperationNodeDef) => NodeInstance<C>;
  lifecycle?: NodeLifecycle;
  credentials?: readonly string[];
  /** The node shows its own status (the batch's progress): its messages leave the status alone. */
  ownStatus?: boolean;
}

/** What one node's input and close handlers share. */
interface ShellNode<C extends MessageContext, E> {
  RED: NodeAPI;
  node: Node;
  def: OperationNodeDef;
  shell: NodeShell<C, E>;
  instance: NodeInstance<C>;
  status: MessageStatus;
  /** Aborted when the node is stopped: every call in flight listens on it. */
  closing: AbortController;
  translate: Translate;
}

type Send = (msg: NodeMessage | Array<NodeMessage | NodeMessage[] | null>) => void;
type Done = (err?: Error) => void;

function registerNode<C extends MessageContext, E>(RED: NodeAPI, type: string, shell: NodeShell<C, E>): void {
  const translate = createTranslator(RED);

  function OperationNodeConstructor(this: Node, def: OperationNodeDef): void {
    RED.nodes.createNode(this, def);
    const closing = new AbortController();
    // Each message in flight listens on this signal: more than 10 at once is normal, not a leak.
    setMaxListeners(0, closing.signal);
    shell.lifecycle?.onStart?.();
    const status = shell.ownStatus ? OWN_STATUS : new StatusTracker(this, translate);
    const shellNode: ShellNode<C, E> = { RED, node: this, def, shell, instance: shell.instance(this, def), status, closing, translate };
    this.on("input", inputHandler(shellNode));
    this.on("close", closeHandler(shellNode));
  }

  const credentials = shell.credentials ?? [];
  if (credentials.length === 0) RED.nodes.registerType(type, OperationNodeConstructor);
  else RED.nodes.registerType(type, OperationNodeConstructor, { credentials: Object.fromEntries(credentials.map((name) => [name, { type: "password" as const }])) });
}

/** The one input wrapper: the prerequisite and the timeout, the run, what it sends, and exactly one done() or done(err). */
function inputHandler<C extends MessageContext, E>({ RED, node, def, shell, instance, status, closing, translate }: ShellNode<C, E>): (msg: NodeMessage, send: Send, done: Done) => void {
  return (msg, send, done) => {
    const message = msg as MoreLoginMessage;
    // msg.morelogin is this package's: a value there that is not an object is replaced, never spread into index keys.
    if (message.morelogin !== undefined && !isPlainObjectValue(message.morelogin)) delete message.morelogin;
    const needed = shell.prerequisite(def);
    if (typeof needed === "string") {
      status.failEarly(translate("morelogin.status.noConfig"));
      done(plainError(`${shell.label} failed: ${needed}`));
      return;
    }
    const end = guardedDone(done);
    status.begin();
    const usage = needed instanceof MoreLoginClient ? (kind: CapacityKind) => needed.capacityUsage(kind) : undefined;
    const onQueued = (queued: boolean, reason: WaitReason, paced?: PacedStart): void => status.queued(queued, reason, usage, paced);
    const requests = itemRequests(message, needed instanceof MoreLoginClient ? needed : undefined);
    timeoutOf(RED, node, def, message)
      .then((timeoutMs) => {
        const base: MessageContext = { RED, node, def, msg: message, options: { signal: closing.signal, timeoutMs, onQueued, onRequest: requests.onRequest }, t: translate };
        return instance.run((needed === undefined ? base : { ...base, client: needed }) as C);
      })
      .then(
        (result) => end(sendResult(result, send, status, requests)),
        (error: unknown) => end(failureOf(error, shell.label, message, status, requests, translate)),
      );
  };
}

/** done() that never throws into the promise chain that calls it. */
function guardedDone(done: Done): Done {
  return (failure) => {
    try {
      done(failure);
    } catch {
      // The runtime's own done() failed: this message has had its one outcome already.
    }
  };
}

/** Sends what the run made and shows its summary; what went wrong doing that, if anything. */
function sendResult(result: OperationResult, send: Send, status: MessageStatus, requests: ItemRequests): Error | undefined {
  try {
    requests.record();
    status.succeed(result.summary, result.fill);
    if (result.messages.length === 1) send(result.messages[0] as NodeMessage);
    else if (result.messages.length > 1) send([result.messages]);
    return undefined;
  } catch (error) {
    return asError(error);
  }
}

/** Shows why the run failed and records it on the message: the error done() is given. */
function failureOf(error: unknown, label: string, message: MoreLoginMessage, status: MessageStatus, requests: ItemRequests, translate: Translate): Error {
  try {
    requests.record();
    status.fail(shortReason(error, translate));
    return describeFailure(label, error, message);
  } catch (unexpected) {
    return asError(unexpected);
  }
}

/** Stopping the node (a deploy, Node-RED shutting down) cancels its messages in flight, clears its status and closes its instance. */
function closeHandler<C extends MessageContext, E>({ shell, instance, status, closing }: ShellNode<C, E>): (removed: boolean, done: () => void) => void {
  return (removed, done) => {
    closing.abort(new MoreLoginAbortError("the node was stopped (a deploy or Node-RED shutting down) while the call was in flight", {}));
    status.clear();
    shell.lifecycle?.onClose?.();
    const closed = instance.close?.(removed);
    if (closed === undefined) {
      done();
      return;
    }
    const ended = (): void => done();
    closed.then(ended, ended);
  };
}

/** The config node's client, or the reason (a translated text) there is none. */
export function findClient(RED: NodeAPI, def: OperationNodeDef, translate: Translate): MoreLoginClient | string {
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

/** An Error whose text in Catch nodes and the Debug sidebar is the message alone, without "Error: ". */
export function plainError(message: string): Error {
  const error = new Error(message);
  error.name = "";
  return error;
}

/** A failure in a few words for the node's status. */
export function shortReason(error: unknown, translate: Translate): string {
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
