import assert from "node:assert/strict";
import { call, dataOf, expectError } from "../support/http";
import { useEmulator } from "../support/emulator";

/** Profile endpoints that the official CLI reaches through its `api` passthrough. */

describe("emulator: profile process IDs and security lock", () => {
  const { emulator } = useEmulator();
  const post = (path: string, body: unknown) => call(emulator().localUrl, path, { body });

  it("getAllProcessIds lists exactly the running profiles; lock/query reports an existing profile unlocked (101 for an unknown one)", async () => {
    const profile = emulator().data.profiles[0];
    assert.ok(profile);
    assert.deepEqual(dataOf(await post("/api/env/getAllProcessIds", {})), []);
    dataOf(await post("/api/env/start", { envId: profile.id }));
    const running = dataOf<{ envId: string; uniqueId: number; envName: string; pid: number }[]>(await post("/api/env/getAllProcessIds", {}));
    assert.deepEqual(
      running.map(({ envId, uniqueId, envName }) => [envId, uniqueId, envName]),
      [[profile.id, 1, profile.envName]],
    );
    assert.ok(Number.isInteger(running[0]?.pid));
    dataOf(await post("/api/env/close", { envId: profile.id }));
    assert.deepEqual(dataOf(await post("/api/env/getAllProcessIds", {})), []);

    assert.deepEqual(dataOf(await post("/api/env/lock/query", { envId: profile.id })), { envId: profile.id, locked: false });
    expectError(await post("/api/env/lock/query", { envId: "1234567890123456789" }), 200, 101);
    expectError(await post("/api/env/lock/query", {}), 200, 99001);
  });

  it("lock/query answers locked while the profile's security lock is on (happen.profileLocks), and only for that profile", async () => {
    const [locked, other] = emulator().data.profiles;
    assert.ok(locked && other);
    const lockOf = async (envId: string) => dataOf(await post("/api/env/lock/query", { envId }));
    assert.equal(emulator().happen.profileLocks(locked.id), true);
    assert.equal(emulator().happen.profileLocks(locked.id), false, "already locked");
    assert.equal(emulator().happen.profileLocks("1234567890123456789"), false, "no such profile");
    assert.deepEqual(await lockOf(locked.id), { envId: locked.id, locked: true });
    assert.deepEqual(await lockOf(other.id), { envId: other.id, locked: false });
    assert.equal(emulator().happen.profileUnlocks(locked.id), true);
    assert.equal(emulator().happen.profileUnlocks(locked.id), false, "not locked any more");
    assert.deepEqual(await lockOf(locked.id), { envId: locked.id, locked: false });
  });
});
