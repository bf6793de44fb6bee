import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import {
  MoreLoginAbortError,
  MoreLoginClient,
  MoreLoginHttpError,
  MoreLoginInputError,
  MoreLoginNetworkError,
  MoreLoginRateLimitError,
  MoreLoginResponseError,
  MoreLoginTimeoutError,
} from "../../src/client";
import { startEmulator } from "../../src/emulator";
import { clientFor, rejection, requests, useEmulator } from "../support/emulator";
import { queuedLog } from "../support/tracked-calls";
import { waitUntil } from "../support/wait-until";

const PAGE = "local POST /api/env/page";
const START = "local POST /api/env/start";

describe("client: failures and retries", () => {
  const { emulator } = useEmulator({ localToken: "tok-abcdef-123456" });
  let client: MoreLoginClient;
  beforeEach(() => {
    emulator().resetStats();
    emulator().setFaults({});
    emulator().setRateLimit(undefined);
    client = clientFor(emulator());
  });
  afterEach(() => client.close());

  it("retries a read after 503s and succeeds", async () => {
    emulator().script({ kind: "http503", path: "/api/env/page", times: 2 });
    const result = await client.call("listProfiles", { pageNo: 1 });
    assert.equal(result.data.current, "1");
    assert.equal(requests(emulator(), PAGE), 3);
  });

  it("retries reads after a reset connection, an HTML 502 page and a truncated body", async () => {
    emulator().script({ kind: "reset", path: "/api/env/page" });
    emulator().script({ kind: "http502html", path: "/api/env/page" });
    emulator().script({ kind: "malformed", path: "/api/env/page" });
    await client.call("listProfiles", { pageNo: 1 });
    assert.equal(requests(emulator(), PAGE), 4);
  });

  it("gives up after the attempt limit with a typed error that says what came back", async () => {
    emulator().script({ kind: "http502html", path: "/api/env/page", times: 4 });
    const error = await rejection(client.call("listProfiles", { pageNo: 1 }));
    assert.ok(error instanceof MoreLoginHttpError);
    assert.equal(error.status, 502);
    assert.match(error.message, /^Local API answered HTTP 502 Bad Gateway: \S/);
    assert.doesNotMatch(error.message, /<[a-z]/i, "HTML tags are stripped from the excerpt");
    assert.equal(requests(emulator(), PAGE), 4);
  });

  it("honours Retry-After on a 429 before retrying", async () => {
    emulator().script({ kind: "tooMany", path: "/api/env/page", retryAfterSeconds: 1 });
    const started = Date.now();
    await client.call("listProfiles", { pageNo: 1 });
    assert.ok(Date.now() - started >= 900, "waited for Retry-After");
    assert.equal(requests(emulator(), PAGE), 2);
  });

  it("waits out a Retry-After no longer than its limit, then sends the call again", async () => {
    const capped = clientFor(emulator(), { retry: { maxRateLimitWaitMs: 500 } });
    try {
      emulator().script({ kind: "tooMany", path: "/api/env/page", retryAfterSeconds: 30 });
      const started = Date.now();
      await capped.call("listProfiles", { pageNo: 1 });
      const waited = Date.now() - started;
      assert.ok(waited >= 450 && waited < 10_000, `waited ${waited} ms, not the 30 s asked for`);
      assert.equal(requests(emulator(), PAGE), 2);
    } finally {
      await capped.close();
    }
  });

  it("gives up after the refusals in a row that its policy allows, with kind rate-limit and the API's envelope", async () => {
    const impatient = clientFor(emulator(), { retry: { refusals: 1 }, pacing: { localRpm: 0 } });
    try {
      emulator().setRateLimit(1);
      await impatient.call("listProfiles", { pageNo: 1 }).catch(() => undefined);
      const error = await rejection(impatient.call("listProfiles", { pageNo: 1 }));
      assert.ok(error instanceof MoreLoginRateLimitError);
      assert.equal(error.kind, "rate-limit");
      assert.equal(error.code, 429);
      assert.equal(error.status, 429);
      assert.equal(error.message, "Rate limit exceeded (code 429, HTTP 429): refused once as too frequent, so the call gives up");
      // MoreLogin's published 429 carries no Retry-After.
      assert.equal(error.retryAfterMs, undefined);
    } finally {
      emulator().setRateLimit(undefined);
      await impatient.close();
    }
  });

  it("never sends a start twice when the connection drops after the request left", async () => {
    emulator().script({ kind: "reset", path: "/api/env/start" });
    const envId = emulator().data.profiles[0]?.id;
    const error = await rejection(client.call("startProfile", { envId }));
    assert.ok(error instanceof MoreLoginNetworkError);
    assert.equal(error.notSent, false);
    assert.equal(requests(emulator(), START), 1);
  });

  it("does not retry a start that timed out, and says it timed out", async () => {
    emulator().script({ kind: "hang", path: "/api/env/start" });
    const envId = emulator().data.profiles[0]?.id;
    const error = await rejection(client.call("startProfile", { envId }, { timeoutMs: 300 }));
    assert.ok(error instanceof MoreLoginTimeoutError);
    assert.equal(error.message, "no answer from the Local API within 0.3 s (POST /api/env/start)");
    assert.equal(requests(emulator(), START), 1);
  });

  it("does not retry a read that timed out either (the wait would multiply)", async () => {
    emulator().script({ kind: "hang", path: "/api/env/page" });
    const error = await rejection(client.call("listProfiles", { pageNo: 1 }, { timeoutMs: 200 }));
    assert.ok(error instanceof MoreLoginTimeoutError);
    assert.equal(requests(emulator(), PAGE), 1);
  });

  it("stops a call when the caller's AbortSignal fires", async () => {
    emulator().script({ kind: "hang", path: "/api/env/page" });
    const controller = new AbortController();
    const pending = client.call("listProfiles", { pageNo: 1 }, { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    const error = await rejection(pending);
    assert.ok(error instanceof MoreLoginAbortError);
  });

  it("close() also ends a call that is waiting to retry", async () => {
    emulator().script({ kind: "tooMany", path: "/api/env/page", retryAfterSeconds: 20 });
    const patient = clientFor(emulator());
    const log = queuedLog();
    const outcome = rejection(patient.call("listProfiles", { pageNo: 1 }, { onQueued: log.onQueued }));
    // Once refused, the call waits for its retry in the queue: onQueued says so.
    await waitUntil(() => log.events[0] === true, "the refused call waits to be sent again", 5_000);
    const closing = performance.now();
    await patient.close();
    const error = await outcome;
    assert.ok(error instanceof MoreLoginAbortError);
    assert.match(error.message, /closed while the call waited/);
    assert.ok(performance.now() - closing < 10_000, "the 20 s wait did not hold the call");
    assert.equal(requests(emulator(), PAGE), 1);
  });

  it("close() ends calls in flight at once and refuses new ones", async () => {
    emulator().script({ kind: "hang", path: "/api/env/page" });
    const outcome = rejection(client.call("listProfiles", { pageNo: 1 }));
    await waitUntil(() => emulator().stats.faultsInjected.hang === 1, "the call is in flight", 5_000);
    await client.close();
    assert.ok((await outcome) instanceof MoreLoginAbortError);
    const later = await rejection(client.call("listProfiles", { pageNo: 1 }));
    assert.ok(later instanceof MoreLoginAbortError);
    assert.match(later.message, /closed/);
  });
});

describe("client: replies that are not MoreLogin envelopes", () => {
  let server: Server;
  let reply: { status: number; type: string; body: string } = { status: 200, type: "application/json", body: "" };
  let baseUrl = "";
  let hits = 0;
  before(async () => {
    server = createServer((req, res) => {
      hits++;
      req.resume();
      const body = reply.body.replace("{{auth}}", String(req.headers.authorization));
      res.writeHead(reply.status, { "content-type": reply.type });
      res.end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const call = async (): Promise<Error> => {
    hits = 0;
    const client = new MoreLoginClient({ localUrl: baseUrl, localToken: "super-secret-local-token", retry: { attempts: 1 } });
    try {
      return await rejection(client.call("profileStatus", { envId: "1" }));
    } finally {
      await client.close();
    }
  };

  it("an empty body", async () => {
    reply = { status: 200, type: "application/json", body: "" };
    const error = await call();
    assert.ok(error instanceof MoreLoginResponseError);
    assert.equal(error.message, "Local API answered HTTP 200 with an empty body");
  });

  it("JSON without a numeric code", async () => {
    reply = { status: 200, type: "application/json", body: '{"status":"ok"}' };
    const error = await call();
    assert.ok(error instanceof MoreLoginResponseError);
    assert.match(error.message, /not a MoreLogin reply.*status/);
  });

  it("an HTTP error that echoes the Authorization header never shows the token", async () => {
    reply = { status: 500, type: "text/html", body: "<html><body><h1>Oops</h1><p>header was {{auth}}</p></body></html>" };
    const error = await call();
    assert.ok(error instanceof MoreLoginHttpError);
    assert.equal(error.message, "Local API answered HTTP 500 Internal Server Error: Oops header was ***");
    assert.equal(hits, 1);
  });

  it("a long non-JSON body is cut to a short excerpt", async () => {
    reply = { status: 200, type: "text/plain", body: "x".repeat(10_000) };
    const error = await call();
    assert.ok(error instanceof MoreLoginResponseError);
    assert.ok(error.message.length < 200);
  });

  it("a reply that stops halfway fails after the timeout, saying the answer stalled, and is not retried", async () => {
    let started = 0;
    const stalling = createServer((req, res) => {
      started++;
      req.resume();
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"code":0,"data":{"dataList":[');
    });
    await new Promise<void>((resolve) => stalling.listen(0, "127.0.0.1", resolve));
    const client = new MoreLoginClient({ localUrl: `http://127.0.0.1:${(stalling.address() as AddressInfo).port}`, timeouts: { request: 300 } });
    try {
      const error = await rejection(client.call("listProfiles", { pageNo: 1 }));
      assert.ok(error instanceof MoreLoginTimeoutError);
      assert.equal(error.message, "the Local API stopped sending its answer for 0.3 s (POST /api/env/page)");
      assert.equal(started, 1);
    } finally {
      await client.close();
      stalling.closeAllConnections();
      await new Promise<void>((resolve) => stalling.close(() => resolve()));
    }
  });

  it("a reply larger than any MoreLogin reply is cut off with a clear error, not kept in memory", async () => {
    const flooding = createServer((req, res) => {
      req.resume();
      res.writeHead(200, { "content-type": "application/json" });
      const chunk = Buffer.alloc(1024 * 1024, 0x20);
      let sent = 0;
      const more = (): void => {
        while (sent < 40 && !res.destroyed) {
          sent++;
          if (!res.write(chunk)) return void res.once("drain", more);
        }
        res.end();
      };
      more();
    });
    await new Promise<void>((resolve) => flooding.listen(0, "127.0.0.1", resolve));
    const client = new MoreLoginClient({ localUrl: `http://127.0.0.1:${(flooding.address() as AddressInfo).port}`, retry: { attempts: 1 } });
    try {
      const error = await rejection(client.call("listProfiles", { pageNo: 1 }));
      assert.ok(error instanceof MoreLoginResponseError, String(error));
      assert.equal(error.message, "the Local API sent a reply that is too large: the reply is larger than 32 MB (POST /api/env/page)");
    } finally {
      await client.close();
      flooding.closeAllConnections();
      await new Promise<void>((resolve) => flooding.close(() => resolve()));
    }
  });

  it("a generic request body that JSON cannot carry is refused before sending", async () => {
    const client = new MoreLoginClient({ localUrl: baseUrl });
    hits = 0;
    try {
      const error = await rejection(client.request({ api: "local", method: "POST", path: "/status", body: { envId: 10n } }));
      assert.ok(error instanceof MoreLoginInputError, String(error));
      assert.match(error.message, /^body\.envId is a BigInt, which JSON cannot carry/);
      assert.equal(hits, 0);
    } finally {
      await client.close();
    }
  });

  it("the generic request accepts a bare JSON reply such as the health probe", async () => {
    reply = { status: 200, type: "application/json", body: '{"status":"ok"}' };
    const client = new MoreLoginClient({ localUrl: baseUrl });
    try {
      const result = await client.request({ api: "local", method: "POST", path: "/status" });
      assert.deepEqual(result.data, { status: "ok" });
    } finally {
      await client.close();
    }
  });
});

describe("client: unreachable desktop client", () => {
  it("says the client is not running, and marks the request as never sent", async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const client = new MoreLoginClient({ localUrl: `http://127.0.0.1:${port}`, retry: { attempts: 2, baseDelayMs: 1, maxDelayMs: 1 } });
    try {
      const error = await rejection(client.call("startProfile", { envId: "1" }));
      assert.ok(error instanceof MoreLoginNetworkError);
      assert.equal(error.notSent, true);
      assert.equal(error.message, `cannot reach the Local API at http://127.0.0.1:${port} (ECONNREFUSED): is the MoreLogin desktop client running and logged in, and is the port right?`);
    } finally {
      await client.close();
    }
  });

  it("retries a start when the connection was refused, so a client that comes up in time is reached", async function () {
    this.timeout(120_000);
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const seeded = await startEmulator();
    const envId = seeded.data.profiles[0]?.id;
    await seeded.close();
    // A budget of 30 attempts 250-1000 ms apart (at least 14 s), so a slow emulator start is not
    // missed; each retry waits at least 250 ms, so an answer after that long proves a retry.
    const client = new MoreLoginClient({ localUrl: `http://127.0.0.1:${port}`, retry: { attempts: 30, baseDelayMs: 500, maxDelayMs: 1_000 } });
    const sent = performance.now();
    const pending = client.call("startProfile", { envId });
    // The emulator starts at once, but in a later turn of the event loop than the call's first
    // connection, which is therefore refused.
    const late = await new Promise<Awaited<ReturnType<typeof startEmulator>>>((resolve, reject) => {
      setImmediate(() => startEmulator({ localPort: port }).then(resolve, reject));
    });
    try {
      const result = await pending;
      assert.equal(result.data.envId, envId);
      assert.ok(performance.now() - sent >= 250, "answered only after a retry");
      assert.equal(late.stats.requests[START], 1);
    } finally {
      await client.close();
      await late.close();
    }
  });
});
