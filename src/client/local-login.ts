import { authCallError } from "./auth-errors";
import { MoreLoginAuthError, MoreLoginError } from "./errors";
import type { ReadResult } from "./reply-reader";
import { contextOf, exchangeFor, waitShared, type Exchange, type PreparedCall, type Send, type Stage } from "./stages";

/** MoreLogin's server edition: `POST /api/user/login` `{apiId, apiKey}`, success is code 0 (MoreLogin-API-Demos, linux_server_test.py). */
export const LOGIN_PATH = "/api/user/login";

/**
 * A Local reply that says the client is not logged in: HTTP 401, or MoreLogin's older codes for
 * "API authentication info missing" (35001) and "API authentication failed" (35002).
 */
const NOT_LOGGED_IN_CODES: ReadonlySet<number> = new Set([35001, 35002]);

/**
 * Whether the server edition's client is logged in, and the one login in flight however many calls
 * wait for it. Each login has a number, so that a call refused under an old login does not throw
 * away a newer one.
 */
export class LocalLogin {
  private generation = 0;
  private loggedIn = false;
  private pending?: Promise<number>;

  constructor(private readonly logIn: () => Promise<void>) {}

  /** The number of the login that holds, if one does. */
  current(): number | undefined {
    return this.loggedIn ? this.generation : undefined;
  }

  /** The login that holds, or the one in flight (started when none is). */
  get(): Promise<number> {
    const current = this.current();
    if (current !== undefined) return Promise.resolve(current);
    this.pending ??= this.run();
    return this.pending;
  }

  /** The server refused a call made under this login: the next call logs in again (unless a newer login holds). */
  forget(generation: number): void {
    if (this.generation === generation) this.loggedIn = false;
  }

  /** Logs in again now (the config dialog's Test connection), joining a login already in flight. */
  renew(): Promise<number> {
    if (!this.pending) this.loggedIn = false;
    return this.get();
  }

  clear(): void {
    this.loggedIn = false;
  }

  private async run(): Promise<number> {
    try {
      await this.logIn();
      this.generation++;
      this.loggedIn = true;
      return this.generation;
    } finally {
      this.pending = undefined;
    }
  }
}

/**
 * The login stage: a Local call waits for the login (one for every waiting call); when the reply says
 * the client is not logged in (its login was forgotten, as on a server restart), it logs in again once
 * and sends the call once more. A refused call did not run, so sending it again is safe.
 */
export function loginStage(login: LocalLogin): Stage {
  const throughLogin = async (exchange: Exchange, next: Send): Promise<ReadResult> => {
    for (let renewed = false; ; renewed = true) {
      const generation = login.current() ?? (await waitShared(login.get(), exchange.call, exchange.options.signal));
      try {
        const result = await next(exchange);
        if (!(exchange.call.wholeReply && isNotLoggedInCode((result.data as { code?: unknown } | null)?.code))) return result;
      } catch (error) {
        if (!saysNotLoggedIn(error)) throw error;
      }
      login.forget(generation);
      if (renewed) {
        throw new MoreLoginAuthError(
          "the MoreLogin server still says it is not logged in right after a successful login: check that the API ID and API Key belong to the account signed in on the server",
          {
            ...contextOf(exchange.call),
            notSent: true,
          },
        );
      }
    }
  };
  return { name: "login", through: (exchange, next) => (exchange.call.api === "local" ? throughLogin(exchange, next) : next(exchange)) };
}

function isNotLoggedInCode(code: unknown): boolean {
  return typeof code === "number" && NOT_LOGGED_IN_CODES.has(code);
}

function saysNotLoggedIn(error: unknown): boolean {
  return error instanceof MoreLoginError && error.api === "local" && (error.status === 401 || isNotLoggedInCode(error.code));
}

export interface LoginCredentials {
  apiId?: string;
  apiKey?: string;
}

/**
 * The login request itself, sent through `send` (the gate and the wire: it counts against the Local
 * pacing like any request). A refusal is final, an error of kind `auth` that names no secret; any
 * other failure keeps its kind and is marked as never sent, because the call that needed the login
 * has not gone out yet.
 */
export function serverLogin(credentials: LoginCredentials, send: Send, timeoutMs: number): () => Promise<void> {
  return async () => {
    const { apiId, apiKey } = credentials;
    if (!apiId || !apiKey) {
      throw new MoreLoginAuthError("the MoreLogin server's login needs the API ID and API Key in the MoreLogin config node", { api: "local", method: "POST", path: LOGIN_PATH, notSent: true });
    }
    const call: PreparedCall = { api: "local", method: "POST", path: LOGIN_PATH, endpoint: "login", json: JSON.stringify({ apiId, apiKey }), idempotency: "read", timeoutMs };
    try {
      await send(exchangeFor(call, {}));
    } catch (error) {
      throw loginError(error);
    }
  };
}

function loginError(error: unknown): unknown {
  return authCallError(
    error,
    { api: "local", path: LOGIN_PATH },
    (refused) =>
      `the MoreLogin server refused the login: ${refused.code === undefined ? `HTTP ${refused.status}` : `${refused.apiMsg ?? "refused"} (code ${refused.code})`}: check the API ID and API Key in the MoreLogin config node`,
    (failed) => `the MoreLogin server login failed: ${failed.message}`,
  );
}
