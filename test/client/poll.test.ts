import assert from "node:assert/strict";
import sinon from "sinon";
import { MoreLoginAbortError, MoreLoginError, MoreLoginNetworkError, MoreLoginTimeoutError, POLL_FIRST_DELAY_MS, POLL_MAX_DELAY_MS, pollUntil, type PollOptions } from "../../src/client";
import { errorOf, resultOf, track, type Tracked } from "../support/tracked-calls";

/** The value of a wait that must have ended by now: on fake time a wait still running would never end. */
function valueNow<T>(waited: Tracked<T>): Promise<T> {
  assert.equal(waited.ended, true, "the wait has not ended yet");
  return resultOf(waited);
}

/** The error of a wait that must have failed by now. */
function errorNow(waited: Tracked<unknown>): Promise<Error> {
  assert.equal(waited.ended, true, "the wait has not ended yet");
  return errorOf(waited);
}

/**
 * pollUntil on fake time (sinon fakes Date.now and setTimeout): every pause is measured on the fake
 * clock, so the test asserts the exact backoff and never waits for it.
 */
describe("client: pollUntil, waiting for a long operation", () => {
  let clock: sinon.SinonFakeTimers;
  beforeEach(() => {
    clock = sinon.useFakeTimers();
  });
  afterEach(() => clock.restore());

  /** A status call answering `states` in turn (the last one from then on), recording when and with how much time left it was asked. */
  function reader(...states: string[]): { read: (timeLeftMs: number) => Promise<string>; asked: { at: number; timeLeftMs: number }[] } {
    const asked: { at: number; timeLeftMs: number }[] = [];
    const read = async (timeLeftMs: number): Promise<string> => {
      asked.push({ at: Date.now(), timeLeftMs });
      return states[Math.min(asked.length, states.length) - 1] as string;
    };
    return { read, asked };
  }

  const options = (more: Partial<PollOptions<string>> = {}): PollOptions<string> => ({
    timeoutMs: 60_000,
    reached: (state) => state === "running",
    describe: (last) => `the phone is not running after 60 s (last status: ${last ?? "none"})`,
    ...more,
  });

  it("answers at once when the first read is the state waited for, asking once with the whole time", async () => {
    const { read, asked } = reader("running");
    const waited = track(pollUntil(read, options()));
    await clock.tickAsync(0);
    assert.equal(waited.ended, true, "no pause before the first read");
    assert.equal(await valueNow(waited), "running");
    assert.deepEqual(asked, [{ at: 0, timeLeftMs: 60_000 }]);
    await clock.tickAsync(30_000);
    assert.equal(asked.length, 1, "nothing asked after the answer");
  });

  it("backs off 1 s, then half as long again each time, up to 5 s, and gives each read the time left", async () => {
    assert.equal(POLL_FIRST_DELAY_MS, 1_000);
    assert.equal(POLL_MAX_DELAY_MS, 5_000);
    const { read, asked } = reader("stopped", "starting", "starting", "starting", "starting", "starting", "starting", "running");
    const waited = track(pollUntil(read, options()));
    await clock.tickAsync(60_000);
    assert.equal(await valueNow(waited), "running");
    const at = asked.map((ask) => ask.at);
    const pauses = at.slice(1).map((time, i) => time - (at[i] as number));
    assert.deepEqual(pauses, [1_000, 1_500, 2_250, 3_375, 5_000, 5_000, 5_000]);
    assert.deepEqual(
      asked.map((ask) => ask.timeLeftMs),
      at.map((time) => 60_000 - time),
    );
  });

  it("takes its own first and longest pause", async () => {
    const { read, asked } = reader("starting", "starting", "starting", "starting", "running");
    const waited = track(pollUntil(read, options({ firstDelayMs: 100, maxDelayMs: 200 })));
    await clock.tickAsync(10_000);
    assert.equal(await valueNow(waited), "running");
    assert.deepEqual(
      asked.map((ask) => ask.at),
      [0, 100, 250, 450, 650],
    );
  });

  it("times out with kind timeout, naming the last state seen, after the last pause shrinks to the time left", async () => {
    const { read, asked } = reader("stopped", "starting");
    const waited = track(pollUntil(read, options({ timeoutMs: 2_000, context: { api: "local", path: "/api/cloudphone/info" } })));
    await clock.tickAsync(1_999);
    assert.equal(waited.ended, false);
    await clock.tickAsync(1);
    const error = await errorNow(waited);
    assert.ok(error instanceof MoreLoginTimeoutError, String(error));
    assert.equal(error.kind, "timeout");
    assert.equal(error.message, "the phone is not running after 60 s (last status: starting)");
    assert.equal(error.path, "/api/cloudphone/info");
    assert.deepEqual(
      asked.map((ask) => ask.at),
      [0, 1_000, 2_000],
      "the pause after the second read is 1 s (the time left), not 1.5 s",
    );
    await clock.tickAsync(30_000);
    assert.equal(asked.length, 3, "nothing asked after the timeout");
  });

  it("stops at once with kind api when `failed` names a reason, and asks no more", async () => {
    const { read, asked } = reader("starting", "starting", "error");
    const failed = (state: string): string | undefined => (state === "error" ? "the phone failed to start (status error)" : undefined);
    const waited = track(pollUntil(read, options({ failed, context: { path: "/api/cloudphone/info" } })));
    await clock.tickAsync(2_500);
    const error = await errorNow(waited);
    assert.ok(error instanceof MoreLoginError, String(error));
    assert.equal(error.kind, "api");
    assert.equal(error.message, "the phone failed to start (status error)");
    assert.equal(error.path, "/api/cloudphone/info");
    assert.equal(asked.length, 3);
    await clock.tickAsync(60_000);
    assert.equal(asked.length, 3);
  });

  it("`reached` wins over `failed` for the same answer", async () => {
    const { read } = reader("running");
    const waited = track(pollUntil(read, options({ failed: () => "never read" })));
    await clock.tickAsync(0);
    assert.equal(await valueNow(waited), "running");
  });

  it("ends at once when the signal fires during a pause, with the signal's reason, and reads no more", async () => {
    const { read, asked } = reader("starting");
    const controller = new AbortController();
    const waited = track(pollUntil(read, options({ signal: controller.signal, context: { path: "/api/cloudphone/info" } })));
    await clock.tickAsync(1_000 + 500);
    assert.equal(asked.length, 2, "in the 1.5 s pause after the second read");
    controller.abort(new MoreLoginAbortError("the node was stopped (a deploy or Node-RED shutting down) while the call was in flight", {}));
    // Microtasks only: the fake clock does not move.
    await clock.tickAsync(0);
    assert.equal(waited.ended, true, "ended without waiting out the pause");
    const error = await errorNow(waited);
    assert.ok(error instanceof MoreLoginAbortError, String(error));
    assert.equal(error.kind, "aborted");
    assert.equal(error.message, "the node was stopped (a deploy or Node-RED shutting down) while the call was in flight");
    assert.equal(error.path, "/api/cloudphone/info");
    await clock.tickAsync(60_000);
    assert.equal(asked.length, 2, "no read after the abort");
  });

  it("a signal whose reason is not the client's own ends the wait as cancelled", async () => {
    const { read, asked } = reader("starting");
    const controller = new AbortController();
    const waited = track(pollUntil(read, options({ signal: controller.signal })));
    await clock.tickAsync(10);
    controller.abort();
    await clock.tickAsync(0);
    const error = await errorNow(waited);
    assert.ok(error instanceof MoreLoginAbortError, String(error));
    assert.equal(error.message, "the wait was cancelled");
    assert.equal(asked.length, 1);
  });

  it("a read that times out at the deadline becomes the wait's timeout, naming the last state seen", async () => {
    const asked: number[] = [];
    // The first status call answers; the second hangs until its own timeout, the time left.
    const read = (timeLeftMs: number): Promise<string> => {
      asked.push(timeLeftMs);
      if (asked.length === 1) return Promise.resolve("starting");
      return new Promise((_resolve, reject) => setTimeout(() => reject(new MoreLoginTimeoutError("no answer from the Local API within 4 s (POST /api/cloudphone/info)", {})), timeLeftMs));
    };
    const waited = track(pollUntil(read, options({ timeoutMs: 5_000 })));
    await clock.tickAsync(4_999);
    assert.equal(waited.ended, false);
    await clock.tickAsync(1);
    const error = await errorNow(waited);
    assert.ok(error instanceof MoreLoginTimeoutError, String(error));
    assert.equal(error.message, "the phone is not running after 60 s (last status: starting)");
    assert.deepEqual(asked, [5_000, 4_000]);
  });

  it("a read that times out before the deadline, or fails otherwise, ends the wait with its own error", async () => {
    const early = new MoreLoginTimeoutError("no answer from the Local API within 0.5 s (POST /api/cloudphone/info)", {});
    const timedOut = track(pollUntil(() => new Promise<string>((_resolve, reject) => setTimeout(() => reject(early), 500)), options({ timeoutMs: 5_000 })));
    await clock.tickAsync(500);
    assert.equal(await errorNow(timedOut), early);

    const dropped = new MoreLoginNetworkError("cannot reach the Local API", {});
    const failed = track(pollUntil(() => Promise.reject(dropped), options()));
    await clock.tickAsync(0);
    assert.equal(await errorNow(failed), dropped);
  });
});
