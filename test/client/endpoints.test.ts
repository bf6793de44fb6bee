import assert from "node:assert/strict";
import { ENDPOINTS, MoreLoginAbortError, MoreLoginApiError, MoreLoginClient, MoreLoginInputError, MoreLoginRateLimitError, MoreLoginTimeoutError, PreparedBody, endpointAt } from "../../src/client";
import type { Emulator } from "../../src/emulator";
import { clearFaults, marker, resetBeforeEach, useClients, rejection, requests, useEmulator } from "../support/emulator";
import { errorOf, track } from "../support/tracked-calls";
import { waitUntil } from "../support/wait-until";
import { refusal, startStubApi, type StubApi } from "../support/stub-api";

const GROUPS = "local POST /api/envgroup/page";
const STATUS = "local POST /api/env/status";
const START = "local POST /api/env/start";

/** The bodies of the requests the emulator got for one path. */
function bodiesFor(emulator: Emulator, path: string): unknown[] {
  return emulator.requestLog.filter((request) => request.path === path).map((request) => request.body);
}

describe("client: the endpoint table", () => {
  const { emulator } = useEmulator();
  const clientWith = useClients(emulator);
  resetBeforeEach(emulator, clearFaults);

  describe("list groups", () => {
    it("always sends groupName, pageNo and pageSize, with '', 1 and 10 when left out", async () => {
      const groups = clientWith();
      await groups.call("listGroups", {});
      await groups.call("listGroups");
      await groups.call("listGroups", { groupName: null, pageNo: "", pageSize: undefined });
      await groups.call("listGroups", { pageNo: 2 });
      await groups.call("listGroups", { groupName: "Team", pageNo: "3", pageSize: 50 });
      await groups.call("listGroups", PreparedBody.for("listGroups", {}));
      const defaults = { groupName: "", pageNo: 1, pageSize: 10 };
      assert.deepEqual(bodiesFor(emulator(), "/api/envgroup/page"), [defaults, defaults, defaults, { ...defaults, pageNo: 2 }, { groupName: "Team", pageNo: 3, pageSize: 50 }, defaults]);
      assert.equal(requests(emulator(), GROUPS), 6);
    });

    it("fills in no defaults for the other lists", async () => {
      const lists = clientWith();
      await lists.call("listProfiles", {});
      await lists.call("listProxies", {});
      assert.deepEqual(bodiesFor(emulator(), "/api/env/page"), [{}]);
      assert.deepEqual(bodiesFor(emulator(), "/api/proxyInfo/page"), [{}]);
    });
  });

  describe("profile status", () => {
    it("needs envId: uniqueId alone is refused before anything is sent", async () => {
      const status = clientWith();
      for (const body of [{ uniqueId: 3 }, {}, { envId: "" }]) {
        const error = await rejection(status.call("profileStatus", body));
        assert.ok(error instanceof MoreLoginInputError, String(error));
        assert.equal(error.kind, "input");
        assert.equal(error.message, "envId is missing");
      }
      assert.throws(() => PreparedBody.for("profileStatus", { uniqueId: 3 }), MoreLoginInputError);
      assert.equal(requests(emulator(), STATUS), 0);
      const envId = emulator().data.profiles[0]?.id;
      assert.equal((await status.call("profileStatus", { envId })).data.status, "stopped");
    });

    it("while start still takes uniqueId alone", async () => {
      const start = clientWith();
      const started = await start.call("startProfile", { uniqueId: 1 });
      assert.equal(typeof started.data.envId, "string");
      assert.deepEqual(bodiesFor(emulator(), "/api/env/start"), [{ uniqueId: 1 }]);
    });
  });

  describe("list apps", () => {
    it('goes to the Local API\'s /api/cloudphone/app/page with { api: "local" }, asking for no token', async () => {
      const apps = clientWith();
      const result = await apps.call("listApps", { pageNum: 2, pageSize: 5 }, { api: "local" });
      assert.equal(result.api, "local");
      assert.equal(result.path, "/api/cloudphone/app/page");
      assert.deepEqual(result.data.dataList, emulator().data.apps.slice(5, 10));
      assert.deepEqual(
        emulator().requestLog.map((request) => `${request.api} ${request.method} ${request.path}`),
        ["local POST /api/cloudphone/app/page"],
      );
      assert.deepEqual(bodiesFor(emulator(), "/api/cloudphone/app/page"), [{ pageNum: 2, pageSize: 5 }]);
      assert.equal(emulator().stats.tokenRequests, 0);
    });

    it("goes to the Open API by default, with its token", async () => {
      const apps = clientWith();
      const result = await apps.call("listApps", { pageNum: 1 });
      assert.equal(result.api, "open");
      assert.equal(result.path, "/cloudphone/app/page");
      assert.deepEqual(
        emulator().requestLog.map((request) => `${request.api} ${request.method} ${request.path}`),
        ["open POST /oauth2/token", "open POST /cloudphone/app/page"],
      );
    });

    it("an endpoint the other API does not have is refused before sending", async () => {
      const error = await rejection(clientWith().call("listProfiles", {}, { api: "open" }));
      assert.ok(error instanceof MoreLoginInputError, String(error));
      assert.equal(error.message, "the Open API has no /api/env/page");
      assert.equal(emulator().requestLog.length, 0);
    });
  });

  describe("timeouts", () => {
    it("knows each endpoint's own timeout, for the generic request by its path too", () => {
      const timeouts = clientWith({ timeouts: { request: 15_000 } });
      const forPath = (api: "local" | "open", method: "GET" | "POST", path: string): number => timeouts.timeoutFor({}, endpointAt(api, method, path));
      assert.equal(forPath("local", "POST", "/api/env/start"), 60_000);
      assert.equal(forPath("local", "POST", "/api/env/start?source=flow"), 60_000, "the query string aside");
      assert.equal(forPath("local", "POST", "/api/env/close"), 60_000);
      assert.equal(forPath("local", "POST", "/api/cloudphone/powerOn"), 120_000);
      assert.equal(forPath("open", "POST", "/cloudphone/powerOn"), 120_000, "the Open API twin");
      assert.equal(forPath("local", "POST", "/api/env/core/download"), 1_810_000);
      assert.equal(forPath("local", "POST", "/api/env/page"), 15_000);
      assert.equal(forPath("local", "POST", "/api/env/unknown"), 15_000);
      assert.equal(forPath("local", "GET", "/api/env/start"), 15_000, "another method is another endpoint");
      assert.equal(forPath("open", "POST", "/api/env/start"), 15_000, "another API is another endpoint");
      assert.equal(timeouts.timeoutFor({ timeoutMs: 2_000 }, ENDPOINTS.startProfile), 2_000, "the caller's own wins");
    });

    it("a start through the generic request waits the start's 60 s, not the ordinary timeout", async () => {
      const quick = clientWith({ timeouts: { request: 300 } });
      emulator().script({ kind: "hang", path: "/api/env/start", times: 2 });
      const envId = emulator().data.profiles[0]?.id;
      const generic = track(quick.request({ api: "local", method: "POST", path: "/api/env/start", body: { envId } }));
      const known = track(quick.call("startProfile", { envId }));
      await waitUntil(() => requests(emulator(), START) === 2, "both starts are sent", 5_000);
      // A call sent after them with the ordinary timeout, hanging too: once it has timed out, so would they have.
      emulator().script({ kind: "hang", path: "/api/env/unknown" });
      const control = await rejection(quick.request({ api: "local", method: "POST", path: "/api/env/unknown", body: {} }));
      assert.ok(control instanceof MoreLoginTimeoutError, String(control));
      await marker(emulator(), "marker");
      assert.equal(generic.ended, false, "still waiting, past the ordinary timeout");
      assert.equal(known.ended, false);
      await quick.close();
      assert.ok((await errorOf(generic)) instanceof MoreLoginAbortError);
      assert.ok((await errorOf(known)) instanceof MoreLoginAbortError);
      assert.equal(requests(emulator(), START), 2);
    });

    it("a path the client does not know gets the ordinary timeout, and the caller's timeoutMs wins over the endpoint's", async () => {
      const quick = clientWith({ timeouts: { request: 300 } });
      emulator().script({ kind: "hang", path: "/api/env/unknown" });
      const unknown = await rejection(quick.request({ api: "local", method: "POST", path: "/api/env/unknown", body: {} }));
      assert.ok(unknown instanceof MoreLoginTimeoutError, String(unknown));
      assert.equal(unknown.message, "no answer from the Local API within 0.3 s (POST /api/env/unknown)");

      emulator().script({ kind: "hang", path: "/api/env/start" });
      const own = await rejection(quick.request({ api: "local", method: "POST", path: "/api/env/start", body: { envId: "1" } }, { timeoutMs: 200 }));
      assert.ok(own instanceof MoreLoginTimeoutError, String(own));
      assert.equal(own.message, "no answer from the Local API within 0.2 s (POST /api/env/start)");
    });
  });

  describe("retries of the generic request", () => {
    it("retries a known read, but not an unknown POST, after a 503", async () => {
      const generic = clientWith();
      emulator().script({ kind: "http503", path: "/api/env/detail" });
      const detail = await generic.request({ api: "local", method: "POST", path: "/api/env/detail", body: { envId: emulator().data.profiles[0]?.id } });
      assert.equal((detail.data as { id?: unknown }).id, emulator().data.profiles[0]?.id);
      assert.equal(requests(emulator(), "local POST /api/env/detail"), 2);

      emulator().script({ kind: "http503", path: "/api/env/closeAll" });
      const error = await rejection(generic.request({ api: "local", method: "POST", path: "/api/env/closeAll" }));
      assert.equal((error as MoreLoginApiError).status, 503);
      assert.equal(requests(emulator(), "local POST /api/env/closeAll"), 1);
    });
  });

  describe("the whole reply", () => {
    it("comes back as data with wholeReply, a non-zero code included", async () => {
      const generic = clientWith();
      // A profile that does not exist: the emulator answers HTTP 200 with its "not found" code.
      const error = await rejection(generic.request({ api: "local", method: "POST", path: "/api/env/status", body: { envId: "1" } }));
      assert.ok(error instanceof MoreLoginApiError, "without wholeReply the code is an error");
      assert.notEqual(error.code, 0);

      const result = await generic.request({ api: "local", method: "POST", path: "/api/env/status", body: { envId: "1" }, wholeReply: true });
      const reply = result.data as { code: unknown; msg: unknown; data: unknown; requestId: unknown };
      assert.equal(reply.code, error.code);
      assert.equal(reply.msg, error.apiMsg);
      assert.equal(reply.data, null);
      assert.equal(typeof reply.requestId, "string");
      assert.equal(result.requestId, reply.requestId);
    });
  });
});

