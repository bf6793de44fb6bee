import assert from "node:assert/strict";
import type { NodeMessage } from "node-red";
import { useEmulator } from "../support/emulator";
import { credentialsFor, flowWith, helper, loadFlow, useNodeRed } from "../support/node-red";
import { OUTCOME_MS, waitUntil } from "../support/wait-until";

const REDEPLOYS = 100;
const IN_FLIGHT = 5;

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
  useNodeRed();
  const { emulator, startAgain } = useEmulator({ profiles: 50 });

  it(`closes within 2 s each of ${REDEPLOYS} times, aborts what is in flight, and leaves no sockets, timers or listeners behind`, async () => {
    // Warm up once so lazily created, long-lived runtime resources exist before the baseline.
    await loadFlow(flowWith(emulator(), { type: "morelogin-list-profiles" }), credentialsFor(emulator()));
    await helper.unload();
    // The unload's own file and close requests end a moment after it returns: the baseline comes once none is pending.
    await waitUntil(() => !process.getActiveResourcesInfo().some((kind) => kind === "CloseReq" || kind.startsWith("FSReq")), "no file or close request of the unload is pending", 5_000);
    const baseline = handles();
    /** No more sockets or timers than at the baseline: what a redeploy left behind has closed. */
    const backToBaseline = (): boolean => ["TCPSocketWrap", "Timeout"].every((kind) => (handles()[kind] ?? 0) <= (baseline[kind] ?? 0));
    const baselineListeners = listeners();

    emulator().setFaults({ latencyMs: [300, 300] });
    let slowest = 0;
    let aborted = 0;
    let answered = 0;
    const otherErrors: string[] = [];
    for (let i = 0; i < REDEPLOYS; i++) {
      await loadFlow(
        flowWith(emulator(), { type: i % 2 ? "morelogin-list-apps" : "morelogin-start-profile", envId: emulator().data.profiles[i % 50]?.id, envIdType: "str" }),
        credentialsFor(emulator()),
      );
      const node = helper.getNode("n1");
      // The helper drops its spies before it stops the flows: watch this node's own error() instead.
      node.error = (error: unknown): void => {
        const text = error instanceof Error ? error.message : String(error);
        if (/failed: the node was stopped \(a deploy or Node-RED shutting down\) while the call was in flight$/.test(text)) aborted++;
        else otherErrors.push(text);
      };
      helper.getNode("out").on("input", () => answered++);
      const requestsSeen = (): number => Object.values(emulator().stats.requests).reduce((sum, count) => sum + count, 0);
      const received = requestsSeen();
      for (let m = 0; m < IN_FLIGHT; m++) node.receive({ payload: "" } as NodeMessage);
      // The first request (a start, or the Open API token the list waits for) is at the emulator, held by its latency.
      await waitUntil(() => requestsSeen() > received, "a request of this round is in flight at the emulator", 5_000);
      const closing = Date.now();
      await helper.unload();
      slowest = Math.max(slowest, Date.now() - closing);
    }
    await waitUntil(backToBaseline, "the redeploys' sockets and timers are gone", OUTCOME_MS).catch(() => undefined);
    // With the emulator still up: its side of any socket the client left open would count too.
    const beforeRestart = handles();
    emulator().setFaults({});
    await emulator().close();
    await startAgain();
    await waitUntil(backToBaseline, "the sockets and timers are gone", OUTCOME_MS).catch(() => undefined);
    const after = handles();
    console.log(
      `RELIABILITY shutdown ${JSON.stringify({ redeploys: REDEPLOYS, inFlight: REDEPLOYS * IN_FLIGHT, aborted, answered, slowestCloseMs: slowest, handlesBefore: baseline, handlesBeforeEmulatorRestart: beforeRestart, handlesAfter: after, listenersBefore: baselineListeners, listenersAfter: listeners() })}`,
    );
    assert.ok(slowest < 2_000, `slowest close took ${slowest} ms`);
    assert.deepEqual(otherErrors, []);
    assert.equal(aborted, REDEPLOYS * IN_FLIGHT, "every request in flight was aborted by the redeploy");
    assert.equal(answered, 0);
    for (const kind of ["TCPSocketWrap", "Timeout"]) {
      assert.ok((beforeRestart[kind] ?? 0) <= (baseline[kind] ?? 0), `${kind} ${JSON.stringify(baseline)} -> ${JSON.stringify(beforeRestart)}`);
    }
    assert.ok((after.TCPSocketWrap ?? 0) <= (baseline.TCPSocketWrap ?? 0), `sockets ${JSON.stringify(baseline)} -> ${JSON.stringify(after)}`);
    assert.ok((after.Timeout ?? 0) <= (baseline.Timeout ?? 0), `timers ${JSON.stringify(baseline)} -> ${JSON.stringify(after)}`);
    assert.equal(listeners(), baselineListeners);
  });
});
