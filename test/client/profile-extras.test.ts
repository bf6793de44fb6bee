import assert from "node:assert/strict";
import { MoreLoginApiError, MoreLoginInputError, type MoreLoginClient } from "../../src/client";
import { call } from "../support/http";
import { clientFor, rejection, useEmulator } from "../support/emulator";

/** The profile endpoints besides quick create, start and close: security lock, processes, screens, window arrangement, user agents, create with settings and the catalogues. */
describe("client: profile lock, processes, screens, windows and user agents", () => {
  const { emulator } = useEmulator({ profiles: 5 });
  let client: MoreLoginClient;
  beforeEach(() => {
    emulator().resetStats();
    client = clientFor(emulator());
  });
  afterEach(() => client.close());
  const profileId = (index: number): string => {
    const id = emulator().data.profiles[index]?.id;
    assert.ok(id);
    return id;
  };
  const onlyBody = (path: string): unknown => {
    const sent = emulator().requestLog.filter((request) => request.path === path);
    assert.equal(sent.length, 1, `one request to ${path}`);
    return sent[0]?.body;
  };

  it("profileLock reads lock/query's {envId, locked}: false, then true once the profile's lock is on", async () => {
    const envId = profileId(0);
    const unlocked = await client.call("profileLock", { envId });
    assert.deepEqual(unlocked.data, { envId, locked: false });
    assert.equal(unlocked.path, "/api/env/lock/query");
    assert.ok(emulator().happen.profileLocks(envId));
    try {
      assert.deepEqual((await client.call("profileLock", { envId })).data, { envId, locked: true });
    } finally {
      emulator().happen.profileUnlocks(envId);
    }
  });

  it("profileLock needs envId, as the spec marks it: refused before anything is sent", async () => {
    const error = await rejection(client.call("profileLock", {}));
    assert.ok(error instanceof MoreLoginInputError);
    assert.equal(error.message, "envId is missing");
    assert.deepEqual(emulator().requestLog, []);
  });

  it("profileProcesses lists the open profiles as {envId, uniqueId, envName, pid}", async () => {
    assert.deepEqual((await client.call("profileProcesses", {})).data, []);
    const envId = profileId(1);
    await client.call("startProfile", { envId });
    try {
      const [row, ...others] = (await client.call("profileProcesses", {})).data;
      assert.deepEqual(others, []);
      assert.ok(row);
      assert.deepEqual({ envId: row.envId, uniqueId: row.uniqueId, envName: row.envName }, { envId, uniqueId: 2, envName: emulator().data.profiles[1]?.envName });
      assert.ok(Number.isInteger(row.pid), `pid ${row.pid}`);
    } finally {
      await client.call("closeProfile", { envId });
    }
  });

  it("listScreens lists the machine's screens with their geometry", async () => {
    const screens = (await client.call("listScreens", {})).data;
    assert.equal(screens.length, 1);
    const [screen] = screens;
    assert.ok(screen);
    assert.deepEqual(
      { id: screen.id, width: screen.width, height: screen.height, x: screen.x, y: screen.y, isPrimaryScreen: screen.isPrimaryScreen },
      { id: "2528732444", width: 1920, height: 1080, x: 0, y: 0, isPrimaryScreen: true },
    );
  });

  it("arrangeWindows sends the type, the profiles (as decimal strings) and the screens, and answers null", async () => {
    const envId = profileId(2);
    const result = await client.call("arrangeWindows", { arrangeType: 2, envIds: [envId], screenIds: [2528732444] });
    assert.equal(result.data, null);
    assert.deepEqual(onlyBody("/api/env/arrangeWindows"), { arrangeType: 2, envIds: [envId], screenIds: [2528732444] });
  });

  it("arrangeWindows refuses a profile ID that is not a decimal string before sending; the API refuses an unknown type", async () => {
    const error = await rejection(client.call("arrangeWindows", { envIds: ["P-1"] }));
    assert.ok(error instanceof MoreLoginInputError, error.message);
    assert.deepEqual(emulator().requestLog, []);
    const refused = await rejection(client.call("arrangeWindows", { arrangeType: 3 }));
    assert.ok(refused instanceof MoreLoginApiError);
    assert.equal(refused.code, 99001);
  });

  it("userAgent reads ua/get's top-level ua and resolution, where the reply's data is null", async () => {
    const body = { os: 2, osVersion: "macOS 14", vendor: 1 };
    const envelope = (await call(emulator().localUrl, "/api/env/advanced/ua/get", { body })).json as Record<string, unknown>;
    assert.deepEqual([envelope.code, envelope.data], [0, null], "the emulator answers as the spec shows");
    const result = await client.call("userAgent", body);
    assert.deepEqual(result.data, { ua: envelope.ua, resolution: envelope.resolution });
    assert.match(result.data.ua, /Macintosh/);
    assert.deepEqual(Object.keys(result.data.resolution).sort(), ["id", "value"]);
    assert.equal(result.path, "/api/env/advanced/ua/get");
  });

  it("userAgent needs os: refused before anything is sent", async () => {
    const error = await rejection(client.call("userAgent", { vendor: 1 }));
    assert.ok(error instanceof MoreLoginInputError);
    assert.equal(error.message, "os is missing");
    assert.deepEqual(emulator().requestLog, []);
  });

  it("createAdvanced sends one profile's settings (Chrome on Windows unless given), IDs kept strings, and answers the new ID", async () => {
    const tag = emulator().data.tags[0];
    assert.ok(tag);
    const created = await client.call("createAdvanced", { envName: "Client made", tagIds: [tag.id], advancedSetting: { hardware_concurrency: 4 } });
    assert.match(created.data, /^\d{19}$/);
    assert.equal(created.path, "/api/env/create/advanced");
    assert.deepEqual(onlyBody("/api/env/create/advanced"), { envName: "Client made", tagIds: [tag.id], advancedSetting: { hardware_concurrency: 4 }, browserTypeId: 1, operatorSystemId: 1 });
    const error = await rejection(client.call("createAdvanced", { tagIds: [Number.MAX_SAFE_INTEGER + 2] }));
    assert.ok(error instanceof MoreLoginInputError, String(error));
  });

  it("createAdvanced is never sent again once it may have arrived: a dropped connection is the call's error", async () => {
    emulator().script({ kind: "reset", api: "local", path: "/api/env/create/advanced", times: 1 });
    const error = await rejection(client.call("createAdvanced", { envName: "Maybe made" }));
    assert.equal((error as { kind?: string }).kind, "network");
    assert.equal(emulator().requestLog.filter((request) => request.path === "/api/env/create/advanced").length, 1);
  });

  it("the catalogue reads: kernels, time zones and languages and resolutions by OS (required), platforms, mobile devices", async () => {
    assert.ok((await client.call("kernelVersions")).data.some((row) => row.browserType === 1 && row.versions.length > 0));
    const base = await client.call("timeZonesAndLanguages", { os: 2 });
    assert.ok(base.data.time_zone_list.length > 0 && base.data.language_list.length > 0);
    assert.ok((await client.call("resolutions", { os: 3, ua: "Mozilla/5.0" })).data.every((row) => typeof row.id === "string" && /\d+x\d+/.test(row.value)));
    assert.ok((await client.call("platforms")).data.every((platform) => Array.isArray(platform.sites)));
    assert.ok((await client.call("mobileDevices", {})).data.length > 0);
    for (const endpoint of ["timeZonesAndLanguages", "resolutions"] as const) {
      const error = await rejection(client.call(endpoint, {}));
      assert.ok(error instanceof MoreLoginInputError);
      assert.equal(error.message, "os is missing");
    }
    assert.deepEqual(
      emulator().requestLog.map((request) => `${request.method} ${request.path}`),
      ["GET /api/env/advanced/ua/versions", "POST /api/env/base/list", "POST /api/env/base/resolution/list", "GET /api/system/platform/list", "POST /api/env/base/mobile/devices"],
    );
  });
});
