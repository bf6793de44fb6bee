import { MoreLoginAuthError, MoreLoginError } from "./errors";
import type { ReadResult } from "./reply-reader";
import { contextOf, requestHeaders, waitShared, type Exchange, type RequestHeaders, type Send, type Stage } from "./stages";
import type { TokenCache } from "./token-cache";

/**
 * What each request carries: on the Local API the desktop client's token as is (made once); on the
 * Open API the bearer token, fetched once for every caller; a refused token is dropped and the call
 * sent once more with a new one.
 */
export function authStage(localToken: string | undefined, tokens: TokenCache): Stage {
  const localHeaders = requestHeaders(localToken);
  let openHeadersFor: { token: string; headers: RequestHeaders } | undefined;
  /** The Open API's headers for one token, made again only when the token changes. */
  const openHeaders = (token: string): RequestHeaders => {
    if (openHeadersFor?.token !== token) openHeadersFor = { token, headers: requestHeaders(`Bearer ${token}`) };
    return openHeadersFor.headers;
  };
  const throughOpen = async (exchange: Exchange, next: Send): Promise<ReadResult> => {
    for (let tokenTry = 0; ; tokenTry++) {
      const token = tokens.current() ?? (await waitShared(tokens.get(), exchange.call, exchange.options.signal));
      exchange.headers = openHeaders(token);
      try {
        return await next(exchange);
      } catch (error) {
        if (!(error instanceof MoreLoginError) || error.status !== 401) throw error;
        tokens.invalidate(token);
        if (tokenTry >= 1) {
          throw new MoreLoginAuthError("the Open API refused a freshly issued token (HTTP 401): check the API ID's permissions", { ...contextOf(exchange.call), status: 401 });
        }
      }
    }
  };
  return {
    name: "credentials",
    through: (exchange, next) => {
      if (exchange.call.api === "open") return throughOpen(exchange, next);
      exchange.headers = localHeaders;
      return next(exchange);
    },
  };
}
