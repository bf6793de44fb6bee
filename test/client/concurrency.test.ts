import assert from "node:assert/strict";
import { MoreLoginAbortError, MoreLoginTimeoutError, type MoreLoginClient, type Pacing } from "../../src/client";
import type { Emulator } from "../../src/emulator";
import { clientFor, marker, requests, useEmulator } from "../support/emulator";
import { errorOf, queuedLog, resultOf, track, type Tracked } from "../support/tracked-calls";
import { waitUntil } from "../support/wait-until";

const START = "local POST /api/env/start";
/** How long the emulator takes to start a profile: long enough to see starts overlap. */
const START_DELAY_MS = 400;

/** Makes the emulator hold the next `times` starts unanswered until the client gives up or closes. */
function hangStarts(emulator: Emulator, times = 1): void {
  emulator.script({ kind: "hang", path: "/api/env/start", times });
}

/** The envId of each start the emulator got, in the order it got them. */
function startedIds(emulator: Emulator): unknown[] {
  return emulator.requestLog.filter((request) => request.path === "/api/env/start").map((request) => (request.body as { envId?: unknown }).envId);
}

function profileIds(emulator: Emulator, count: number): string[] {
  return emulator.data.profiles.slice(0, count).map((profile) => profile.id);
}

describe("client: concurrency limit for profile starts", () => {
  const { emulator } = useEmulator({ startDelayMs: START_DELAY_MS });
  let client: MoreLoginClient | undefined;
  beforeEach(() => emulator().resetStats());
  afterEach(async () => {
    await client?.close();
    client = undefined;
  });

  function limited(pacing: Partial<Pacing>): MoreLoginClient {
    client = clientFor(emulator(), { pacing: { localRpm: 0, ...pacing } });
    return client;
  }

  it("has at most `concurrency` starts in flight at once; the others wait and then start", async () => {
    const two = limited({ concurrency: 2 });
    const ids = profileIds(emulator(), 6);
    let answered = 0;
    let most = 0;
    const starts = ids.map((envId) =>
      track(
        two.call("startProfile", { envId }).then((result) => {
          // Seen by the emulator and not yet answered, as this answer arrives: a start let through by
          // it is sent after this runs, so this is the most that were in flight until now.
          most = Math.max(most, requests(emulator(), START) - answered);
          answered++;
          return result;
        }),
      ),
    );
    await Promise.all(starts.map((start) => resultOf(start)));
    assert.equal(most, 2);
    for (const [index, start] of starts.entries()) assert.equal((await resultOf(start)).data.envId, ids[index]);
    assert.equal(requests(emulator(), START), 6);
  });

  it("lets the waiting starts go in the order they came", async () => {
    const one = limited({ concurrency: 1 });
    const ids = profileIds(emulator(), 4);
    await Promise.all(ids.map((envId) => one.call("startProfile", { envId })));
    assert.deepEqual(startedIds(emulator()), ids);
  });

  it("holds no list, status or close behind the starts in progress", async () => {
    const one = limited({ concurrency: 1 });
    const [a, b, c] = profileIds(emulator(), 3);
    // The first start stays in progress however long the other calls take.
    hangStarts(emulator());
    const startA = track(one.call("startProfile", { envId: a }));
    const startBLog = queuedLog();
    const startB = track(one.call("startProfile", { envId: b }, { onQueued: startBLog.onQueued }));
    await waitUntil(() => startedIds(emulator()).length === 1 && startBLog.events.length > 0, "the first start is sent and the second waits", 5_000);
    await one.call("listProfiles", {});
    await one.call("listCloudPhones", {});
    await one.call("profileStatus", { envId: a });
    await one.call("closeProfile", { envId: c });
    await one.request({ api: "local", method: "POST", path: "/api/env/page", body: {} });
    assert.equal(startA.ended, false, "the first start is still running");
    assert.equal(startB.ended, false, "the second start still waits");
    assert.deepEqual(startBLog.events, [true]);
    await one.close();
    assert.ok((await errorOf(startA)) instanceof MoreLoginAbortError, "the hanging start ends when the client closes");
    const waiting = await errorOf(startB);
    assert.ok(waiting instanceof MoreLoginAbortError && waiting.notSent, String(waiting));
    assert.deepEqual(startedIds(emulator()), [a]);
  });

  it("counts a start sent through the generic request as a start", async () => {
    const one = limited({ concurrency: 1 });
    const [a, b] = profileIds(emulator(), 2);
    // The first start holds its place until the test lets it go.
    hangStarts(emulator());
    const controller = new AbortController();
    const startA = track(one.call("startProfile", { envId: a }, { signal: controller.signal }));
    const startBLog = queuedLog();
    const startB = track(one.request({ api: "local", method: "POST", path: "/api/env/start", body: { envId: b } }, { onQueued: startBLog.onQueued }));
    await waitUntil(() => startedIds(emulator()).length === 1 && startBLog.events.length > 0, "the first start is sent and the generic one is queued", 5_000);
    await marker(emulator(), "marker");
    assert.equal(requests(emulator(), START), 1, "the generic start waits for the place");
    assert.deepEqual(startBLog.events, [true]);
    controller.abort();
    assert.ok((await errorOf(startA)) instanceof MoreLoginAbortError);
    assert.equal(((await resultOf(startB)).data as { envId?: unknown }).envId, b);
    assert.deepEqual(startBLog.events, [true, false]);
    assert.deepEqual(startedIds(emulator()), [a, b]);
  });

  it("ends a start waiting for a place when its signal fires or the client closes, once each, and sends neither", async () => {
    const one = limited({ concurrency: 1 });
    const [a, b, c] = profileIds(emulator(), 3);
    // The first start stays in flight until close() ends it.
    hangStarts(emulator());
    const running = track(one.call("startProfile", { envId: a }));
    const controller = new AbortController();
    const cancelledLog = queuedLog();
    const closedLog = queuedLog();
    const cancelled = track(one.call("startProfile", { envId: b }, { signal: controller.signal, onQueued: cancelledLog.onQueued }));
    const closed = track(one.call("startProfile", { envId: c }, { onQueued: closedLog.onQueued }));
    await waitUntil(() => startedIds(emulator()).length === 1 && cancelledLog.events.length > 0 && closedLog.events.length > 0, "the first start is sent and both others are queued", 5_000);
    assert.deepEqual([cancelledLog.events, closedLog.events], [[true], [true]]);

    controller.abort();
    const error = await errorOf(cancelled);
    assert.ok(error instanceof MoreLoginAbortError, String(error));
    assert.equal(error.kind, "aborted");
    assert.equal(error.notSent, true);
    assert.equal(error.message, "the call was cancelled while it waited for a free place among the starts in progress");
    assert.equal(closed.ended, false, "the start behind it keeps waiting");

    await one.close();
    const closedError = await errorOf(closed);
    assert.ok(closedError instanceof MoreLoginAbortError, String(closedError));
    assert.equal(closedError.notSent, true);
    assert.equal(closedError.message, "the MoreLogin client was closed while the call waited for a free place among the starts in progress");
    assert.ok((await errorOf(running)) instanceof MoreLoginAbortError, "the start in flight ends too");
    assert.deepEqual(
      [cancelledLog.events, closedLog.events],
      [
        [true, false],
        [true, false],
      ],
    );
    await marker(emulator(), "marker");
    assert.deepEqual(startedIds(emulator()), [a]);
  });

  it("does not limit starts with concurrency 0", async () => {
    const unlimited = limited({ concurrency: 0 });
    // None of the eight is answered, so all of them in flight at once is a state that lasts.
    hangStarts(emulator(), 8);
    const starts = profileIds(emulator(), 8).map((envId) => track(unlimited.call("startProfile", { envId })));
    await waitUntil(() => requests(emulator(), START) === 8 || starts.some((start) => start.ended), "the starts are sent", 5_000);
    assert.equal(requests(emulator(), START), 8, "all eight in flight at once");
    assert.ok(starts.every((start) => !start.ended));
    await unlimited.close();
    for (const start of starts) assert.ok((await errorOf(start)) instanceof MoreLoginAbortError);
  });

  it("allows five starts at once by default", async () => {
    const byDefault = limited({});
    // The first five stay in flight, so a sixth could only go if there were a sixth place.
    hangStarts(emulator(), 5);
    const logs = profileIds(emulator(), 7).map(() => queuedLog());
    const starts = profileIds(emulator(), 7).map((envId, index) => track(byDefault.call("startProfile", { envId }, { onQueued: logs[index]?.onQueued })));
    await waitUntil(() => requests(emulator(), START) === 5 && logs.filter((log) => log.events.length > 0).length === 2, "five starts are sent and two wait", 5_000);
    await marker(emulator(), "marker");
    assert.equal(requests(emulator(), START), 5);
    await byDefault.close();
    for (const start of starts) assert.ok((await errorOf(start)) instanceof MoreLoginAbortError);
  });
});

describe("client: waiting for a place among the starts does not count against the timeout", () => {
  const { emulator } = useEmulator();
  let client: MoreLoginClient | undefined;
  afterEach(async () => {
    await client?.close();
    client = undefined;
  });

  it("a start queued behind one that hangs succeeds after waiting longer than its own timeout", async function () {
    this.timeout(60_000);
    client = clientFor(emulator(), { pacing: { concurrency: 1, localRpm: 0 } });
    const [a, b] = profileIds(emulator(), 2);
    hangStarts(emulator());
    // The patient start's own round trip has 5 s, a bound for a busy machine; it waits 6 s first.
    const hung: Tracked<unknown> = track(client.call("startProfile", { envId: a }, { timeoutMs: 6_000 }));
    const patient = track(client.call("startProfile", { envId: b }, { timeoutMs: 5_000 }));
    assert.ok((await errorOf(hung)) instanceof MoreLoginTimeoutError);
    assert.equal((await resultOf(patient)).data.envId, b);
  });
});
