import { ENDPOINTS, MoreLoginInputError, pathOn, type ApiName, type CallOptions, type CallResult, type EndpointName } from "../../../client";
import type { ActionContext } from "../shell/action-node";
import { single } from "../shell/output";

/** Refuses, before anything is sent, an action MoreLogin documents on one API only, naming that API. */
export function checkApi({ api, action, t }: ActionContext, endpoint: EndpointName): void {
  if (pathOn(ENDPOINTS[endpoint], api) === undefined) {
    throw new MoreLoginInputError(t("morelogin.errors.localOnly", { action, path: ENDPOINTS[endpoint].path }));
  }
}

/** The call options of an action: the node's, on the node's API. */
export function callOptions(context: ActionContext): CallOptions {
  return { ...context.options, api: context.api };
}

/** What a long operation answered without waiting leaves to poll: the route (on the node's API) and a body per item. */
export interface PollHint {
  path: string;
  bodies: Record<string, unknown>[];
}

export function pollHint(endpoint: EndpointName, api: ApiName, bodies: Record<string, unknown>[]): PollHint {
  return { path: pathOn(ENDPOINTS[endpoint], api) ?? ENDPOINTS[endpoint].path, bodies };
}

/** The message of a phone action, its topic the phone's ID when it concerned one, and its status text (`summaryKey`, counting the phones). */
export function reply(context: ActionContext, result: Pick<CallResult<unknown>, "api" | "path" | "requestId">, payload: unknown, ids: readonly string[], summaryKey: string) {
  if (ids.length === 1) context.msg.topic = ids[0];
  return {
    messages: single(context.msg, payload, { api: result.api, path: result.path, requestId: result.requestId }),
    summary: context.t(summaryKey, { count: ids.length }),
  };
}
