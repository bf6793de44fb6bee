/** One message's outcome in a real runtime, as the workflow-node suites check it. */
import assert from "node:assert/strict";
import type { Node, NodeMessage } from "node-red";
import type { Emulator, LoggedRequest } from "../../src/emulator";
import { credentialsFor, flowWith, helper, loadFlow, sendAndCollect, settle, type FlowNode, type Msg, type Outcome } from "./node-red";
import { sleep } from "./emulator";
import { OUTCOME_MS, waitUntil } from "./wait-until";

/** What a node puts in `msg.morelogin`. */
export interface Info {
  api: string;
  path: string;
  requestId?: string;
  pages?: number;
  profile?: { envId: string; debugPort: string; cdpUrl?: string; webSocketDebuggerUrl?: string };
  page?: { targetId: string; webSocketDebuggerUrl: string };
  error?: { kind: string; code?: number; msg?: string; status?: number; path?: string };
}

/**
 * A 19-digit MoreLogin ID written as a JSON number: its last digits are already lost
 * (1993244721490239500), so a node must refuse it rather than act on another ID.
 */
// biome-ignore lint/correctness/noPrecisionLoss: the lost digits are what the tests check a node refuses
export const UNSAFE_ID = 1993244721490239488;

/** The config node of these suites: pacing off, so a test's polls and lists are never held back. */
export const NO_PACING = { localRpm: "0", openRpm: "0" };

/**
 * Loads the usual test flow with `node` as the node under test, sends it `input` and collects what
 * came of it (sendAndCollect), with the emulator's credentials (API ID and key included).
 */
export function run(
  emulator: Emulator,
  node: Record<string, unknown>,
  input: Record<string, unknown>,
  options: { config?: Record<string, unknown>; credentials?: Record<string, string>; ms?: number; quiet?: boolean } = {},
): Promise<Outcome> {
  return sendAndCollect(flowWith(emulator, node, { ...NO_PACING, ...options.config }), input, credentialsFor(emulator, options.credentials), options.ms ?? OUTCOME_MS, { quiet: options.quiet });
}

const errorText = (msg: Msg | undefined): string => (msg?.error as { message?: string } | undefined)?.message ?? "";

export function infoOf(msg: Msg | undefined): Info {
  assert.ok(msg?.morelogin, "the message has msg.morelogin");
  return msg.morelogin as Info;
}

/** The one message a node sent on for a message it ended with done(), and nothing else came of it. */
export function succeeded(outcome: Outcome): Msg {
  assert.deepEqual(outcome.caught.map(errorText), [], "no error");
  assert.equal(outcome.completed.length, 1, "the message is ended once, with done()");
  assert.equal(outcome.out.length, 1, "one message is sent on");
  const [msg] = outcome.out;
  assert.ok(msg);
  return msg;
}

/** The error text and `msg.morelogin.error` of a message the node ended once with done(err), sending nothing. */
export function failed(outcome: Outcome): { text: string; msg: Msg; error: NonNullable<Info["error"]> } {
  assert.equal(outcome.out.length, 0, "nothing is sent on");
  assert.equal(outcome.completed.length, 0, "the message is not ended with done()");
  assert.equal(outcome.caught.length, 1, "the message is ended once, with done(err)");
  const [msg] = outcome.caught;
  assert.ok(msg);
  const error = infoOf(msg).error;
  assert.ok(error, "msg.morelogin.error is set");
  return { text: errorText(msg), msg, error };
}

/** A message refused as bad input: the error text matches, its kind is `input`. */
export function refused(outcome: Outcome, text: RegExp): void {
  const failure = failed(outcome);
  assert.match(failure.text, text);
  assert.equal(failure.error.kind, "input", failure.text);
}

/** Asserts `msg.morelogin` is exactly `expected` plus the API's request ID. */
export function assertInfo(msg: Msg, expected: Omit<Info, "requestId">): void {
  const info = infoOf(msg);
  assert.match(String(info.requestId), /^[0-9a-f]{32}$/);
  assert.deepEqual(info, { ...expected, requestId: info.requestId });
}

/** The requests the emulator received at `path` (on either API), oldest first. */
export function requestsAt(emulator: Emulator, path: string): LoggedRequest[] {
  return emulator.requestLog.filter((entry) => entry.path === path);
}

/** The body of the one request the emulator received at `path`. */
export function onlyBodyAt(emulator: Emulator, path: string): unknown {
  const received = requestsAt(emulator, path);
  assert.equal(received.length, 1, `one request to ${path}`);
  return received[0]?.body;
}

/** Nothing reached the emulator but, maybe, Open API token requests. */
export function assertNothingSent(emulator: Emulator): void {
  assert.deepEqual(
    emulator.requestLog.filter((entry) => entry.path !== "/oauth2/token").map((entry) => `${entry.api} ${entry.path}`),
    [],
    "nothing was sent",
  );
}

/**
 * Loads `flow`, sends `input` to the node under test ("n1") and waits until `started` holds (the
 * node is waiting on the API); then redeploys (unloads the flows), checks the message has ended
 * once by then, and returns the texts the node ended its messages with (more may come later). The
 * helper drops its spies before it stops the flows, so the node's own error() is watched, as
 * Node-RED calls it for done(err).
 */
export async function redeployWhile(flow: FlowNode[], credentials: Record<string, Record<string, string>>, input: Record<string, unknown>, started: () => boolean, what: string): Promise<string[]> {
  await loadFlow(flow, credentials);
  const node = helper.getNode("n1") as Node;
  const ended: string[] = [];
  const sent: unknown[] = [];
  node.error = (error: unknown): void => {
    ended.push(error instanceof Error ? error.message : String(error));
  };
  helper.getNode("out").on("input", (msg: unknown) => sent.push(msg));
  node.receive(input as NodeMessage);
  await waitUntil(started, what, OUTCOME_MS);
  // Lets the last status call's answer arrive, so the redeploy most likely lands in the poll's pause
  // (a second or more) rather than on a call in flight. Either must end the message at once, so
  // this pause decides only which of the two the test covers, never whether it passes.
  await sleep(300);
  await helper.unload();
  assert.deepEqual(sent, [], "nothing was sent on");
  // The stop ends the wait at once: the message has ended by the time the redeploy is done, not
  // at the end of the poll's pause.
  assert.equal(ended.length, 1, "the redeploy has ended the message");
  return ended;
}

/**
 * redeployWhile for a node that polls `pollPath` (on `emulator`): the redeploy comes once it has
 * polled twice, and no poll may follow it. Returns the texts the node ended its messages with.
 */
export async function redeployWhilePolling(emulator: Emulator, flow: FlowNode[], pollPath: string, pollName: string): Promise<string[]> {
  const polls = (): number => requestsAt(emulator, pollPath).length;
  const ended = await redeployWhile(flow, credentialsFor(emulator), { payload: "" }, () => polls() >= 2, "the node is polling");
  await waitUntil(() => ended.length > 0, "the message has ended");
  const polled = polls();
  // Longer than the poll's longest pause so far: a poll that went on would show.
  await settle(4_000);
  assert.equal(polls(), polled, `no ${pollName} after the redeploy`);
  return ended;
}
