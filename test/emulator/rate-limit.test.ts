import assert from "node:assert/strict";
import { RateLimiter } from "../../src/emulator/rate-limit";
import { type Answer, call, dataOf, envelopeOf, expectError } from "../support/http";
import { bearer, useEmulator } from "../support/emulator";

describe("emulator: rate limiter", () => {
  it("accepts at most N requests in any 60 s, and refused requests do not count", () => {
    const limiter = new RateLimiter(2);
    assert.equal(limiter.take(0), undefined);
    assert.equal(limiter.take(30_000), undefined);
    assert.equal(limiter.take(40_000), 20);
    assert.equal(limiter.take(59_500), 1);
    // The request at 0 has left the window; the refusals at 40 s and 59.5 s were never counted.
    assert.equal(limiter.take(60_000), undefined);
    assert.equal(limiter.take(61_000), 29);
    assert.equal(limiter.take(90_000), undefined);
  });

  it("is off at 0 and starts a new window when the limit is set again", () => {
    const limiter = new RateLimiter(0);
    for (let i = 0; i < 1000; i++) assert.equal(limiter.take(i), undefined);
    limiter.setLimit(1);
    assert.equal(limiter.take(1000), undefined);
    assert.equal(limiter.take(1001), 60);
    limiter.setLimit(1);
    assert.equal(limiter.take(1002), undefined);
  });
});

describe("emulator: rate limit", () => {
  const { emulator } = useEmulator({ rateLimitPerMinute: 3 });
  const page = (): Promise<Answer> => call(emulator().localUrl, "/api/env/page", { body: {} });
  // A fresh window of 3 per minute, without Retry-After, for each test, whichever tests ran before it.
  beforeEach(() => {
    emulator().setRateLimit(3, { retryAfter: false });
    emulator().resetStats();
  });

  it("answers the published 429 without Retry-After past the limit", async () => {
    for (let i = 0; i < 3; i++) dataOf(await page());
    const limited = await page();
    expectError(limited, 429, 429, "Rate limit exceeded");
    const { code, msg, data } = envelopeOf(limited);
    assert.deepEqual({ code, msg, data }, { code: 429, msg: "Rate limit exceeded", data: null });
    assert.equal(limited.headers.get("retry-after"), null);
    assert.equal(emulator().stats.rateLimited, 1);
  });

  it("counts the Local and the Open API apart", async () => {
    for (let i = 0; i < 3; i++) dataOf(await page());
    expectError(await page(), 429, 429);
    const auth = await bearer(emulator());
    dataOf(await call(emulator().openUrl, "/cloudphone/page", { body: {}, headers: auth }));
    dataOf(await call(emulator().openUrl, "/cloudphone/page", { body: {}, headers: auth }));
    expectError(await call(emulator().openUrl, "/cloudphone/page", { body: {}, headers: auth }), 429, 429);
    assert.equal(emulator().stats.rateLimited, 2);
  });

  it("keeps the health probe out of the count", async () => {
    for (let i = 0; i < 5; i++) assert.deepEqual((await call(emulator().localUrl, "/status", { body: {} })).json, { status: "ok" });
    for (let i = 0; i < 3; i++) dataOf(await page());
  });

  it("adds Retry-After when asked, with setRateLimit or the rateLimitRetryAfter option", async () => {
    emulator().setRateLimit(1, { retryAfter: true });
    dataOf(await page());
    const limited = await page();
    expectError(limited, 429, 429, "Rate limit exceeded");
    const retryAfter = Number(limited.headers.get("retry-after"));
    assert.ok(Number.isInteger(retryAfter) && retryAfter >= 59 && retryAfter <= 60, `Retry-After ${limited.headers.get("retry-after")}`);
    emulator().setRateLimit(1);
    dataOf(await page());
    assert.ok(Number((await page()).headers.get("retry-after")) >= 59, "setRateLimit without options keeps Retry-After on");
  });

  it("lifts and sets the limit with setRateLimit", async () => {
    emulator().setRateLimit(undefined);
    for (let i = 0; i < 5; i++) dataOf(await page());
    emulator().setRateLimit(1);
    dataOf(await page());
    expectError(await page(), 429, 429);
    emulator().setRateLimit(0);
    dataOf(await page());
  });
});

describe("emulator: rateLimitRetryAfter option", () => {
  const { emulator } = useEmulator({ rateLimitPerMinute: 1, rateLimitRetryAfter: true });

  it("sends Retry-After on rate-limited answers from the start", async () => {
    dataOf(await call(emulator().localUrl, "/api/env/page", { body: {} }));
    const limited = await call(emulator().localUrl, "/api/env/page", { body: {} });
    expectError(limited, 429, 429, "Rate limit exceeded");
    assert.match(limited.headers.get("retry-after") ?? "", /^\d+$/);
  });
});
