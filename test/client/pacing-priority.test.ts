import assert from "node:assert/strict";
import { MoreLoginAbortError, type MoreLoginClient, type PacedStart } from "../../src/client";
import type { Emulator } from "../../src/emulator";
import { resetBeforeEach, useEmulator, usePacedClient } from "../support/emulator";
import { errorOf, resultOf, track, type Tracked } from "../support/tracked-calls";
import { waitUntil } from "../support/wait-until";

/** Longer than the pacing window (60 s) plus the second an answer is counted in. */
const PAST_WINDOW_MS = 61_000;
/** A start spends two requests' worth of the bucket, which fills at 120 a minute: a second. */
const START_SPACING_MS = 1_000;

/** The paths the emulator got for starts, closes and lists, in the order it got them. */
function sent(emulator: Emulator): string[] {
  const names: Record<string, string> = { "/api/env/start": "start", "/api/env/close": "close", "/api/env/page": "list" };
  return emulator.requestLog.map((entry) => names[entry.path] ?? entry.path);
}

describe("client: pacing keeps runs moving (releases first, starts reserve their release, starts spread over the minute)", () => {
  // The emulator refuses what MoreLogin would: more than 120 requests a minute.
  const { emulator } = useEmulator({ profiles: 25, rateLimitPerMinute: 120 });
  const ids = (): string[] => emulator().data.profiles.map((profile) => profile.id);
  resetBeforeEach(emulator);
  const pacedClients = usePacedClient(emulator);
  const paced = (localRpm: number, shifted = false): MoreLoginClient => pacedClients.paced({ localRpm, concurrency: 0 }, shifted);

  it("keeps the budget a started profile's close needs: other calls wait, the close goes at once", async () => {
    const [a, b] = ids();
    const paced3 = paced(3);
    await paced3.call("startProfile", { envId: a });
    const queued: string[] = [];
    const list1 = track(paced3.call("listProfiles", { envName: "one" }));
    const list2 = track(paced3.call("listProfiles", { envName: "two" }, { onQueued: (waiting) => waiting && queued.push("list") }));
    const startB = track(paced3.call("startProfile", { envId: b }, { onQueued: (waiting) => waiting && queued.push("start") }));
    await resultOf(list1);
    assert.deepEqual(queued, ["list", "start"], "the second list and the second start wait: the third request of the minute is the close's");
    await paced3.call("closeProfile", { envId: a });
    assert.equal(list2.ended, false, "the list still waits for the window");
    assert.equal(startB.ended, false, "the start still waits for the window");
    assert.deepEqual(sent(emulator()), ["start", "list", "close"]);
    assert.equal(emulator().stats.rateLimited, 0);
    await paced3.close();
    for (const waiting of [list2, startB]) assert.ok((await errorOf(waiting)) instanceof MoreLoginAbortError, "closing the client ends what waits, once");
  });

  it("lets a waiting close go before the starts that came before it, when the window frees up", async () => {
    const [a, b, x] = ids();
    const paced2 = paced(2, true);
    await Promise.all([paced2.call("listProfiles", { envName: "one" }), paced2.call("listProfiles", { envName: "two" })]);
    const order: string[] = [];
    const waiting: string[] = [];
    const startA = track(paced2.call("startProfile", { envId: a }, { onQueued: (queued) => queued && waiting.push("start a") }).then(() => order.push("start a")));
    const startB = track(paced2.call("startProfile", { envId: b }, { onQueued: (queued) => queued && waiting.push("start b") }).then(() => order.push("start b")));
    // A profile started elsewhere: its close has nothing reserved, it waits for the window like the starts.
    const close = track(paced2.call("closeProfile", { envId: x }, { onQueued: (queued) => queued && waiting.push("close x") }).finally(() => order.push("close x")));
    await waitUntil(() => waiting.length === 3, "all three wait: the window is full", 5_000);
    const clock = pacedClients.clock();
    assert.ok(clock);
    clock.advance(PAST_WINDOW_MS);
    // The gate looks at its window again when a call arrives.
    const nudge = track(paced2.call("listTags"));
    await close.done;
    assert.deepEqual(order, ["close x"], "the close went first; the starts wait for room for their own closes");
    assert.equal(startA.ended, false);
    assert.equal(startB.ended, false);
    assert.equal(nudge.ended, false, "a call that came after the starts waits behind them");
    assert.deepEqual(sent(emulator()), ["list", "list", "close"]);
  });

  it("spreads a run of starts over the minute instead of sending them in one burst, and says when the next one goes", async () => {
    const paced120 = paced(120);
    const starts = ids().slice(0, 8);
    let sent = 0;
    /** When the gate let each waiting start through (onQueued(false) comes from inside the gate, at once). */
    const releasedAt: number[] = [];
    const pacedStarts: PacedStart[] = [];
    /** Paced starts told they left the queue with their pace: a node's "paced: next start in…" status counts them down. */
    const pacedLeft: PacedStart[] = [];
    const before = performance.now();
    const calls: Tracked<unknown>[] = starts.map((envId) =>
      track(
        paced120.call(
          "startProfile",
          { envId },
          {
            onRequest: () => {
              sent++;
            },
            onQueued: (queued, _reason, pace) => {
              if (queued && pace) pacedStarts.push(pace);
              if (!queued) releasedAt.push(performance.now());
              if (!queued && pace) pacedLeft.push(pace);
            },
          },
        ),
      ),
    );
    // Five seconds of the budget go at once: five starts and the closes they reserve.
    await waitUntil(() => sent === 5 && pacedStarts.length === 3, "five starts are sent, three wait on the pace", 5_000);
    const next = pacedStarts[0]?.nextStartInMs() ?? -1;
    assert.ok(next > 0 && next <= START_SPACING_MS, `the next start is due within a second or so, not ${next} ms`);
    await Promise.all(calls.map((call) => resultOf(call)));
    assert.equal(releasedAt.length, 3);
    assert.equal(pacedLeft.length, 3, "each start that waited on the pace is told, with its pace, when it goes");
    releasedAt.forEach((at, index) => {
      // The bucket refills two requests' worth (a start and its close) about every second after the burst:
      // the n-th waiting start goes no sooner than n such seconds after the first start (a busy machine
      // can only make it later; the gate's clock counts whole milliseconds).
      const least = (index + 1) * START_SPACING_MS - 5;
      assert.ok(at - before >= least, `waiting start ${index + 1} went ${Math.round(at - before)} ms after the first start, not after ${least} ms or more`);
    });
    assert.equal(emulator().stats.rateLimited, 0);
  });

  it("lets a close through at once while starts wait on the pace", async () => {
    const paced120 = paced(120);
    const [first, ...rest] = ids().slice(0, 9);
    assert.ok(first);
    await paced120.call("startProfile", { envId: first });
    const waitingStarts: string[] = [];
    const starts = rest.map((envId) => track(paced120.call("startProfile", { envId }, { onQueued: (queued) => queued && waitingStarts.push(envId) })));
    await waitUntil(() => waitingStarts.length > 0, "a start waits on the pace", 5_000);
    const before = starts.filter((start) => !start.ended).length;
    await paced120.call("closeProfile", { envId: first });
    assert.ok(starts.filter((start) => !start.ended).length > 0, `the close did not wait for the ${before} waiting starts`);
    await Promise.all(starts.map((start) => resultOf(start)));
  });
});
