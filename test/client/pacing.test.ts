import assert from "node:assert/strict";
import { MoreLoginAbortError, MoreLoginTimeoutError, type MoreLoginClient } from "../../src/client";
import { ApiGate } from "../../src/client/api-gate";
import { RequestWindow } from "../../src/client/request-window";
import type { Emulator } from "../../src/emulator";
import { clientFor, marker, rejection, requests, resetBeforeEach, useEmulator, usePacedClient } from "../support/emulator";
import { errorOf, queuedLog, track, resultOf, type Tracked } from "../support/tracked-calls";
import { waitUntil } from "../support/wait-until";

const PAGE = "local POST /api/env/page";
const TAGS = "local GET /api/envtag/all";
const TOKEN = "open POST /oauth2/token";
const APPS = "open POST /cloudphone/app/page";
/** Longer than the pacing window (60 s) plus the second an answer is counted in. */
const PAST_WINDOW_MS = 61_000;

/** The `envName` of each profile list the emulator got, in the order it got them. */
function listedNames(emulator: Emulator): unknown[] {
  return emulator.requestLog.filter((request) => request.path === "/api/env/page").map((request) => (request.body as { envName?: unknown }).envName);
}

function assertClosedWhileWaiting(error: Error): void {
  assert.ok(error instanceof MoreLoginAbortError, String(error));
  assert.equal(error.kind, "aborted");
  assert.equal(error.notSent, true);
  assert.equal(error.message, "the MoreLogin client was closed while the call waited for its turn under the rate limit");
}