describe("client: the whole reply from a stand-in server", () => {
  let stub: StubApi;
  let client: MoreLoginClient;
  before(async () => {
    stub = await startStubApi();
    client = new MoreLoginClient({ localUrl: stub.url, retry: { attempts: 2, baseDelayMs: 1, maxDelayMs: 1, maxRateLimitWaitMs: 50 } });
  });
  after(async () => {
    await client.close();
    await stub.close();
  });
  beforeEach(() => stub.reset());

  const whole = (): Promise<{ data: unknown }> => client.request({ api: "local", method: "POST", path: "/api/env/page", body: {}, wholeReply: true });

  it("keeps top-level extras such as ua", async () => {
    stub.otherwise = { body: { code: 0, msg: "success", data: { current: "1" }, requestId: "r1", ua: "Mozilla/5.0", extra: { nested: true } } };
    assert.deepEqual((await whole()).data, { code: 0, msg: "success", data: { current: "1" }, requestId: "r1", ua: "Mozilla/5.0", extra: { nested: true } });
  });

  it("keeps extras with a non-zero code, as data", async () => {
    stub.otherwise = { body: { code: 10001, msg: "quota", data: null, requestId: "r2", ua: "x" } };
    assert.deepEqual((await whole()).data, { code: 10001, msg: "quota", data: null, requestId: "r2", ua: "x" });
    assert.equal(stub.requests.length, 1);
  });

  it("still sends a rate-limited request again and answers with the reply that got through", async () => {
    stub.script(refusal(35000, "API requests too frequent"));
    stub.otherwise = { body: { code: 0, msg: "success", data: null, requestId: "after" } };
    assert.deepEqual((await whole()).data, { code: 0, msg: "success", data: null, requestId: "after" });
    assert.equal(stub.requests.length, 2);
  });

  it("still gives up on five refusals in a row with kind rate-limit", async () => {
    stub.script(...Array.from({ length: 5 }, () => refusal(99008, "per-device request count limit")));
    const error = await rejection(whole());
    assert.ok(error instanceof MoreLoginRateLimitError, String(error));
    assert.equal(error.code, 99008);
    assert.equal(stub.requests.length, 5);
  });

  it("still treats an HTTP error as an error, envelope or not", async () => {
    stub.otherwise = refusal(500, "Internal error", 500);
    const error = await rejection(whole());
    assert.ok(error instanceof MoreLoginApiError, String(error));
    assert.equal(error.status, 500);
  });
});
