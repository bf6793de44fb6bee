import { MoreLoginAuthError, MoreLoginError, type ErrorContext } from "./errors";
import type { ApiName } from "./types";

/**
 * What a failed token request or server login becomes. Credentials refused (HTTP 401 or 403, or an API
 * code on HTTP 200) are final: an auth error with `refused`'s text. Anything else (network, 5xx, an
 * unreadable reply) keeps its kind with `failed`'s text and is marked never sent, because the call that
 * needed the token or login has not gone out yet.
 */
export function authCallError(error: unknown, where: { api: ApiName; path: string }, refused: (error: MoreLoginError) => string, failed: (error: MoreLoginError) => string): unknown {
  if (!(error instanceof MoreLoginError)) return error;
  const context: ErrorContext = {
    api: where.api,
    method: "POST",
    path: where.path,
    status: error.status,
    code: error.code,
    apiMsg: error.apiMsg,
    requestId: error.requestId,
    retryAfterMs: error.retryAfterMs,
  };
  if (error.status === 401 || error.status === 403 || (error.kind === "api" && error.status === 200)) return new MoreLoginAuthError(refused(error), context);
  return new MoreLoginError(error.kind, failed(error), { ...context, notSent: true }, { cause: error });
}
