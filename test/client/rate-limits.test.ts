import assert from "node:assert/strict";
import { MoreLoginAbortError, MoreLoginApiError, MoreLoginClient, MoreLoginRateLimitError, RATE_LIMIT_CODES, type ClientSettings } from "../../src/client";
import { shiftClock } from "../support/clock";
import { clearFaults, marker, resetBeforeEach, useClients, rejection, requests, useEmulator } from "../support/emulator";
import { errorOf, queuedLog, resultOf, track, type Tracked } from "../support/tracked-calls";
import { waitUntil } from "../support/wait-until";
import { refusal, startStubApi, type StubApi } from "../support/stub-api";

const PAGE = "local POST /api/env/page";
const TAGS = "local GET /api/envtag/all";
const GROUPS = "local POST /api/envgroup/page";
const START = "local POST /api/env/start";
const CLOSE = "local POST /api/env/close";
const TOKEN = "open POST /oauth2/token";
const APPS = "open POST /cloudphone/app/page";

/** Waits shortened for tests: a refusal is waited out for at most this long, other failures backed off briefly. */
const SHORT_WAIT = { maxRateLimitWaitMs: 50, baseDelayMs: 5, maxDelayMs: 20 };

describe("client: rate-limit replies (HTTP 429)", () => {
  const { emulator } = useEmulator();
  const clientWith = useClients(emulator);
  resetBeforeEach(emulator, clearFaults);

  /** Calls that report to `onQueued`, and a wait until they all are held (the client read the 429 and holds the call). */
  function heldCalls(): { onQueued: () => (queued: boolean) => void; held: () => Promise<void> } {
    const logs: ReturnType<typeof queuedLog>[] = [];
    return {
      onQueued: () => {
        const log = queuedLog();
        logs.push(log);
        return log.onQueued;
      },
      held: () => waitUntil(() => logs.every((log) => log.events[0] === true), "the client holds the calls", 5_000),
    };
  }

  it("sends a refused start again, since it did not run, and it starts", async () => {
    const patient = clientWith({ retry: SHORT_WAIT });
    const envId = emulator().data.profiles[0]?.id;
    emulator().script({ kind: "tooMany", path: "/api/env/start" });
    const started = await patient.call("startProfile", { envId });
    assert.equal(started.data.envId, envId);
    assert.equal(requests(emulator(), START), 2);
    assert.ok(
      emulator()
        .running()
        .some((profile) => profile.envId === envId),
    );
  });

  it("sends a refused close again, and it closes", async () => {
    const patient = clientWith({ retry: SHORT_WAIT });
    const envId = emulator().data.profiles[1]?.id;
    await patient.call("startProfile", { envId });
    emulator().script({ kind: "tooMany", path: "/api/env/close" });
    await patient.call("closeProfile", { envId });
    assert.equal(requests(emulator(), CLOSE), 2);
    assert.ok(
      !emulator()
        .running()
        .some((profile) => profile.envId === envId),
    );
  });

  it("does not send a start or a close again after a failure that may have run it (HTTP 503)", async () => {
    const patient = clientWith({ retry: SHORT_WAIT });
    const envId = emulator().data.profiles[2]?.id;
    emulator().script({ kind: "http503", path: "/api/env/start" });
    const startError = await rejection(patient.call("startProfile", { envId }));
    assert.ok(startError instanceof MoreLoginApiError, String(startError));
    assert.equal(startError.status, 503);
    emulator().script({ kind: "http503", path: "/api/env/close" });
    const closeError = await rejection(patient.call("closeProfile", { envId }));
    assert.equal((closeError as MoreLoginApiError).status, 503);
    assert.equal(requests(emulator(), START), 1);
    assert.equal(requests(emulator(), CLOSE), 1);
  });

  it("sends nothing else to that API while a refused call waits (no stampede), then all of them, the Open API meanwhile unaffected", async () => {
    // The client's clock, moved through the pause rather than waited out: halfway through a minute's
    // Retry-After everything is still held, however slow the machine.
    const RETRY_AFTER_S = 60;
    const clock = shiftClock();
    try {
      const patient = clientWith();
      emulator().script({ kind: "tooMany", path: "/api/env/page", retryAfterSeconds: RETRY_AFTER_S });
      const calls = heldCalls();
      const refused = track(patient.call("listProfiles", {}, { onQueued: calls.onQueued() }));
      await calls.held();
      const others: Tracked<unknown>[] = [
        track(patient.call("listTags", undefined, { onQueued: calls.onQueued() })),
        track(patient.call("listGroups", {}, { onQueued: calls.onQueued() })),
        track(patient.call("profileStatus", { envId: emulator().data.profiles[0]?.id }, { onQueued: calls.onQueued() })),
      ];
      await calls.held();
      const apps = await patient.call("listApps", { pageNum: 1 });
      assert.equal(apps.data.dataList.length, 10, "the Open API is not held by a Local API refusal");
      clock.advance((RETRY_AFTER_S * 1000) / 2);
      // A call that arrives makes the gate look again at its clock.
      const early = track(patient.call("listTags"));
      await marker(emulator(), "marker");
      assert.equal(emulator().requestLog.filter((request) => request.api === "local").length, 2, "only the refused request (and the marker) reached the Local API");

      clock.advance((RETRY_AFTER_S * 1000) / 2);
      const late = track(patient.call("listTags"));
      await waitUntil(() => [refused, ...others].every((call) => call.ended), "the held calls are let through once the pause is over", 30_000);
      await Promise.all([refused, ...others, early, late].map((call) => resultOf(call)));
      assert.equal(requests(emulator(), PAGE), 3, "the refused request, the marker, the refused call sent again");
      assert.equal(requests(emulator(), TAGS), 3);
      assert.equal(requests(emulator(), GROUPS), 1);
    } finally {
      clock.restore();
    }
  });

  it("waits a Retry-After longer than maxRateLimitWaitMs only that long, for the held calls too", async function () {
    this.timeout(120_000);
    const capped = clientWith({ retry: { maxRateLimitWaitMs: 300 } });
    emulator().script({ kind: "tooMany", path: "/api/env/page", retryAfterSeconds: 60 });
    const started = performance.now();
    const refused = track(capped.call("listProfiles", {}));
    await waitUntil(() => emulator().stats.faultsInjected.tooMany >= 1, "the refusal was sent", 5_000);
    const other = track(capped.call("listTags"));
    await Promise.all([resultOf(refused), resultOf(other)]);
    assert.ok(performance.now() - started < 30_000, "not the 60 s asked for");
  });

  it("waits before sending a call refused without Retry-After (the published 429) again: until the window allows, at most the cap", async () => {
    const capped = clientWith({ retry: { maxRateLimitWaitMs: 400 } });
    emulator().script({ kind: "rateLimited", path: "/api/env/page" });
    const started = performance.now();
    const result = await capped.call("listProfiles", {});
    assert.equal(result.data.current, "1");
    assert.ok(performance.now() - started >= 350, "the refused request counts in the window for a minute, so the wait is the cap");
    assert.equal(requests(emulator(), PAGE), 2);
  });

  it("gives up after 5 refusals in a row with kind rate-limit and the API's code and msg", async () => {
    const patient = clientWith({ retry: SHORT_WAIT });
    emulator().script({ kind: "tooMany", path: "/api/env/page", times: 5 });
    const error = await rejection(patient.call("listProfiles", {}));
    assert.ok(error instanceof MoreLoginRateLimitError, String(error));
    assert.equal(error.kind, "rate-limit");
    assert.equal(error.message, "Rate limit exceeded (code 429, HTTP 429): refused 5 times in a row as too frequent, so the call gives up");
    assert.equal(requests(emulator(), PAGE), 5);
    const flow = error.toFlowError();
    assert.equal(typeof flow.requestId, "string");
    assert.deepEqual({ ...flow, requestId: undefined }, { kind: "rate-limit", code: 429, msg: "Rate limit exceeded", status: 429, requestId: undefined, path: "/api/env/page" });
  });

  it("gets through after 4 refusals in a row", async () => {
    const patient = clientWith({ retry: SHORT_WAIT });
    emulator().script({ kind: "tooMany", path: "/api/env/page", times: 4 });
    const result = await patient.call("listProfiles", {});
    assert.equal(result.data.current, "1");
    assert.equal(requests(emulator(), PAGE), 5);
  });

  it("gives a start up after 5 refusals too, having sent it only those 5 times", async () => {
    const patient = clientWith({ retry: SHORT_WAIT });
    emulator().script({ kind: "tooMany", path: "/api/env/start", times: 5 });
    const error = await rejection(patient.call("startProfile", { envId: emulator().data.profiles[3]?.id }));
    assert.equal((error as MoreLoginRateLimitError).kind, "rate-limit");
    assert.equal(requests(emulator(), START), 5);
  });

  it("ends a call held after a refusal when its signal fires, without sending it again", async () => {
    const patient = clientWith();
    emulator().script({ kind: "tooMany", path: "/api/env/page", retryAfterSeconds: 60 });
    const controller = new AbortController();
    const calls = heldCalls();
    const refused = track(patient.call("listProfiles", {}, { signal: controller.signal, onQueued: calls.onQueued() }));
    await calls.held();
    const abortedAt = performance.now();
    controller.abort();
    const error = await errorOf(refused);
    assert.ok(performance.now() - abortedAt < 30_000, "at once, not after the 60 s");
    assert.ok(error instanceof MoreLoginAbortError, String(error));
    assert.equal(error.kind, "aborted");
    await marker(emulator(), "marker");
    assert.equal(requests(emulator(), PAGE), 2, "the refused request and the marker: the aborted call was not sent again");
  });

  it("sends a refused call again before the calls that came after it", async () => {
    const clock = shiftClock();
    try {
      const paced = clientWith({ pacing: { localRpm: 1 } });
      emulator().script({ kind: "tooMany", path: "/api/env/page", retryAfterSeconds: 1 });
      const refusedLog = queuedLog();
      const calls = ["refused", "next", "last"].map((envName, index) => track(paced.call("listProfiles", { envName }, index === 0 ? { onQueued: refusedLog.onQueued } : {})));
      await waitUntil(() => refusedLog.events[0] === true, "the client holds the refused call", 5_000);
      const nudges: Tracked<unknown>[] = [];
      for (const call of calls) {
        // Past the hold and the window; a call that arrives makes the gate look again, and waits behind.
        clock.advance(61_000);
        nudges.push(track(paced.call("listTags")));
        await waitUntil(() => call.ended, "the next call is let through", 60_000);
        await resultOf(call);
      }
      const names = emulator()
        .requestLog.filter((request) => request.path === "/api/env/page")
        .map((request) => (request.body as { envName?: unknown }).envName);
      assert.deepEqual(names, ["refused", "refused", "next", "last"]);
      await paced.close();
      await Promise.all(nudges.map((nudge) => errorOf(nudge)));
    } finally {
      clock.restore();
    }
  });

  it("still holds the other calls when a refused call gives up", async () => {
    // The client's clock, moved past the pause rather than waited out.
    const clock = shiftClock();
    try {
      const impatient = clientWith({ retry: { refusals: 1 } });
      // A minute on the client's clock: halfway through it, however slow the machine, the pause still holds.
      emulator().script({ kind: "tooMany", path: "/api/env/page", retryAfterSeconds: 60 });
      const error = await rejection(impatient.call("listProfiles", {}));
      assert.equal((error as MoreLoginRateLimitError).kind, "rate-limit");
      const otherLog = queuedLog();
      const other = track(impatient.call("listTags", undefined, { onQueued: otherLog.onQueued }));
      await waitUntil(() => otherLog.events[0] === true, "the client holds the other call", 5_000);
      await marker(emulator(), "marker");
      assert.equal(requests(emulator(), TAGS), 0, "the API asked for a pause");
      clock.advance(30_000);
      // A call that arrives makes the gate look again at its clock.
      const early = track(impatient.call("listGroups", {}));
      await marker(emulator(), "marker");
      assert.equal(requests(emulator(), TAGS), 0, "still held halfway through the pause");
      clock.advance(30_000);
      const late = track(impatient.call("listGroups", {}));
      await waitUntil(() => other.ended, "the other call is let through once the pause is over", 30_000);
      await resultOf(other);
      await Promise.all([resultOf(early), resultOf(late)]);
    } finally {
      clock.restore();
    }
  });

  it("waits out a refused Open API token request and gets the token", async () => {
    const patient = clientWith({ retry: SHORT_WAIT });
    emulator().script({ kind: "tooMany", api: "open", path: "/oauth2/token" });
    const apps = await patient.call("listApps", { pageNum: 1 });
    assert.equal(apps.data.dataList.length, 10);
    assert.equal(requests(emulator(), TOKEN), 2);
    assert.equal(requests(emulator(), APPS), 1);
  });
});

