import assert from "node:assert/strict";
import { call, dataOf } from "../support/http";
import { useEmulator } from "../support/emulator";

describe("emulator: the most profiles running and phones powered at once (stats for tests and the bench)", () => {
  const { emulator } = useEmulator({ profiles: 6, cloudPhones: 6, phoneBootMs: 50 });
  const local = async (path: string, body: unknown): Promise<unknown> => dataOf(await call(emulator().localUrl, path, { body }));
  const poweredNow = (): number => emulator().data.cloudPhones.filter((phone) => [3, 4, 6].includes(phone.envStatus)).length;

  it("counts profiles from their start request until they are closed, and starts again from what runs at a reset", async () => {
    await local("/api/env/closeAll", {});
    emulator().resetStats();
    assert.equal(emulator().stats.peakRunningProfiles, 0);
    const [a, b, c] = emulator().data.profiles.map((profile) => profile.id);
    await Promise.all([a, b, c].map((envId) => local("/api/env/start", { envId })));
    await local("/api/env/close", { envId: a });
    await local("/api/env/start", { envId: a });
    assert.equal(emulator().stats.peakRunningProfiles, 3, "three at most, though four starts were made");
    await local("/api/env/close", { envId: b });
    emulator().resetStats();
    assert.equal(emulator().stats.peakRunningProfiles, 2, "after a reset, the profiles running then");
    await local("/api/env/closeAll", {});
  });

  it("counts phones booting, on or restarting, and starts again from what is powered at a reset", async () => {
    emulator().resetStats();
    const before = poweredNow();
    assert.equal(emulator().stats.peakPoweredPhones, before);
    const off = emulator().data.cloudPhones.find((phone) => phone.envStatus === 2);
    assert.ok(off, "a phone that is off");
    await local("/api/cloudphone/powerOn", { id: off.id });
    assert.equal(emulator().stats.peakPoweredPhones, before + 1, "a booting phone counts at once");
    await local("/api/cloudphone/powerOff", { id: off.id });
    emulator().resetStats();
    assert.equal(emulator().stats.peakPoweredPhones, before);
  });
});