describe("client: pacing per API (requests per minute)", () => {
  const { emulator } = useEmulator();
  resetBeforeEach(emulator);
  /** A client of the emulator; `shifted` moves the clock its pacing reads (see support/clock). */
  const { paced, clock } = usePacedClient(emulator);

  /**
   * The gate looks at its window again when a call arrives (otherwise only when a timer set for the
   * real end of the window fires): a list of tags that joins the end of the queue.
   */
  function nudge(paced: MoreLoginClient): Tracked<unknown> {
    return track(paced.call("listTags"));
  }

  it("sends no more than localRpm requests within the window; the calls over it wait instead of failing", async () => {
    const paced3 = paced({ localRpm: 3 });
    const logs = Array.from({ length: 6 }, () => queuedLog());
    const calls = logs.map((log, index) => track(paced3.call("listProfiles", { envName: `call-${index}` }, { onQueued: log.onQueued })));
    await Promise.all(calls.slice(0, 3).map((call) => resultOf(call)));
    await waitUntil(() => logs.slice(3).every((log) => log.events[0] === true), "the calls over the limit wait for their turn", 5_000);
    await marker(emulator(), "marker");
    assert.deepEqual(listedNames(emulator()), ["call-0", "call-1", "call-2", "marker"]);
    assert.deepEqual(
      calls.map((call) => call.ended),
      [true, true, true, false, false, false],
    );
    await paced3.close();
    for (const waiting of calls.slice(3)) assertClosedWhileWaiting(await errorOf(waiting));
    await marker(emulator(), "after close");
    assert.deepEqual(listedNames(emulator()), ["call-0", "call-1", "call-2", "marker", "after close"], "nothing was sent for the calls that waited");
  });

  it("lets the waiting calls through in the order they came, as the window frees up", async () => {
    const paced1 = paced({ localRpm: 1 }, true);
    const names = ["first", "second", "third", "fourth", "fifth"];
    const calls = names.map((envName) => track(paced1.call("listProfiles", { envName })));
    await resultOf(calls[0] as Tracked<unknown>);
    const nudges: Tracked<unknown>[] = [];
    for (let index = 1; index < calls.length; index++) {
      const call = calls[index] as Tracked<unknown>;
      assert.equal(call.ended, false, `${names[index]} waits for the window`);
      assert.equal(requests(emulator(), PAGE), index);
      clock()?.advance(PAST_WINDOW_MS);
      nudges.push(nudge(paced1));
      await waitUntil(() => call.ended, `${names[index]} is let through`, 60_000);
      await resultOf(call);
    }
    assert.deepEqual(listedNames(emulator()), names);
    assert.equal(requests(emulator(), TAGS), 0, "the calls that came later still wait behind");
    await paced1.close();
    for (const waiting of nudges) assertClosedWhileWaiting(await errorOf(waiting));
  });

  it("does not count the time a call waits for its turn against its timeout", async function () {
    this.timeout(60_000);
    const paced1 = paced({ localRpm: 1 }, true);
    await paced1.call("listProfiles", { envName: "first" });
    // 5 s for its own round trip once let through: a bound for a busy machine, not a race.
    const patientLog = queuedLog();
    const patient = track(paced1.call("listProfiles", { envName: "patient" }, { timeoutMs: 5_000, onQueued: patientLog.onQueued }));
    await waitUntil(() => patientLog.events[0] === true, "the call waits for its turn", 5_000);
    // A call with the same 5 s timeout, sent once the patient one waits, to a path that never answers:
    // once it has timed out, a timeout counted from the wait would have run out too.
    emulator().script({ kind: "hang", path: "/api/env/unknown" });
    const control = clientFor(emulator(), { pacing: { localRpm: 0 } });
    try {
      const timedOut = await rejection(control.request({ api: "local", method: "POST", path: "/api/env/unknown", body: {} }, { timeoutMs: 5_000 }));
      assert.ok(timedOut instanceof MoreLoginTimeoutError, String(timedOut));
    } finally {
      await control.close();
    }
    await marker(emulator(), "marker");
    assert.equal(patient.ended, false, "still waiting, past its 5 s timeout");
    clock()?.advance(PAST_WINDOW_MS);
    nudge(paced1);
    const result = await resultOf(patient);
    assert.equal(result.data.current, "1");
    assert.deepEqual(listedNames(emulator()), ["first", "marker", "patient"]);
  });

  it("tells a waiting call's onQueued once when it starts waiting and once when it stops, however the wait ends", async () => {
    const paced1 = paced({ localRpm: 1 }, true);
    const direct = queuedLog();
    const released = queuedLog();
    const cancelled = queuedLog();
    const closed = queuedLog();
    const controller = new AbortController();
    const first = track(paced1.call("listProfiles", {}, { onQueued: direct.onQueued }));
    const second = track(paced1.call("listProfiles", {}, { onQueued: released.onQueued }));
    const third = track(paced1.call("listProfiles", {}, { onQueued: cancelled.onQueued, signal: controller.signal }));
    const fourth = track(paced1.call("listProfiles", {}, { onQueued: closed.onQueued }));
    await resultOf(first);
    assert.deepEqual([direct.events, released.events, cancelled.events, closed.events], [[], [true], [true], [true]]);

    controller.abort();
    await errorOf(third);
    clock()?.advance(PAST_WINDOW_MS);
    const last = nudge(paced1);
    await resultOf(second);
    await paced1.close();
    await errorOf(fourth);
    await errorOf(last);

    assert.deepEqual(direct.events, [], "a call that went at once never waited");
    assert.deepEqual(released.events, [true, false], "let through");
    assert.deepEqual(cancelled.events, [true, false], "ended by its signal, and not again by close()");
    assert.deepEqual(closed.events, [true, false], "ended by close()");
  });

  it("ends a waiting call when its caller's signal fires: at once, with kind aborted, and nothing is sent for it", async () => {
    const paced1 = paced({ localRpm: 1 });
    await paced1.call("listProfiles", { envName: "sent" });
    const controller = new AbortController();
    const queued = [queuedLog(), queuedLog()];
    const cancelled = track(paced1.call("listProfiles", { envName: "cancelled" }, { signal: controller.signal, onQueued: queued[0]?.onQueued }));
    const behind = track(paced1.call("listProfiles", { envName: "behind" }, { onQueued: queued[1]?.onQueued }));
    await waitUntil(() => queued.every((log) => log.events[0] === true), "both calls wait for their turn", 5_000);
    controller.abort();
    const error = await errorOf(cancelled);
    assert.ok(error instanceof MoreLoginAbortError, String(error));
    assert.equal(error.kind, "aborted");
    assert.equal(error.notSent, true);
    assert.equal(error.message, "the call was cancelled while it waited for its turn under the rate limit");
    assert.equal(error.path, "/api/env/page");

    const log = queuedLog();
    const late = await rejection(paced1.call("listProfiles", { envName: "late" }, { signal: controller.signal, onQueued: log.onQueued }));
    assert.ok(late instanceof MoreLoginAbortError, String(late));
    assert.deepEqual(log.events, [], "a call whose signal already fired does not queue");

    await marker(emulator(), "marker");
    assert.equal(behind.ended, false, "the call behind it keeps its place");
    assert.deepEqual(queued[1]?.events, [true], "and still waits");
    assert.deepEqual(listedNames(emulator()), ["sent", "marker"]);
  });

  it("ends every waiting call at once when the client closes, and sends none of them", async () => {
    const paced1 = paced({ localRpm: 1 });
    await paced1.call("listProfiles", { envName: "sent" });
    const logs = [queuedLog(), queuedLog(), queuedLog()];
    const waiting = logs.map((log, index) => track(paced1.call("listProfiles", { envName: `waiting-${index}` }, { onQueued: log.onQueued })));
    await waitUntil(() => logs.every((log) => log.events[0] === true), "the three calls wait for their turn", 5_000);
    const closing = performance.now();
    await paced1.close();
    for (const call of waiting) assertClosedWhileWaiting(await errorOf(call));
    assert.ok(performance.now() - closing < 30_000, "the 60 s window did not hold close()");
    for (const log of logs) assert.deepEqual(log.events, [true, false]);
    await marker(emulator(), "after close");
    assert.deepEqual(listedNames(emulator()), ["sent", "after close"]);
  });

  it("does not pace at all with localRpm 0", async () => {
    const unpaced = paced({ localRpm: 0 });
    const logs = Array.from({ length: 125 }, () => queuedLog());
    await Promise.all(logs.map((log) => unpaced.call("listProfiles", {}, { onQueued: log.onQueued })));
    assert.equal(requests(emulator(), PAGE), 125, "more than the default 120 in a minute");
    assert.ok(
      logs.every((log) => log.events.length === 0),
      "no call waited",
    );
  });

  it("paces each API on its own: a full Local API window holds no Open API call", async () => {
    const paced1 = paced({ localRpm: 1, openRpm: 0 });
    await paced1.call("listProfiles", {});
    const waiting = track(paced1.call("listProfiles", {}));
    const apps = await paced1.call("listApps", { pageNum: 1 });
    assert.equal(apps.data.dataList.length, 10);
    assert.equal(waiting.ended, false);
  });

  it("paces the Open API by openRpm, its token request included", async () => {
    const paced2 = paced({ localRpm: 0, openRpm: 2 });
    const logs = Array.from({ length: 3 }, () => queuedLog());
    const calls = logs.map((log) => track(paced2.call("listApps", { pageNum: 1 }, { onQueued: log.onQueued })));
    await waitUntil(() => calls.some((call) => call.ended), "one call has its answer", 5_000);
    await waitUntil(() => logs.filter((log) => log.events[0] === true).length === 2, "the other two wait for their turn", 5_000);
    assert.equal(requests(emulator(), TOKEN), 1);
    assert.equal(requests(emulator(), APPS), 1);
    assert.equal(calls.filter((call) => call.ended && !call.error).length, 1);
    await paced2.call("listTags");
    assert.equal(requests(emulator(), TAGS), 1, "the Local API is not held by it");
  });
});

