import type { CallResult } from "../../../client";
import type { ActionContext } from "../shell/action-node";
import type { OperationResult } from "../shell/operation-node";
import { single } from "../shell/output";

/**
 * The reply of a proxy, group or tag action: the API's data as msg.payload, msg.topic the ID when
 * the action concerns one, and the status text under `summaryKey` (given the count of IDs).
 */
export function resourceReply(context: ActionContext, summaryKey: string, result: CallResult<unknown>, payload: unknown, ids: readonly string[]): OperationResult {
  if (ids.length === 1) context.msg.topic = ids[0];
  return {
    messages: single(context.msg, payload, { api: result.api, path: result.path, requestId: result.requestId }),
    summary: context.t(summaryKey, { count: ids.length }),
  };
}
