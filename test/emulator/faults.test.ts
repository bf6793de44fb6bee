import assert from "node:assert/strict";
import { request } from "node:http";
import { startEmulator, type FaultKind } from "../../src/emulator";
import { call, dataOf, envelopeOf, expectError } from "../support/http";
import { bearer, clearFaults, requests, resetBeforeEach, useEmulator } from "../support/emulator";
import { waitUntil } from "../support/wait-until";

/** Sends a request with node:http and reports how it ended. */
function rawPost(url: string, body: string): Promise<{ status?: number; error?: string }> {
  return new Promise((resolve) => {
    const req = request(url, { method: "POST", headers: { "Content-Type": "application/json" } }, (res) => {
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode }));
      res.on("error", (error) => resolve({ error: (error as NodeJS.ErrnoException).code ?? error.message }));
    });
    req.on("error", (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
    req.end(body);
  });
}

describe("emulator: scripted faults", () => {
  const { emulator } = useEmulator();
  const page = "/api/env/page";
  const injected = (kind: FaultKind): number => emulator().stats.faultsInjected[kind];
  // Each test starts from zero counters and no random faults, whichever tests ran before it.
  resetBeforeEach(emulator, clearFaults);

  it("http503: HTTP 503 with the envelope, then normal again", async () => {
    emulator().script({ kind: "http503", api: "local", path: page });
    expectError(await call(emulator().localUrl, page, { body: {} }), 503, 503, "Service unavailable");
    dataOf(await call(emulator().localUrl, page, { body: {} }));
    assert.equal(injected("http503"), 1);
  });

  it("http502html: HTTP 502 with an HTML page", async () => {
    emulator().script({ kind: "http502html" });
    const answer = await call(emulator().localUrl, page, { body: {} });
    assert.equal(answer.status, 502);
    assert.match(answer.headers.get("content-type") ?? "", /^text\/html/);
    assert.match(answer.text, /<html>[\s\S]*502 Bad Gateway/);
    assert.equal(injected("http502html"), 1);
  });

  it("reset: the connection is destroyed without an answer", async () => {
    emulator().script({ kind: "reset", path: page });
    await assert.rejects(call(emulator().localUrl, page, { body: {} }), TypeError);
    assert.equal(injected("reset"), 1);
    dataOf(await call(emulator().localUrl, page, { body: {} }));
  });

  it("malformed: HTTP 200 JSON content type with a truncated body", async () => {
    emulator().script({ kind: "malformed", api: "local" });
    const answer = await call(emulator().localUrl, page, { body: {} });
    assert.equal(answer.status, 200);
    assert.match(answer.headers.get("content-type") ?? "", /^application\/json/);
    assert.equal(answer.json, undefined);
    assert.throws(() => JSON.parse(answer.text), SyntaxError);
    assert.equal(injected("malformed"), 1);
  });

  it("tooMany: HTTP 429 with Retry-After rounded up", async () => {
    emulator().script({ kind: "tooMany", retryAfterSeconds: 2.2 });
    const answer = await call(emulator().localUrl, page, { body: {} });
    expectError(answer, 429, 429, "Rate limit exceeded");
    assert.equal(answer.headers.get("retry-after"), "3");
    emulator().script({ kind: "tooMany" });
    assert.equal((await call(emulator().localUrl, page, { body: {} })).headers.get("retry-after"), "1");
    assert.equal(injected("tooMany"), 2);
    assert.equal(emulator().stats.rateLimited, 0);
  });

  it("rateLimited: the published HTTP 429 without Retry-After, scripted or at random", async () => {
    emulator().script({ kind: "rateLimited", api: "local", path: page, times: 2 });
    for (let i = 0; i < 2; i++) {
      const answer = await call(emulator().localUrl, page, { body: {} });
      expectError(answer, 429, 429, "Rate limit exceeded");
      assert.equal(answer.headers.get("retry-after"), null);
    }
    dataOf(await call(emulator().localUrl, page, { body: {} }));
    emulator().setFaults({ rateLimited: 1 });
    try {
      const answer = await call(emulator().localUrl, "/api/proxyInfo/page", { body: {} });
      expectError(answer, 429, 429, "Rate limit exceeded");
      assert.equal(answer.headers.get("retry-after"), null);
    } finally {
      emulator().setFaults({});
    }
    assert.equal(injected("rateLimited"), 3);
    assert.equal(injected("tooMany"), 0);
    assert.equal(emulator().stats.rateLimited, 0, "a fault, not the rate limit");
  });

  it("latency: delays the normal answer", async () => {
    emulator().script({ kind: "latency", latencyMs: 200 });
    const begun = Date.now();
    dataOf(await call(emulator().localUrl, page, { body: {} }));
    assert.ok(Date.now() - begun >= 190);
    assert.equal(injected("latency"), 1);
  });

  it("hang: never answers", async () => {
    emulator().script({ kind: "hang", path: page });
    await assert.rejects(call(emulator().localUrl, page, { body: {}, signal: AbortSignal.timeout(300) }), { name: "TimeoutError" });
    assert.equal(injected("hang"), 1);
  });

  it("tokenFailure: only the token route answers HTTP 500", async () => {
    emulator().script({ kind: "tokenFailure" });
    dataOf(await call(emulator().localUrl, page, { body: {} }));
    const { apiId, apiKey } = emulator().credentials;
    const body = { client_id: apiId, client_secret: apiKey, grant_type: "client_credentials" };
    expectError(await call(emulator().openUrl, "/oauth2/token", { body }), 500, 500, "Token service unavailable");
    dataOf(await call(emulator().openUrl, "/oauth2/token", { body }));
    assert.equal(injected("tokenFailure"), 1);
  });

  it("echo: HTTP 500 whose msg repeats the request as received, headers and body, on any route", async () => {
    emulator().script({ kind: "echo", path: page });
    const answer = await call(emulator().localUrl, page, { body: { pageNo: 1, note: "hello" }, headers: { Authorization: "a-local-token" } });
    expectError(answer, 500, 500);
    const msg = String(envelopeOf(answer).msg);
    assert.match(msg, /^echo of POST \/api\/env\/page: headers \{.*\}, body \{"pageNo":1,"note":"hello"\}$/);
    assert.ok(msg.includes('"authorization":"a-local-token"'), msg);
    dataOf(await call(emulator().localUrl, page, { body: {} }));
    const { apiId, apiKey } = emulator().credentials;
    emulator().script({ kind: "echo", api: "open", path: "/oauth2/token" });
    const token = await call(emulator().openUrl, "/oauth2/token", { body: { client_id: apiId, client_secret: apiKey, grant_type: "client_credentials" } });
    expectError(token, 500, 500);
    assert.ok(String(envelopeOf(token).msg).includes(`"client_secret":"${apiKey}"`));
    emulator().setFaults({ echo: 1 });
    try {
      const random = await call(emulator().localUrl, "/api/envgroup/page", { body: { pageNo: 2 } });
      expectError(random, 500, 500);
      assert.match(String(envelopeOf(random).msg), /^echo of POST \/api\/envgroup\/page: headers .*, body \{"pageNo":2\}$/);
    } finally {
      emulator().setFaults({});
    }
    assert.equal(injected("echo"), 3);
  });

  it("applies a fault `times` times, only to the matching API and path", async () => {
    const body = { groupName: "", pageNo: 1, pageSize: 10 };
    emulator().script({ kind: "http503", api: "open", path: "/envgroup/page", times: 2 });
    dataOf(await call(emulator().localUrl, "/api/envgroup/page", { body }));
    const auth = await bearer(emulator());
    expectError(await call(emulator().openUrl, "/envgroup/page", { body, headers: auth }), 503, 503);
    expectError(await call(emulator().openUrl, "/envgroup/page", { body, headers: auth }), 503, 503);
    dataOf(await call(emulator().openUrl, "/envgroup/page", { body, headers: auth }));
  });

  it("random faults: rate 1 hits every request except the token route and the health probe", async () => {
    emulator().setFaults({ http503: 1 });
    try {
      expectError(await call(emulator().localUrl, page, { body: {} }), 503, 503);
      assert.deepEqual((await call(emulator().localUrl, "/status", { body: {} })).json, { status: "ok" });
      await bearer(emulator());
    } finally {
      emulator().setFaults({});
    }
    dataOf(await call(emulator().localUrl, page, { body: {} }));
  });

  it("random token failures hit only the token route", async () => {
    emulator().setFaults({ tokenFailure: 1 });
    try {
      dataOf(await call(emulator().localUrl, page, { body: {} }));
      const { apiId, apiKey } = emulator().credentials;
      const answer = await call(emulator().openUrl, "/oauth2/token", { body: { client_id: apiId, client_secret: apiKey, grant_type: "client_credentials" } });
      expectError(answer, 500, 500);
    } finally {
      emulator().setFaults({});
    }
  });

  it("counts faulted requests in stats.requests", async () => {
    emulator().script({ kind: "http503", path: page });
    emulator().script({ kind: "reset", path: page });
    expectError(await call(emulator().localUrl, page, { body: {} }), 503, 503);
    await assert.rejects(call(emulator().localUrl, page, { body: {} }), TypeError);
    dataOf(await call(emulator().localUrl, page, { body: {} }));
    assert.equal(requests(emulator(), "local POST /api/env/page"), 3);
    assert.equal(injected("http503") + injected("reset"), 2);
  });
});

describe("emulator: close() with hanging and keep-alive connections", () => {
  it("destroys hanging sockets so close() resolves and the client sees the connection end", async () => {
    const emulator = await startEmulator();
    emulator.script({ kind: "hang" });
    const pending = rawPost(`${emulator.localUrl}/api/env/page`, "{}");
    await waitUntil(() => emulator.stats.faultsInjected.hang === 1, "the emulator holds the request", 5_000);
    await emulator.close();
    const outcome = await pending;
    assert.equal(outcome.status, undefined);
    assert.ok(outcome.error, "the hanging request should fail when the emulator closes");
  });
});
