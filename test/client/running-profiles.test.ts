import assert from "node:assert/strict";
import { MoreLoginClient, MoreLoginError } from "../../src/client";
import { startStubApi, type StubApi } from "../support/stub-api";

const DEBUG_INFO = "/api/env/getAllDebugInfo";

/** The client's one reader of the running profiles, against a stub that answers what the emulator never would. */
describe("client: one shared reader of the running profiles", () => {
  let stub: StubApi;
  let client: MoreLoginClient;

  before(async () => {
    stub = await startStubApi();
  });
  after(() => stub.close());
  beforeEach(() => {
    stub.reset();
    // One attempt per call: what is counted is reads, not retries of an unreadable reply.
    client = new MoreLoginClient({ localUrl: stub.url, pacing: { localRpm: 0 }, retry: { attempts: 1 } });
  });
  afterEach(() => client.close());

  const reads = (): number => stub.requests.filter((request) => request.path === DEBUG_INFO).length;

  it("three callers at once share one read and its answer", async () => {
    stub.otherwise = {
      body: {
        code: 0,
        msg: "success",
        data: [
          { envId: "1", debugPort: "9001" },
          { envId: "2", debugPort: "9002" },
        ],
        requestId: "r1",
      },
    };
    const answers = await Promise.all([client.runningProfiles.read(), client.runningProfiles.read(), client.runningProfiles.read()]);
    assert.equal(reads(), 1);
    for (const answer of answers) assert.deepEqual([...answer.ids], ["1", "2"]);
    // A caller that wants news from after now gets a read of its own.
    await client.runningProfiles.read({ notBefore: Date.now() + 1 });
    assert.equal(reads(), 2);
  });

  it("a reply that is not an array is an error of kind response for every caller", async () => {
    stub.otherwise = { body: { code: 0, msg: "success", data: { envId: "1" }, requestId: "r2" } };
    const outcomes = await Promise.allSettled([client.runningProfiles.read(), client.runningProfiles.read()]);
    assert.equal(reads(), 1);
    for (const outcome of outcomes) {
      assert.equal(outcome.status, "rejected");
      const error = (outcome as PromiseRejectedResult).reason as unknown;
      assert.ok(error instanceof MoreLoginError);
      assert.equal(error.kind, "response");
      assert.match(error.message, /not an array/);
    }
  });
});
