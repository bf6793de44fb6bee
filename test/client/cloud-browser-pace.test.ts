import assert from "node:assert/strict";
import { MoreLoginAbortError } from "../../src/client";
import { holdsCloudBrowser } from "../../src/client/cloud-browser-runs";
import type { CloudBrowser } from "../../src/client/types";
import { resetBeforeEach, useEmulator, usePacedClient } from "../support/emulator";
import { errorOf, resultOf, track } from "../support/tracked-calls";

const NAMES: Record<string, string> = { "/api/cloudbrowser/start": "cloud start", "/api/cloudbrowser/stop": "cloud stop", "/api/env/page": "list" };

describe("client: cloud browsers in the API's pace and the caps", () => {
  const { emulator } = useEmulator({ profiles: 10, phoneBootMs: 50, rateLimitPerMinute: 120 });
  resetBeforeEach(emulator);
  const pacedClients = usePacedClient(emulator);
  const withProxy = (): string[] =>
    emulator()
      .data.profiles.filter((profile) => profile.proxy !== null)
      .map((profile) => profile.id);

  it("a cloud start keeps the budget its stop needs, as a profile start does: other calls wait, the stop goes at once", async () => {
    const [a, b] = withProxy();
    assert.ok(a && b);
    const paced3 = pacedClients.paced({ localRpm: 3, concurrency: 0 });
    await paced3.call("cloudBrowserStart", { envId: a });
    const queued: string[] = [];
    const list1 = track(paced3.call("listProfiles", { envName: "one" }));
    const list2 = track(paced3.call("listProfiles", { envName: "two" }, { onQueued: (waiting) => waiting && queued.push("list") }));
    const startB = track(paced3.call("cloudBrowserStart", { envId: b }, { onQueued: (waiting) => waiting && queued.push("cloud start") }));
    await resultOf(list1);
    assert.deepEqual(queued, ["list", "cloud start"], "the second list and the second start wait: the third request of the minute is the stop's");
    await paced3.call("cloudBrowserStop", { envId: a });
    assert.equal(list2.ended, false, "the list still waits for the window");
    assert.equal(startB.ended, false, "the start still waits for the window");
    assert.deepEqual(
      emulator().requestLog.map((entry) => NAMES[entry.path] ?? entry.path),
      ["cloud start", "list", "cloud stop"],
    );
    await paced3.close();
    for (const waiting of [list2, startB]) assert.ok((await errorOf(waiting)) instanceof MoreLoginAbortError, "closing the client ends what waits, once");
  });

  it("a cloud browser holds a place while STARTING or RUNNING, not once it is stopping, archiving or CLOSED", () => {
    const row = (cloudBrowserStatus: string, cloudBrowserArchiveStatus: string | null = null): CloudBrowser => ({ id: "1", cloudBrowserStatus, cloudBrowserArchiveStatus });
    const held = (status: string, archive: string | null = null): boolean => holdsCloudBrowser(row(status, archive));
    assert.equal(held("STARTING"), true);
    assert.equal(held("RUNNING"), true);
    // An archive status left from an earlier run (MoreLogin may keep it; the emulator clears it): this run runs.
    assert.equal(held("RUNNING", "COMPLETED"), true);
    for (const archive of ["PENDING", "ARCHIVING", "FAILED"]) assert.equal(held("RUNNING", archive), false, `RUNNING with archive ${archive} is stopping`);
    assert.equal(held("CLOSED"), false);
    assert.equal(held("CLOSED", "COMPLETED"), false);
    assert.equal(holdsCloudBrowser(undefined), false, "no row: nothing held");
  });
});