describe("client: pacing window and gate, on a clock of their own", () => {
  const START = 1_000_000;
  let time = START;
  const now = (): number => time;
  let closing: AbortController;
  beforeEach(() => {
    time = START;
    closing = new AbortController();
  });
  // Ends the gates' timers (they are set for the real end of a 60 s window).
  afterEach(() => closing.abort());

  const flush = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

  /** Enters the gate as a call would, writing down the order in which calls get through. */
  function entrant(gate: ApiGate, passed: string[]): (name: string, first?: boolean) => void {
    return (name, first = false) => {
      const waiting = gate.enter({}, first);
      if (!waiting) passed.push(name);
      else
        waiting.then(
          () => passed.push(name),
          () => passed.push(`${name} failed`),
        );
    };
  }

  it("counts a request in flight until it is answered, then until 60 s after the end of the second it was answered in", () => {
    const window = new RequestWindow(now);
    time = 5_500;
    window.begin();
    assert.equal(window.used(), 1);
    assert.equal(window.nextExpiry(), undefined, "a request in flight does not expire");
    time = 7_250;
    window.end();
    assert.equal(window.used(), 1);
    assert.equal(window.nextExpiry(), 68_000);
    time = 67_999;
    assert.equal(window.used(), 1);
    time = 68_000;
    assert.equal(window.used(), 0);
    assert.equal(window.nextExpiry(), undefined);
  });

  it("keeps its count right as the seconds of the window come round again", () => {
    const window = new RequestWindow(now);
    for (let second = 0; second < 200; second++) {
      time = START + second * 1_000 + 300;
      window.begin();
      window.end();
      assert.equal(window.used(), Math.min(second + 1, 61), `at second ${second}`);
    }
    time += 60_700;
    assert.equal(window.used(), 0);
  });

  it("lets perMinute calls through in any 60 s, and the rest in arrival order as answered ones stop counting", async () => {
    const gate = new ApiGate(2, closing.signal, now);
    const passed: string[] = [];
    const enter = entrant(gate, passed);
    for (const name of ["a", "b", "c", "d", "e"]) enter(name);
    await flush();
    assert.deepEqual(passed, ["a", "b"]);
    gate.leave();
    gate.leave();
    await flush();
    assert.deepEqual(passed, ["a", "b"], "answered requests still count");

    time = START + 60_999;
    enter("f");
    await flush();
    assert.deepEqual(passed, ["a", "b"]);
    time = START + 61_000;
    enter("g");
    await flush();
    assert.deepEqual(passed, ["a", "b", "c", "d"]);

    gate.leave();
    gate.leave();
    time += PAST_WINDOW_MS;
    enter("h");
    await flush();
    assert.deepEqual(passed, ["a", "b", "c", "d", "e", "f"]);
  });

  it("after a refusal waits Retry-After when given, else until the oldest answered request stops counting; never past the cap", () => {
    const fresh = (): ApiGate => new ApiGate(0, closing.signal, now);
    assert.equal(fresh().refused(2_500, 60_000), 2_500, "Retry-After");
    assert.equal(fresh().refused(90_000, 60_000), 60_000, "Retry-After, capped");
    assert.equal(fresh().refused(undefined, 5_000), 5_000, "nothing answered to wait out: the cap");

    const used = fresh();
    assert.equal(used.enter({}), undefined);
    used.leave();
    time = START + 10_000;
    assert.equal(used.refused(undefined, 60_000), 51_000, "until the request answered at 1,000 s stops counting at 1,061 s");
    assert.equal(used.refused(undefined, 5_000), 5_000, "capped");
  });

  it("lets nothing through while held, then the refused call first and the others in the order they came", async () => {
    const gate = new ApiGate(0, closing.signal, now);
    const passed: string[] = [];
    const enter = entrant(gate, passed);
    gate.refused(50, 60_000);
    enter("b");
    enter("c");
    enter("a", true);
    await flush();
    assert.deepEqual(passed, [], "held, though there is no pacing");
    time += 49;
    enter("d");
    await flush();
    assert.deepEqual(passed, [], "held until the end of the wait on the gate's clock");
    time += 50;
    time += 1;
    enter("e");
    await flush();
    assert.deepEqual(passed, ["a", "b", "c", "d", "e"]);
  });
});
