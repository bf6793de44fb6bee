import assert from "node:assert/strict";
import type { NodeMessage } from "node-red";
import { startEmulator, type Emulator } from "../../src/emulator";
import { credentialsFor, flowWith, helper, loadFlow, settle } from "../support/node-red";

const REDEPLOYS = 100;

/** Open sockets and timers of this process, by kind. */
function handles(): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const kind of process.getActiveResourcesInfo()) counts[kind] = (counts[kind] ?? 0) + 1;
  return counts;
}

function listeners(): number {
  return process.eventNames().reduce((sum, name) => sum + process.listenerCount(name), 0);
}

describe("reliability: redeploys with requests in flight", function () {
  this.timeout(300_000);
  let emulator: Emulator;

  before(async () => {
    emulator = await startEmulator({ profiles: 50 });
    await new Promise<void>((resolve) => helper.startServer(resolve));
  });
  after(async () => {
    await new Promise<void>((resolve) => helper.stopServer(resolve));
    await emulator.close();
  });

  it(`closes within 2 s each of ${REDEPLOYS} times, aborts what is in flight, and leaves no sockets, timers or listeners behind`, async () => {
    // Warm up once so lazily created, long-lived runtime resources exist before the baseline.
    await loadFlow(flowWith(emulator, { type: "morelogin-list-profiles" }), credentialsFor(emulator));
    await helper.unload();
    await settle(300);
    const baseline = handles();
    const baselineListeners = listeners();

    emulator.setFaults({ latencyMs: [300, 300] });
    let slowest = 0;
    for (let i = 0; i < REDEPLOYS; i++) {
      await loadFlow(flowWith(emulator, { type: i % 2 ? "morelogin-list-apps" : "morelogin-start-profile", envId: emulator.data.profiles[i % 50]?.id, envIdType: "str" }), credentialsFor(emulator));
      const node = helper.getNode("n1");
      for (let m = 0; m < 5; m++) node.receive({ payload: "" } as NodeMessage);
      await settle(20);
      const closing = Date.now();
      await helper.unload();
      slowest = Math.max(slowest, Date.now() - closing);
    }
    emulator.setFaults({});
    await emulator.close();
    emulator = await startEmulator({ profiles: 50 });
    await settle(500);
    const after = handles();
    console.log(`RELIABILITY shutdown ${JSON.stringify({ redeploys: REDEPLOYS, slowestCloseMs: slowest, handlesBefore: baseline, handlesAfter: after, listenersBefore: baselineListeners, listenersAfter: listeners() })}`);
    assert.ok(slowest < 2_000, `slowest close took ${slowest} ms`);
    assert.ok((after.TCPSocketWrap ?? 0) <= (baseline.TCPSocketWrap ?? 0), `sockets ${JSON.stringify(baseline)} -> ${JSON.stringify(after)}`);
    assert.ok((after.Timeout ?? 0) <= (baseline.Timeout ?? 0), `timers ${JSON.stringify(baseline)} -> ${JSON.stringify(after)}`);
    assert.equal(listeners(), baselineListeners);
  });
});
