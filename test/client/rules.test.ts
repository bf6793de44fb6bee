import assert from "node:assert/strict";
import { MoreLoginClient, MoreLoginInputError, RULES, checkRelativePath, fetchAll, isLoopbackHost, normalizeId, positiveInteger, ruleSources } from "../../src/client";
import { parseRetryAfter, retryDelay, DEFAULT_RETRY, isRetryable } from "../../src/client/retry";
import { MoreLoginApiError, MoreLoginNetworkError } from "../../src/client/errors";
import { clientFor, rejection, requests, useEmulator } from "../support/emulator";

describe("client: URL rules", () => {
  it("accepts https for the Open API, and plain http only to loopback", () => {
    assert.doesNotThrow(() => new MoreLoginClient({ openUrl: "https://api.morelogin.com" }).close());
    assert.doesNotThrow(() => new MoreLoginClient({ openUrl: "http://127.0.0.1:40101" }).close());
    assert.doesNotThrow(() => new MoreLoginClient({ openUrl: "http://localhost:40101" }).close());
    assert.throws(() => new MoreLoginClient({ openUrl: "http://api.morelogin.com" }), /Open API URL must use https/);
    assert.throws(() => new MoreLoginClient({ openUrl: "http://10.0.0.5:40101" }), MoreLoginInputError);
    assert.throws(() => new MoreLoginClient({ localUrl: "ftp://127.0.0.1" }), /must start with http/);
    assert.throws(() => new MoreLoginClient({ localUrl: "not a url" }), /not a valid URL/);
    assert.throws(() => new MoreLoginClient({ localUrl: "http://user:pw@127.0.0.1:40000" }), /user name or password/);
  });

  it("says whether the Local API URL is loopback", () => {
    assert.equal(new MoreLoginClient({ localUrl: "http://127.0.0.1:40000" }).localIsLoopback, true);
    assert.equal(new MoreLoginClient({ localUrl: "http://[::1]:40000" }).localIsLoopback, true);
    assert.equal(new MoreLoginClient({ localUrl: "http://192.168.1.20:40000" }).localIsLoopback, false);
    assert.equal(isLoopbackHost("127.8.9.1"), true);
    assert.equal(isLoopbackHost("127.0.0.1.example.com"), false);
  });

  it("keeps generic request paths relative to the API's base URL", () => {
    for (const good of ["/api/env/detail", "/cloudphone/app/page", "/api/env/page?x=1", "/a%20b"]) {
      assert.equal(checkRelativePath(good), good);
    }
    const bad: unknown[] = [
      "",
      undefined,
      42,
      "api/env/page",
      "//evil.example.com/x",
      "http://evil.example.com/api",
      "/api/../oauth2/token",
      "/api/%2e%2e/secret",
      "/api/%2E%2E/secret",
      "/api/./x",
      "/api\\..\\x",
      "/api/env\r\nHost: evil",
      "/api/%0d%0aX: y",
      "/%2f%2fevil.example.com",
      "/api/%zz",
    ];
    for (const path of bad) assert.throws(() => checkRelativePath(path), MoreLoginInputError, String(path));
  });
});

