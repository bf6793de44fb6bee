import assert from "node:assert/strict";
import { MoreLoginApiError, MoreLoginClient, MoreLoginInputError, PreparedBody } from "../../src/client";
import { clientFor, rejection, requests, useEmulator } from "../support/emulator";

describe("client: Local API", () => {
  const { emulator } = useEmulator({ profiles: 25 });
  let client: MoreLoginClient;
  beforeEach(() => {
    emulator().resetStats();
    client = clientFor(emulator());
  });
  afterEach(() => client.close());

  it("lists a page of profiles exactly as the API serves it, with IDs and counts as strings", async () => {
    const result = await client.call("listProfiles", { pageNo: 2, pageSize: 10 });
    assert.deepEqual(result.data.dataList, emulator().data.profiles.slice(10, 20));
    assert.equal(result.data.total, "25");
    assert.equal(result.data.current, "2");
    assert.equal(result.data.pages, "3");
    assert.equal(typeof result.data.dataList[0]?.id, "string");
    assert.equal(result.api, "local");
    assert.equal(result.path, "/api/env/page");
    assert.match(result.requestId ?? "", /^[0-9a-f]{32}$/);
  });

  it("sends a JSON POST to /api/... without an Authorization header when no token is set", async () => {
    await client.call("listProfiles", { pageNo: 1, envName: "Profile 00" });
    const logged = emulator().requestLog.at(-1);
    assert.equal(logged?.method, "POST");
    assert.equal(logged?.path, "/api/env/page");
    assert.equal(logged?.headers.authorization, undefined);
    assert.equal(logged?.headers["content-type"], "application/json");
    assert.deepEqual(logged?.body, { pageNo: 1, envName: "Profile 00" });
  });

  it("passes fields it does not know through unchanged, so newer API fields work", async () => {
    await client.call("listProfiles", { pageNo: "1", pageSize: "5", futureField: { nested: true } });
    assert.deepEqual(emulator().requestLog.at(-1)?.body, { pageNo: 1, pageSize: 5, futureField: { nested: true } });
  });

  it("reads tags with GET /api/envtag/all and no body", async () => {
    const result = await client.call("listTags");
    assert.deepEqual(result.data, emulator().data.tags);
    const logged = emulator().requestLog.at(-1);
    assert.equal(logged?.method, "GET");
    assert.equal(logged?.path, "/api/envtag/all");
    assert.equal(requests(emulator(), "local GET /api/envtag/all"), 1);
  });

  it("lists cloud phones, proxies and groups", async () => {
    const phones = await client.call("listCloudPhones", { pageNo: 1, pageSize: 100 });
    assert.deepEqual(phones.data.dataList, emulator().data.cloudPhones);
    const proxies = await client.call("listProxies", { pageNo: 1, pageSize: 100 });
    assert.deepEqual(proxies.data.dataList, emulator().data.proxies);
    // The spec marks groupName, pageNo and pageSize all required for /api/envgroup/page.
    const groups = await client.call("listGroups", { groupName: "", pageNo: 1, pageSize: 100 });
    assert.deepEqual(groups.data.dataList, emulator().data.groups);
  });

  it("starts a profile, reports its debug port as a string, and closes it", async () => {
    const profile = emulator().data.profiles[3];
    assert.ok(profile);
    const started = await client.call("startProfile", { envId: profile.id });
    assert.equal(started.data.envId, profile.id);
    assert.match(started.data.debugPort, /^\d+$/);
    const status = await client.call("profileStatus", { envId: profile.id });
    assert.equal(status.data.status, "running");
    const closed = await client.call("closeProfile", { envId: profile.id });
    assert.deepEqual(closed.data, { envId: profile.id, debugPort: "" });
    assert.deepEqual(emulator().running(), []);
  });

  it("throws a typed business error with the API's code, msg and requestId", async () => {
    const error = await rejection(client.call("startProfile", { envId: "1000000000000000001" }));
    assert.ok(error instanceof MoreLoginApiError);
    assert.equal(error.code, 101);
    assert.equal(error.apiMsg, "Profile not found");
    assert.equal(error.status, 200);
    assert.equal(error.path, "/api/env/start");
    assert.equal(error.api, "local");
    assert.match(error.requestId ?? "", /^[0-9a-f]{32}$/);
    assert.equal(error.message, "Profile not found (code 101)");
  });

  it("keeps 19-digit IDs as strings and refuses a number that has lost precision, sending nothing", async () => {
    // biome-ignore lint/correctness/noPrecisionLoss: a 19-digit ID that has lost digits as a number is what this test refuses
    const error = await rejection(client.call("startProfile", { envId: 1993244721490239488 }));
    assert.ok(error instanceof MoreLoginInputError);
    assert.match(error.message, /envId .*not a safe integer.*strings/);
    // biome-ignore lint/correctness/noPrecisionLoss: a 19-digit ID that has lost digits as a number is what this test refuses
    const nested = await rejection(client.call("listProfiles", { pageNo: 1, filter: { ids: [1993244721490239488] } }));
    assert.ok(nested instanceof MoreLoginInputError);
    assert.match(nested.message, /body\.filter\.ids\[0\]/);
    assert.equal(requests(emulator(), "local POST /api/env/start"), 0);
    assert.equal(requests(emulator(), "local POST /api/env/page"), 0);
  });

  it("refuses page numbers that are not positive integers before sending", async () => {
    for (const pageNo of [0, -1, 1.5, "abc", "2x", true]) {
      const error = await rejection(client.call("listProfiles", { pageNo }));
      assert.ok(error instanceof MoreLoginInputError, `pageNo ${String(pageNo)}`);
      assert.match(error.message, /pageNo must be a positive integer/);
    }
    assert.equal(requests(emulator(), "local POST /api/env/page"), 0);
  });

  it("sends a prepared body exactly as the same body given each time, and checks it once when prepared", async () => {
    // Checking the body walks its fields and serializing it reads them again: this getter counts both.
    let reads = 0;
    const watched = {
      get note(): string {
        reads++;
        return "x";
      },
    };
    const body = (): Record<string, unknown> => ({ pageNo: "2", pageSize: 5, groupId: 7, watched });
    const prepared = PreparedBody.for("listProfiles", body());
    const readsToPrepare = reads;
    assert.ok(readsToPrepare > 0, "preparing reads the body");
    const fromPrepared = await client.call("listProfiles", prepared);
    const bodyFromPrepared = emulator().requestLog.at(-1)?.body;
    await client.call("listProfiles", prepared);
    await client.call("listProfiles", prepared);
    assert.equal(reads, readsToPrepare, "calls with a prepared body neither check nor serialize it again");
    const fromPlain = await client.call("listProfiles", body());
    assert.equal(reads, 2 * readsToPrepare, "a plain body is checked and serialized on its call");
    assert.deepEqual(bodyFromPrepared, emulator().requestLog.at(-1)?.body);
    assert.deepEqual(bodyFromPrepared, { pageNo: 2, pageSize: 5, groupId: "7", watched: { note: "x" } });
    assert.deepEqual(fromPrepared.data, fromPlain.data);
    assert.throws(() => PreparedBody.for("listProfiles", { pageNo: 0 }), /pageNo must be a positive integer/);
    assert.throws(() => PreparedBody.for("listTags", {}), /listTags takes no body/);
  });

  it("refuses a body prepared for another endpoint, sending nothing", async () => {
    const error = await rejection(client.call("startProfile", PreparedBody.for("listProfiles", { pageNo: 1 })));
    assert.ok(error instanceof MoreLoginInputError);
    assert.equal(error.message, "the body was prepared for listProfiles, not for startProfile");
    assert.equal(requests(emulator(), "local POST /api/env/start"), 0);
  });

  it("refuses a timeout that is not a positive number of milliseconds, sending nothing", async () => {
    assert.throws(() => new MoreLoginClient({ timeouts: { request: 0 } }), /^MoreLoginInputError: timeouts\.request must be a positive number of milliseconds, got 0$/);
    for (const timeoutMs of [0, -5, Number.NaN, Number.POSITIVE_INFINITY]) {
      const error = await rejection(client.call("listProfiles", { pageNo: 1 }, { timeoutMs }));
      assert.ok(error instanceof MoreLoginInputError, String(timeoutMs));
      assert.match(error.message, /^timeoutMs must be a positive number of milliseconds/);
    }
    assert.equal(requests(emulator(), "local POST /api/env/page"), 0);
  });

  it("needs a profile for start and close", async () => {
    const error = await rejection(client.call("startProfile", {}));
    assert.ok(error instanceof MoreLoginInputError);
    assert.match(error.message, /envId or uniqueId is missing/);
  });
});

describe("client: Local API token", () => {
  const { emulator } = useEmulator({ localToken: "local-secret-token-123" });
  beforeEach(() => emulator().resetStats());

  it("sends the token as `Authorization: <token>` exactly, without Bearer", async () => {
    const client = clientFor(emulator());
    try {
      await client.call("listTags");
      assert.equal(emulator().requestLog.at(-1)?.headers.authorization, "local-secret-token-123");
    } finally {
      await client.close();
    }
  });

  it("explains a missing or wrong token without repeating it", async () => {
    const missing = clientFor(emulator(), { localToken: "" });
    const wrong = clientFor(emulator(), { localToken: "not-the-token" });
    try {
      const noToken = await rejection(missing.call("listTags"));
      assert.ok(noToken instanceof MoreLoginApiError);
      assert.equal(noToken.code, 35001);
      assert.match(noToken.message, /requires a Local API token/);
      const badToken = await rejection(wrong.call("listTags"));
      assert.ok(badToken instanceof MoreLoginApiError);
      assert.equal(badToken.code, 35002);
      assert.doesNotMatch(badToken.message, /not-the-token|local-secret-token-123/);
    } finally {
      await missing.close();
      await wrong.close();
    }
  });
});
