import assert from "node:assert/strict";
import { MoreLoginAbortError, MoreLoginAuthError, MoreLoginClient, fetchAll } from "../../src/client";
import { startEmulator } from "../../src/emulator";
import { clearFaults, clientFor, rejection, requests, resetBeforeEach, useEmulator } from "../support/emulator";
import { waitUntil } from "../support/wait-until";

const TOKEN_ROUTE = "open POST /oauth2/token";
const APPS_ROUTE = "open POST /cloudphone/app/page";

describe("client: Open API and its token", () => {
  const { emulator } = useEmulator({ apps: 30 });
  resetBeforeEach(emulator, clearFaults);

  it("gets a token with client credentials and sends it as a Bearer header", async () => {
    const client = clientFor(emulator());
    try {
      const result = await client.call("listApps", { pageNum: 1, pageSize: 10 });
      assert.deepEqual(result.data.dataList, emulator().data.apps.slice(0, 10));
      const [tokenRequest, appRequest] = emulator().requestLog.slice(-2);
      assert.equal(tokenRequest?.path, "/oauth2/token");
      assert.deepEqual(tokenRequest?.body, {
        client_id: emulator().credentials.apiId,
        client_secret: emulator().credentials.apiKey,
        grant_type: "client_credentials",
      });
      assert.equal(tokenRequest?.headers.authorization, undefined);
      assert.match(String(appRequest?.headers.authorization), /^Bearer [\w-]+\.[\w-]+\.[\w-]+$/);
      assert.deepEqual(appRequest?.body, { pageNum: 1, pageSize: 10 });
    } finally {
      await client.close();
    }
  });

  it("shares one token request among 100 concurrent calls", async () => {
    const client = clientFor(emulator());
    try {
      const results = await Promise.all(Array.from({ length: 100 }, () => client.call("listApps", { pageNum: 1 })));
      assert.equal(results.length, 100);
      assert.equal(emulator().stats.tokensGranted, 1);
      assert.equal(requests(emulator(), TOKEN_ROUTE), 1);
      assert.equal(requests(emulator(), APPS_ROUTE), 100);
    } finally {
      await client.close();
    }
  });

  it("a call waiting for the token stops when its own signal fires; the token request goes on for the others", async function () {
    this.timeout(60_000);
    // The token request takes 5 s, so the signal surely fires while it is under way.
    emulator().script({ kind: "latency", api: "open", path: "/oauth2/token", latencyMs: 5_000 });
    const client = clientFor(emulator());
    try {
      const controller = new AbortController();
      let grantedWhenCancelled = -1;
      const cancelled = rejection(client.call("listApps", { pageNum: 1 }, { signal: controller.signal })).then((error) => {
        grantedWhenCancelled = emulator().stats.tokensGranted;
        return error;
      });
      const patient = client.call("listApps", { pageNum: 1 });
      await waitUntil(() => requests(emulator(), TOKEN_ROUTE) === 1, "the token request is under way", 5_000);
      controller.abort();
      const error = await cancelled;
      assert.ok(error instanceof MoreLoginAbortError);
      assert.equal(error.message, "the call was cancelled");
      assert.equal(error.notSent, true);
      assert.equal(grantedWhenCancelled, 0, "the cancelled call did not wait for the token");
      assert.equal((await patient).data.dataList.length, 10);
      assert.equal(requests(emulator(), TOKEN_ROUTE), 1);
      assert.equal(requests(emulator(), APPS_ROUTE), 1);
    } finally {
      await client.close();
    }
  });

  it("drops a revoked token on HTTP 401 and retries the call once with a new one", async () => {
    const client = clientFor(emulator());
    try {
      await client.call("listApps", { pageNum: 1 });
      emulator().revokeAllTokens();
      const result = await client.call("listApps", { pageNum: 2 });
      assert.equal(result.data.current, "2");
      assert.equal(emulator().stats.tokensGranted, 2);
      assert.equal(requests(emulator(), APPS_ROUTE), 3);
    } finally {
      await client.close();
    }
  });

  it("refuses wrong credentials with a clear error, once, and never shows the key", async () => {
    const client = clientFor(emulator(), { apiKey: "wrong-key-value-xyz" });
    try {
      const error = await rejection(client.call("listApps", { pageNum: 1 }));
      assert.ok(error instanceof MoreLoginAuthError);
      assert.match(error.message, /^Open API token request failed: .*check the API ID and API Key$/);
      assert.doesNotMatch(error.message, /wrong-key-value-xyz/);
      assert.equal(requests(emulator(), TOKEN_ROUTE), 1);
      assert.equal(requests(emulator(), APPS_ROUTE), 0);
    } finally {
      await client.close();
    }
  });

  it("says so when the config has no API ID and key, without sending anything", async () => {
    const client = new MoreLoginClient({ localUrl: emulator().localUrl, openUrl: emulator().openUrl });
    try {
      const error = await rejection(client.call("listApps", {}));
      assert.ok(error instanceof MoreLoginAuthError);
      assert.match(error.message, /needs an API ID and API Key/);
      assert.equal(requests(emulator(), TOKEN_ROUTE), 0);
    } finally {
      await client.close();
    }
  });

  it("retries a read when the token service fails once, and gives up after the attempt limit", async () => {
    const client = clientFor(emulator());
    try {
      emulator().script({ kind: "tokenFailure", times: 1 });
      await client.call("listApps", { pageNum: 1 });
      assert.equal(requests(emulator(), TOKEN_ROUTE), 2);
      assert.equal(emulator().stats.tokensGranted, 1);
    } finally {
      await client.close();
    }
    const failing = clientFor(emulator(), { retry: { attempts: 3, baseDelayMs: 1, maxDelayMs: 2 } });
    try {
      emulator().resetStats();
      emulator().setFaults({ tokenFailure: 1 });
      const error = await rejection(failing.call("listApps", { pageNum: 1 }));
      assert.match(error.message, /^Open API token request failed/);
      assert.equal(requests(emulator(), TOKEN_ROUTE), 3);
    } finally {
      emulator().setFaults({});
      await failing.close();
    }
  });

  it("reuses a short-lived token within its first second and renews it before it runs out", async () => {
    let now = 1_000_000;
    const shortLived = await startEmulator({ tokenLifetimeSeconds: 2 });
    const client = clientFor(shortLived, { now: () => now });
    try {
      await client.call("listApps", { pageNum: 1 });
      now += 900;
      await client.call("listApps", { pageNum: 1 });
      assert.equal(shortLived.stats.tokensGranted, 1);
      now += 900;
      await client.call("listApps", { pageNum: 1 });
      assert.equal(shortLived.stats.tokensGranted, 2);
    } finally {
      await client.close();
      await shortLived.close();
    }
  });

  it("follows `pages` for the app list, whose `total` counts only the current page", async () => {
    const client = clientFor(emulator());
    try {
      const all = await fetchAll(client, "listApps", { pageSize: 7 });
      assert.deepEqual(all.items, emulator().data.apps);
      assert.equal(all.pagesFetched, 5);
      const pageFields = emulator()
        .requestLog.filter((entry) => entry.path === "/cloudphone/app/page")
        .map((entry) => (entry.body as { pageNum?: number }).pageNum);
      assert.deepEqual(pageFields, [1, 2, 3, 4, 5]);
    } finally {
      await client.close();
    }
  });
});