describe("client: values", () => {
  it("reads page numbers from text only as plain decimal digits, and numbers only as positive whole numbers", () => {
    assert.equal(positiveInteger("25", "pageNo"), 25);
    assert.equal(positiveInteger(" 3 ", "pageNo"), 3);
    assert.equal(positiveInteger(7, "pageNo"), 7);
    for (const text of ["0", "010", "+5", "-1", "1.5", "10.0", "1e3", "0x10", "", " ", "abc", "99999999999999999999"]) {
      assert.throws(() => positiveInteger(text, "pageNo"), /^MoreLoginInputError: pageNo must be a positive integer, got /, JSON.stringify(text));
    }
    for (const number of [0, -1, 1.5, Number.NaN, 2 ** 53]) assert.throws(() => positiveInteger(number, "pageNo"), MoreLoginInputError, String(number));
  });

  it("hands the editor every rule as a pattern without flags, so it checks exactly as the client does", () => {
    const sources = ruleSources();
    for (const [name, pattern] of Object.entries(RULES)) {
      assert.equal(pattern.flags, "", `${name} has no flags, which a pattern source would lose`);
      assert.equal(new RegExp(sources[name as keyof typeof sources]).source, pattern.source);
    }
  });

  it("keeps IDs as decimal strings", () => {
    assert.equal(normalizeId("1993244721490239488", "envId"), "1993244721490239488");
    assert.equal(normalizeId(" 42 ", "envId"), "42");
    assert.equal(normalizeId(42, "envId"), "42");
    assert.equal(normalizeId(1993244721490239488n, "envId"), "1993244721490239488");
    // biome-ignore lint/correctness/noPrecisionLoss: a 19-digit ID that has lost digits as a number is what this test refuses
    assert.throws(() => normalizeId(1993244721490239488, "envId"), /not a safe integer/);
    assert.throws(() => normalizeId("12a", "envId"), /decimal ID/);
    assert.throws(() => normalizeId("1\r\nX-Evil: 1", "envId"), /decimal ID/);
    assert.throws(() => normalizeId({}, "envId"), /decimal ID string, got an object/);
  });

  it("parses Retry-After as seconds or a date, and backs off with jitter within bounds", () => {
    assert.equal(parseRetryAfter("2"), 2000);
    assert.equal(parseRetryAfter("0.5"), 500);
    assert.equal(parseRetryAfter(new Date(11_000).toUTCString(), 1_000), 10_000);
    assert.equal(parseRetryAfter("soon"), undefined);
    assert.equal(parseRetryAfter(undefined), undefined);
    for (let attempt = 0; attempt < 10; attempt++) {
      const delay = retryDelay(new Error("x"), attempt, DEFAULT_RETRY);
      const ceiling = Math.min(DEFAULT_RETRY.maxDelayMs, DEFAULT_RETRY.baseDelayMs * 2 ** attempt);
      assert.ok(delay >= ceiling / 2 && delay <= ceiling, `attempt ${attempt}: ${delay}`);
    }
  });

  it("retries writes only when the request provably never left", () => {
    const refused = new MoreLoginNetworkError("refused", { notSent: true });
    const reset = new MoreLoginNetworkError("reset", { notSent: false });
    const unavailable = new MoreLoginApiError("x", { code: 503, status: 503 });
    assert.equal(isRetryable(refused, "write"), true);
    assert.equal(isRetryable(reset, "write"), false);
    assert.equal(isRetryable(unavailable, "write"), false);
    assert.equal(isRetryable(reset, "read"), true);
    assert.equal(isRetryable(unavailable, "read"), true);
    assert.equal(isRetryable(new MoreLoginApiError("x", { code: 19099, status: 200 }), "read"), false);
  });
});

describe("client: paging", () => {
  const { emulator } = useEmulator({ profiles: 250 });
  beforeEach(() => emulator().resetStats());

  it("walks every page to the end with the largest page size and string counts", async () => {
    const client = clientFor(emulator());
    try {
      const all = await fetchAll(client, "listProfiles");
      assert.deepEqual(all.items, emulator().data.profiles);
      assert.equal(all.pagesFetched, 3);
      assert.equal(all.truncated, false);
      const sizes = emulator()
        .requestLog.filter((entry) => entry.path === "/api/env/page")
        .map((entry) => entry.body);
      assert.deepEqual(sizes, [
        { pageNo: 1, pageSize: 100 },
        { pageNo: 2, pageSize: 100 },
        { pageNo: 3, pageSize: 100 },
      ]);
    } finally {
      await client.close();
    }
  });

  it("stops at maxItems and says the list was cut", async () => {
    const client = clientFor(emulator());
    try {
      const some = await fetchAll(client, "listProfiles", { pageSize: 20 }, { maxItems: 45 });
      assert.deepEqual(some.items, emulator().data.profiles.slice(0, 45));
      assert.equal(some.truncated, true);
      assert.equal(requests(emulator(), "local POST /api/env/page"), 3);
    } finally {
      await client.close();
    }
  });

  it("keeps filters on every page and starts from the page asked for", async () => {
    const client = clientFor(emulator());
    try {
      const groupId = emulator().data.profiles[0]?.groupId;
      const expected = emulator().data.profiles.filter((profile) => profile.groupId === groupId);
      const all = await fetchAll(client, "listProfiles", { groupId, pageSize: 10 });
      assert.deepEqual(all.items, expected);
      const fromThird = await fetchAll(client, "listProfiles", { groupId, pageSize: 10, pageNo: 3 });
      assert.deepEqual(fromThird.items, expected.slice(20));
    } finally {
      await client.close();
    }
  });

  it("ends on an empty list", async () => {
    const client = clientFor(emulator());
    try {
      const none = await fetchAll(client, "listProfiles", { envName: "no such profile name" });
      assert.deepEqual(none.items, []);
      assert.equal(none.pagesFetched, 1);
    } finally {
      await client.close();
    }
  });

  it("refuses a bad page before sending anything", async () => {
    const client = clientFor(emulator());
    try {
      const error = await rejection(fetchAll(client, "listProfiles", { pageNo: "first" }));
      assert.ok(error instanceof MoreLoginInputError);
      assert.equal(requests(emulator(), "local POST /api/env/page"), 0);
    } finally {
      await client.close();
    }
  });
});
