import assert from "node:assert/strict";
import { MoreLoginInputError, type CapacitySettings, type MoreLoginClient, type WaitReason } from "../../src/client";
import { requests, useClients, useEmulator } from "../support/emulator";
import { call } from "../support/http";
import { errorOf, resultOf, track } from "../support/tracked-calls";
import { waitUntil } from "../support/wait-until";

const UNPACED = { localRpm: 0, openRpm: 0, concurrency: 0 };
const READ_PROFILES = "local POST /api/env/getAllDebugInfo";

/** Records what one call's `onQueued` said, and whether it waits now. */
function waitLog(): { reasons: WaitReason[]; waiting: () => boolean; onQueued: (queued: boolean, reason: WaitReason) => void } {
  const reasons: WaitReason[] = [];
  let now = false;
  return {
    reasons,
    waiting: () => now,
    onQueued: (queued, reason) => {
      now = queued;
      if (queued) reasons.push(reason);
    },
  };
}

describe("client: maxProfiles and maxPhones", () => {
  const { emulator } = useEmulator({ profiles: 10, cloudPhones: 6, phoneBootMs: 100 });
  const clients = useClients(emulator);
  const capped = (capacity: Partial<CapacitySettings>): MoreLoginClient => clients({ pacing: UNPACED, capacity });
  const profileIds = (): string[] => emulator().data.profiles.map((profile) => profile.id);

  beforeEach(async () => {
    await call(emulator().localUrl, "/api/env/closeAll", { body: {} });
    for (const phone of emulator().data.cloudPhones) {
      if (phone.envStatus !== 2) await call(emulator().localUrl, "/api/cloudphone/powerOff", { body: { id: phone.id } });
    }
    emulator().resetStats();
  });

  it("counts a profile started by hand, and its wait does not count against the start's timeout", async () => {
    const [byHand, mine] = profileIds();
    await call(emulator().localUrl, "/api/env/start", { body: { envId: byHand } });
    const client = capped({ maxProfiles: 1 });
    const log = waitLog();
    const start = track(client.call("startProfile", { envId: mine }, { timeoutMs: 200, onQueued: log.onQueued }));
    // The start is queued before the cap reads the running set, and the emulator counts the read
    // before the client has its answer: wait for what the cap itself counts.
    await waitUntil(() => log.waiting() && client.capacityUsage("profiles").running === 1, "the start waits, the profile started by hand counted", 5_000);
    assert.deepEqual(log.reasons, ["profile"]);
    assert.deepEqual(client.capacityUsage("profiles"), { running: 1, limit: 1 });
    // The cap reads again about 5 s later: far longer than the start's own timeout, while it waits.
    await waitUntil(() => requests(emulator(), READ_PROFILES) >= 2, "the cap read the running set again", 15_000);
    assert.equal(start.ended, false, "the start still waits");
    await call(emulator().localUrl, "/api/env/close", { body: { envId: byHand } });
    assert.equal((await resultOf(start)).data.envId, mine);
    assert.equal(requests(emulator(), "local POST /api/env/start"), 2, "the hand start and this one");
  });

  it("counts a start sent through the generic request, and frees the place of a close sent through it", async () => {
    const [a, b] = profileIds();
    const client = capped({ maxProfiles: 1 });
    await client.request({ api: "local", method: "POST", path: "/api/env/start", body: { envId: a } });
    const log = waitLog();
    const second = track(client.call("startProfile", { envId: b }, { onQueued: log.onQueued }));
    await waitUntil(log.waiting, "the second start waits", 5_000);
    await client.request({ api: "local", method: "POST", path: "/api/env/close", body: { envId: a } });
    await resultOf(second);
  });

  it("close all profiles frees every place", async () => {
    const [a, b, c] = profileIds();
    const client = capped({ maxProfiles: 2 });
    await Promise.all([client.call("startProfile", { envId: a }), client.call("startProfile", { envId: b })]);
    const log = waitLog();
    const third = track(client.call("startProfile", { envId: c }, { onQueued: log.onQueued }));
    await waitUntil(log.waiting, "the third start waits", 5_000);
    const reads = requests(emulator(), READ_PROFILES);
    await client.call("closeAllProfiles", {});
    await resultOf(third);
    assert.equal(requests(emulator(), READ_PROFILES), reads, "no read was needed");
  });

  it("caps phones on the Open API, reading the powered-on set from the Open API's phone list", async () => {
    const [first, second] = emulator().data.cloudPhones.map((phone) => phone.id);
    const client = capped({ maxPhones: 1 });
    await client.call("powerOnCloudPhone", { id: first }, { api: "open" });
    const log = waitLog();
    const next = track(client.call("powerOnCloudPhone", { id: second }, { api: "open", onQueued: log.onQueued }));
    await waitUntil(log.waiting, "the second power-on waits", 5_000);
    assert.deepEqual(log.reasons, ["phone"]);
    await client.call("powerOffCloudPhone", { id: first }, { api: "open" });
    await resultOf(next);
    assert.ok(requests(emulator(), "open POST /cloudphone/page") >= 1, "the Open API's phone list was read");
    assert.equal(requests(emulator(), "local POST /api/cloudphone/page"), 0, "the Local API was not asked");
  });

  it("a restart takes a place like a power-on; a restart of a phone already on passes straight through", async () => {
    const [on, other] = emulator().data.cloudPhones.map((phone) => phone.id);
    const client = capped({ maxPhones: 1 });
    await client.call("powerOnCloudPhone", { id: on });
    await waitUntil(() => emulator().data.cloudPhones.find((phone) => phone.id === on)?.envStatus === 4, "the phone is on", 5_000);
    await client.call("restartCloudPhone", { id: on });
    const log = waitLog();
    const restart = track(client.call("restartCloudPhone", { id: other }, { onQueued: log.onQueued }));
    await waitUntil(log.waiting, "the restart of another phone waits", 5_000);
    await waitUntil(() => emulator().data.cloudPhones.find((phone) => phone.id === on)?.envStatus === 4, "the restarted phone is on again", 5_000);
    await client.call("powerOffCloudPhone", { id: on });
    // The emulator refuses to restart a phone that is off: the call went out once it had the place.
    const error = await errorOf(restart);
    assert.match(error.message, /not been started/);
    assert.equal(requests(emulator(), "local POST /api/cloudphone/restart"), 2);
  });

  it("refuses a cap that is not a whole number", () => {
    assert.throws(() => capped({ maxPhones: -1 }), MoreLoginInputError);
  });
});

