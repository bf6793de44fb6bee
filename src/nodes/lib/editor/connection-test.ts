import { messageOf, type Balance, type MoreLoginClient } from "../../../client";

/** One line of the connection test: passed, failed, or not checked (null). */
export interface TestLine {
  ok: boolean | null;
  message: string;
}

/** The wallet in words: `125.00 (12500 cents), remaining duration 120 minutes, remaining concurrency 3`. */
export function balanceText(wallet: Partial<Balance> | null | undefined): string {
  const cents = Number(wallet?.balance);
  const amount = Number.isFinite(cents) ? `${(cents / 100).toFixed(2)} (${cents} cents)` : "not given";
  return `${amount}, remaining duration ${String(wallet?.remainingDuration ?? "?")} minutes, remaining concurrency ${String(wallet?.remainingConcurrency ?? "?")}`;
}

/**
 * The config node's "Test connection": the server login when it has one, the Local API (and there the wallet's
 * balance, which a desktop client older than the route may not answer: not a connection failure), the Open API.
 */
export async function connectionTest(client: MoreLoginClient): Promise<Record<string, TestLine>> {
  const login = client.localLogin
    ? await client.logIn().then(
        (): TestLine => ({ ok: true, message: "Server login: logged in with the API ID and API Key" }),
        (error: unknown): TestLine => ({ ok: false, message: `Server login: ${messageOf(error)}` }),
      )
    : undefined;
  const local: TestLine =
    login?.ok === false
      ? { ok: null, message: "Local API: not checked (the server login failed)" }
      : await client.call("listProfiles", { pageNo: 1, pageSize: 1 }).then(
          (result): TestLine => ({ ok: true, message: `Local API reachable: ${result.data.total} profiles` }),
          (error: unknown): TestLine => ({ ok: false, message: `Local API: ${messageOf(error)}` }),
        );
  const balance =
    local.ok === true
      ? await client.call("balance").then(
          (result): TestLine => ({ ok: true, message: `Balance: ${balanceText(result.data)}` }),
          (error: unknown): TestLine => ({ ok: null, message: `Balance: not read (${messageOf(error)})` }),
        )
      : undefined;
  const open: TestLine = client.hasOpenCredentials
    ? await client.call("listApps", { pageNum: 1, pageSize: 1 }).then(
        (): TestLine => ({ ok: true, message: "Open API: signed in with the API ID and API Key" }),
        (error: unknown): TestLine => ({ ok: false, message: `Open API: ${messageOf(error)}` }),
      )
    : { ok: null, message: "Open API: not checked (no API ID and API Key set)" };
  return { ...(login ? { login } : {}), local, ...(balance ? { balance } : {}), open };
}
