import assert from "node:assert/strict";
import sinon from "sinon";
import { Timers } from "../../src/emulator/timers";

describe("emulator: timers", () => {
  let clock: sinon.SinonFakeTimers | undefined;
  afterEach(() => clock?.restore());

  it("after() runs the callback once its delay has passed, unless cancelled or cleared", () => {
    clock = sinon.useFakeTimers();
    const timers = new Timers();
    const ran: string[] = [];
    timers.after(100, () => ran.push("a"));
    const cancel = timers.after(100, () => ran.push("b"));
    timers.after(0, () => ran.push("c"));
    cancel();
    cancel();
    clock.tick(99);
    assert.deepEqual(ran, ["c"]);
    clock.tick(1);
    assert.deepEqual(ran, ["c", "a"]);
    timers.after(50, () => ran.push("d"));
    timers.clearAll();
    clock.tick(100);
    assert.deepEqual(ran, ["c", "a"]);
  });

  it("after() waits out delays longer than setTimeout can hold, in steps", () => {
    clock = sinon.useFakeTimers();
    const timers = new Timers();
    let ran = false;
    const thirtyDays = 30 * 86_400_000;
    const cancel = timers.after(thirtyDays, () => (ran = true));
    clock.tick(2_147_483_647);
    assert.equal(ran, false, "not after the first step");
    clock.tick(thirtyDays - 2_147_483_647 - 1);
    assert.equal(ran, false);
    clock.tick(1);
    assert.equal(ran, true);
    let other = false;
    const stop = timers.after(thirtyDays, () => (other = true));
    clock.tick(2_147_483_647 + 10);
    stop();
    clock.tick(thirtyDays);
    assert.equal(other, false, "a chained wait can still be cancelled");
    cancel();
  });
});
