import assert from "node:assert/strict";
import type { App } from "../../src/emulator";
import { call, dataOf, envelopeOf, expectError, type PageShape } from "../support/http";
import { type ShiftedClock, shiftClock } from "../support/clock";
import { bearer, useEmulator } from "../support/emulator";

describe("emulator: Local API token", () => {
  const { emulator } = useEmulator({ localToken: "local-secret" });
  // "switches the token off and on" changes it: every test starts from the suite's token.
  beforeEach(() => emulator().setLocalToken("local-secret"));

  it("answers 35001 without an Authorization header", async () => {
    expectError(await call(emulator().localUrl, "/api/env/page", { body: {} }), 200, 35001, "API authentication info missing");
  });

  it("answers 35002 for a wrong token, including the right token with a Bearer prefix", async () => {
    for (const value of ["wrong", "Bearer local-secret", "LOCAL-SECRET"]) {
      expectError(await call(emulator().localUrl, "/api/env/page", { body: {}, headers: { Authorization: value } }), 200, 35002, "API authentication failed");
    }
  });

  it("serves requests that carry the token exactly, and keeps /status open", async () => {
    dataOf(await call(emulator().localUrl, "/api/env/page", { body: {}, headers: { Authorization: "local-secret" } }));
    dataOf(await call(emulator().localUrl, "/api/envtag/all", { method: "GET", headers: { Authorization: "local-secret" } }));
    assert.deepEqual((await call(emulator().localUrl, "/status", { body: {} })).json, { status: "ok" });
    assert.equal(emulator().credentials.localToken, "local-secret");
  });

  it("switches the token off and on with setLocalToken", async () => {
    emulator().setLocalToken(undefined);
    dataOf(await call(emulator().localUrl, "/api/env/page", { body: {} }));
    emulator().setLocalToken("other");
    expectError(await call(emulator().localUrl, "/api/env/page", { body: {}, headers: { Authorization: "local-secret" } }), 200, 35002);
    dataOf(await call(emulator().localUrl, "/api/env/page", { body: {}, headers: { Authorization: "other" } }));
  });
});

describe("emulator: --login, MoreLogin's server edition", () => {
  const { emulator } = useEmulator({ login: true, apiId: "1690000000000777", apiKey: "server-key-5150" });
  const login = (body: object) => call(emulator().localUrl, "/api/user/login", { body });

  it("refuses every Local call but the login until one succeeds, serves them after it, and refuses them again once forgotten", async () => {
    emulator().forgetLogin();
    expectError(await call(emulator().localUrl, "/api/env/page", { body: {} }), 200, 35001);
    expectError(await call(emulator().localUrl, "/api/envtag/all", { method: "GET" }), 200, 35001);
    expectError(await login({ apiId: "1690000000000777", apiKey: "wrong" }), 200, 35002, "API authentication failed");
    expectError(await login({ apiId: "1690000000000778", apiKey: "server-key-5150" }), 200, 35002);
    expectError(await call(emulator().localUrl, "/api/env/page", { body: {} }), 200, 35001);
    assert.equal(envelopeOf(await login({ apiId: "1690000000000777", apiKey: "server-key-5150" })).code, 0);
    dataOf(await call(emulator().localUrl, "/api/env/page", { body: {} }));
    dataOf(await call(emulator().localUrl, "/api/envtag/all", { method: "GET" }));
    emulator().forgetLogin();
    expectError(await call(emulator().localUrl, "/api/env/page", { body: {} }), 200, 35001);
    assert.deepEqual((await call(emulator().localUrl, "/status", { body: {} })).json, { status: "ok" });
  });
});

describe("emulator: without --login", () => {
  const { emulator } = useEmulator();
  it("serves Local calls without a login, and has no login route", async () => {
    dataOf(await call(emulator().localUrl, "/api/env/page", { body: {} }));
    expectError(await call(emulator().localUrl, "/api/user/login", { body: { apiId: "x", apiKey: "y" } }), 404, 404);
  });
});

