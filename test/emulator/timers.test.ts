import assert from "node:assert/strict";
import sinon from "sinon";
import { startEmulator } from "../../src/emulator";
import { Timers } from "../../src/emulator/timers";
import { call, dataOf } from "../support/http";

const timeouts = (): number => process.getActiveResourcesInfo().filter((kind) => kind === "Timeout").length;

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

  it("on a manual clock, after() waits for advance(): due callbacks run in time order, those they schedule too when due", () => {
    const timers = new Timers(true);
    const ran: string[] = [];
    timers.after(300, () => ran.push("c"));
    timers.after(100, () => {
      ran.push("a");
      timers.after(100, () => ran.push("a+100"));
    });
    const cancel = timers.after(150, () => ran.push("cancelled"));
    timers.after(100, () => ran.push("b"));
    cancel();
    timers.advance(99);
    assert.deepEqual(ran, []);
    timers.advance(201);
    assert.deepEqual(ran, ["a", "b", "a+100", "c"]);
    let cleared = true;
    timers.after(0, () => {
      cleared = false;
    });
    timers.clearAll();
    timers.advance(1_000);
    assert.equal(cleared, true, "a cleared callback never runs");
    assert.throws(() => new Timers().advance(1), /manualClock/);
  });

  it("close() leaves no boot, install or automation timer behind", async () => {
    // fetch keeps a timer of its own for idle connections; make it exist before counting.
    const warmUp = await startEmulator();
    await call(warmUp.localUrl, "/status");
    await warmUp.close();
    const before = timeouts();
    const emulator = await startEmulator({ cloudPhones: 6, phoneBootMs: 60_000, automationStepMs: 60_000, appInstallMs: 60_000 });
    const off = emulator.data.cloudPhones.find((p) => p.envStatus === 2);
    const on = emulator.data.cloudPhones.find((p) => p.envStatus === 4);
    assert.ok(off && on);
    dataOf(await call(emulator.localUrl, "/api/cloudphone/powerOn", { body: { id: off.id } }));
    dataOf(await call(emulator.localUrl, "/api/cloudphone/restart", { body: { id: on.id } }));
    const market = dataOf<{ dataList: { id: string }[] }>(await call(emulator.localUrl, "/api/cloudphone/rpa/template/market/page", { body: {} }));
    dataOf(await call(emulator.localUrl, "/api/cloudphone/rpa/onceTask/save", { body: { cloudPhoneId: off.id, scheduleName: "t", templateId: market.dataList[3]?.id } }));
    assert.ok(timeouts() >= before + 3, "the emulator is waiting on its timers");
    await emulator.close();
    assert.ok(timeouts() <= before, `timers left: ${timeouts() - before}`);
  });
});