describe("client: a phone's lease when the phone is gone", () => {
  const { emulator } = useEmulator({ cloudPhones: 4, phoneBootMs: 50 });
  const clients = useClients(emulator);

  it("a lease on a phone MoreLogin no longer knows (33300: deleted elsewhere) ends when it runs out, not looked for again every few seconds", async () => {
    const client = clients({ pacing: UNPACED });
    const gone = "1990000000000000999";
    assert.ok(!emulator().data.cloudPhones.some((phone) => phone.id === gone), "no phone of the emulator has that ID");
    const ends: Array<{ closed: boolean; error?: unknown }> = [];
    client.leases.onEnd((end) => ends.push(end));
    client.leases.grant("phones", gone, "local", 1);
    await waitUntil(() => ends.length > 0, "the lease has ended", 15_000);
    assert.deepEqual(
      ends.map((end) => ({ closed: end.closed, error: end.error === undefined ? "none" : String(end.error) })),
      [{ closed: false, error: "none" }],
      "the lease ended once, with nothing to power off and no error",
    );
    assert.equal(client.leases.entries().length, 0);
    assert.equal(requests(emulator(), "local POST /api/cloudphone/info"), 1);
    assert.equal(requests(emulator(), "local POST /api/cloudphone/powerOff"), 0);
  });
});