describe("emulator: Open API OAuth", () => {
  // The default lifetime (3600 s): the suite's tests make several calls with one token, which a short
  // lifetime would race on a busy machine. Expiry is tested on an emulator of its own below.
  const { emulator } = useEmulator({ apps: 23 });

  it("grants a JWT-like bearer token for the right credentials, with client_id as number or string", async () => {
    const { apiId, apiKey } = emulator().credentials;
    for (const clientId of [apiId, Number(apiId)]) {
      const data = dataOf(await call(emulator().openUrl, "/oauth2/token", { body: { client_id: clientId, client_secret: apiKey, grant_type: "client_credentials" } }));
      assert.equal(data.scope, "cloudphone");
      assert.equal(data.token_type, "Bearer");
      assert.equal(data.expires_in, 3600);
      assert.deepEqual(data.client_metadata, { name: "Emulator Team" });
      const parts = String(data.access_token).split(".");
      assert.equal(parts.length, 3);
      assert.ok(parts.every((part) => /^[A-Za-z0-9_-]+$/.test(part)));
      const header = JSON.parse(Buffer.from(parts[0] ?? "", "base64url").toString()) as Record<string, unknown>;
      const claims = JSON.parse(Buffer.from(parts[1] ?? "", "base64url").toString()) as Record<string, unknown>;
      assert.deepEqual(header, { typ: "JWT", alg: "HS256" });
      assert.equal(typeof claims.sub, "string");
      assert.equal(claims.name, "Emulator Team");
      assert.equal(Number(claims.exp) - Number(claims.iat), 3600);
    }
  });

  it("answers 401 for wrong credentials or grant type and counts every token request", async () => {
    const { apiId, apiKey } = emulator().credentials;
    emulator().resetStats();
    const bodies = [
      { client_id: apiId, client_secret: "nope", grant_type: "client_credentials" },
      { client_id: "1", client_secret: apiKey, grant_type: "client_credentials" },
      { client_id: apiId, client_secret: apiKey, grant_type: "password" },
    ];
    for (const body of bodies) expectError(await call(emulator().openUrl, "/oauth2/token", { body }), 401, 401, "Invalid client credentials");
    await bearer(emulator());
    assert.equal(emulator().stats.tokenRequests, 4);
    assert.equal(emulator().stats.tokensGranted, 1);
  });

  it("requires a bearer token this emulator issued on the other routes", async () => {
    const url = emulator().openUrl;
    expectError(await call(url, "/cloudphone/page", { body: {} }), 401, 401, "Token expired or invalid");
    expectError(await call(url, "/cloudphone/page", { body: {}, headers: { Authorization: "Bearer forged.token.value" } }), 401, 401);
    const auth = await bearer(emulator());
    const raw = (auth.Authorization ?? "").replace("Bearer ", "");
    expectError(await call(url, "/cloudphone/page", { body: {}, headers: { Authorization: raw } }), 401, 401);
    dataOf(await call(url, "/cloudphone/page", { body: {}, headers: auth }));
    dataOf(await call(url, "/proxyInfo/page", { body: {}, headers: auth }));
    dataOf(await call(url, "/envgroup/page", { body: { groupName: "", pageNo: 1, pageSize: 10 }, headers: auth }));
    assert.deepEqual(dataOf(await call(url, "/envtag/all", { method: "GET", headers: auth })), emulator().data.tags);
    const user = dataOf(await call(url, "/oauth2/userinfo", { method: "GET", headers: auth }));
    assert.equal(user.teamName, "Emulator Team");
    expectError(await call(url, "/api/env/page", { body: {}, headers: auth }), 404, 404);
  });

  it("rejects every token issued before revokeAllTokens, and accepts new ones", async () => {
    const auth = await bearer(emulator());
    dataOf(await call(emulator().openUrl, "/cloudphone/page", { body: {}, headers: auth }));
    emulator().revokeAllTokens();
    expectError(await call(emulator().openUrl, "/cloudphone/page", { body: {}, headers: auth }), 401, 401);
    dataOf(await call(emulator().openUrl, "/cloudphone/page", { body: {}, headers: await bearer(emulator()) }));
  });

  it("pages apps by pageNum, ignores pageNo, and reports only this page's rows in total", async () => {
    const auth = await bearer(emulator());
    const apps = emulator().data.apps;
    const second = dataOf<PageShape<App>>(await call(emulator().openUrl, "/cloudphone/app/page", { body: { pageNum: 2, pageSize: 10, pageNo: 1 }, headers: auth }));
    assert.deepEqual(second, { total: "10", current: "2", pages: "3", dataList: apps.slice(10, 20) });
    const last = dataOf<PageShape<App>>(await call(emulator().openUrl, "/cloudphone/app/page", { body: { pageNum: "3", pageSize: 10 }, headers: auth }));
    assert.deepEqual(last, { total: "3", current: "3", pages: "3", dataList: apps.slice(20) });
    const byNo = dataOf<PageShape<App>>(await call(emulator().openUrl, "/cloudphone/app/page", { body: { pageNo: 3 }, headers: auth }));
    assert.equal(byNo.current, "1");
    const byName = dataOf<PageShape<App>>(await call(emulator().openUrl, "/cloudphone/app/page", { body: { appName: "whatsapp" }, headers: auth }));
    assert.ok(byName.dataList.length > 0 && byName.dataList.every((app) => app.appName.startsWith("WhatsApp")));
    expectError(await call(emulator().openUrl, "/cloudphone/app/page", { body: { pageNum: 0 }, headers: auth }), 200, 99001, "Request parameter error: pageNum must be a positive integer");
  });
});

describe("emulator: Open API token expiry", () => {
  const LIFETIME_S = 60;
  const { emulator } = useEmulator({ tokenLifetimeSeconds: LIFETIME_S });
  // The emulator reads Date.now: moving it stands for the lifetime passing, without waiting for it
  // or racing a short lifetime with the calls that use the token.
  let clock: ShiftedClock | undefined;
  afterEach(() => clock?.restore());

  it("rejects a token once its lifetime has passed, not before", async () => {
    const auth = await bearer(emulator());
    clock = shiftClock();
    const page = () => call(emulator().openUrl, "/cloudphone/page", { body: {}, headers: auth });
    dataOf(await page());
    clock.advance((LIFETIME_S - 2) * 1000);
    dataOf(await page());
    clock.advance(2000);
    expectError(await page(), 401, 401, "Token expired or invalid");
  });
});