describe("client: rate-limit codes in an HTTP 200 reply", () => {
  let stub: StubApi;
  let client: MoreLoginClient | undefined;
  before(async () => {
    stub = await startStubApi();
  });
  after(() => stub.close());
  beforeEach(() => stub.reset());
  afterEach(async () => {
    await client?.close();
    client = undefined;
  });

  function stubClient(retry: ClientSettings["retry"] = SHORT_WAIT): MoreLoginClient {
    client = new MoreLoginClient({ localUrl: stub.url, retry });
    return client;
  }

  it("are the codes 429, 35000, 99008 and 99009", () => {
    assert.deepEqual(
      [...RATE_LIMIT_CODES].sort((a, b) => a - b),
      [429, 35000, 99008, 99009],
    );
  });

  for (const code of [429, 35000, 99008, 99009]) {
    describe(`code ${code}`, () => {
      it("is a refusal: a read is sent again and gets its answer", async () => {
        stub.script(refusal(code, "API requests too frequent"));
        stub.otherwise = { body: { code: 0, msg: "success", data: { current: "1", dataList: [] }, requestId: "ok" } };
        const result = await stubClient().call("listProfiles", {});
        assert.deepEqual(result.data, { current: "1", dataList: [] });
        assert.equal(stub.requests.length, 2);
      });

      it("is a refusal: a start is sent again too", async () => {
        stub.script(refusal(code, "API requests too frequent"));
        stub.otherwise = { body: { code: 0, msg: "success", data: { envId: "1", debugPort: "9222" }, requestId: "ok" } };
        const result = await stubClient().call("startProfile", { envId: "1" });
        assert.equal(result.data.envId, "1");
        assert.equal(stub.requests.length, 2);
        assert.equal(stub.requests[1]?.body, stub.requests[0]?.body);
      });

      it("five times in a row gives up with kind rate-limit, the API's code and msg", async () => {
        stub.script(...Array.from({ length: 5 }, () => refusal(code, "API requests too frequent")));
        const error = await rejection(stubClient().call("startProfile", { envId: "1" }));
        assert.ok(error instanceof MoreLoginRateLimitError, String(error));
        assert.equal(error.message, `API requests too frequent (code ${code}): refused 5 times in a row as too frequent, so the call gives up`);
        assert.deepEqual(error.toFlowError(), { kind: "rate-limit", code, msg: "API requests too frequent", status: 200, requestId: `stub-${code}`, path: "/api/env/start" });
        assert.equal(stub.requests.length, 5);
      });
    });
  }

  it("another business code is an error of kind api, and a start is not sent again", async () => {
    stub.script(refusal(99001, "Request parameter error"));
    const error = await rejection(stubClient().call("startProfile", { envId: "1" }));
    assert.ok(error instanceof MoreLoginApiError, String(error));
    assert.equal(error.toFlowError().kind, "api");
    stub.script(refusal(99001, "Request parameter error"));
    const readError = await rejection(stubClient().call("listProfiles", {}));
    assert.equal((readError as MoreLoginApiError).kind, "api");
    assert.equal(stub.requests.length, 2, "neither was sent again");
  });

  it("an HTTP 429 without a MoreLogin envelope is a refusal too", async () => {
    stub.script({ status: 429, headers: { "content-type": "text/plain" }, body: "slow down" });
    await stubClient().call("startProfile", { envId: "1" });
    assert.equal(stub.requests.length, 2);
  });

  it("without Retry-After the call still waits before it is sent again (until the window allows, here the cap)", async () => {
    stub.script(refusal(35000, "API requests too frequent"));
    const started = performance.now();
    await stubClient({ maxRateLimitWaitMs: 400 }).call("listProfiles", {});
    assert.ok(performance.now() - started >= 350, "the refused request counts in the window for a minute, so the wait is the cap");
    assert.equal(stub.requests.length, 2);
  });

  it("honours a Retry-After that comes with a code in an HTTP 200 reply", async () => {
    stub.script({ ...refusal(99009, "requests too frequent"), headers: { "retry-after": "1" } });
    const started = performance.now();
    await stubClient({}).call("listProfiles", {});
    const waited = performance.now() - started;
    assert.ok(waited >= 900, `waited ${Math.round(waited)} ms`);
    assert.equal(stub.requests.length, 2);
  });
});
