import assert from "node:assert/strict";
import type { NodeMessage } from "node-red";
import type { BatchProgress } from "../../src/batch";
import { useEmulator } from "../support/emulator";
import { CONFIG_ID, Collector, TAB, configNode, credentialsFor, helper, loadFlow, useNodeRed, type FlowNode } from "../support/node-red";
import { labelValues, parseScrape, sampleValue, type Sample } from "../support/metrics";
import { waitUntil } from "../support/wait-until";

const UNPACED = { localRpm: "0", openRpm: "0", concurrency: "0" };
/** The config node's label in the metrics: its name. */
const CONFIG = "metrics emulator";
const BATCH = "metrics batch";

/** A list node, a start node (with a lease), a close node, and a batch whose items go through a start and a close and back. */
function metricsFlow(emulator: ReturnType<ReturnType<typeof useEmulator>["emulator"]>): FlowNode[] {
  return [
    { id: TAB, type: "tab", label: "metrics" },
    configNode(emulator, { ...UNPACED, name: CONFIG }),
    { id: "list", type: "morelogin-list-profiles", z: TAB, server: CONFIG_ID, output: "array", wires: [["out"]] },
    { id: "start", type: "morelogin-start-profile", z: TAB, server: CONFIG_ID, lease: "600", wires: [["out"]] },
    { id: "close", type: "morelogin-close-profile", z: TAB, server: CONFIG_ID, wires: [["out"]] },
    { id: "b1", type: "morelogin-batch", z: TAB, name: BATCH, parallel: "3", wires: [["item-start"], ["progress"]] },
    { id: "item-start", type: "morelogin-start-profile", z: TAB, server: CONFIG_ID, wires: [["item-close"]] },
    { id: "item-close", type: "morelogin-close-profile", z: TAB, server: CONFIG_ID, wires: [["b1"]] },
    { id: "out", z: TAB, type: "helper" },
    { id: "progress", z: TAB, type: "helper" },
    { id: "catch1", z: TAB, type: "catch", scope: null, uncaught: false, wires: [["caught"]] },
    { id: "caught", z: TAB, type: "helper" },
  ];
}

async function scrape(): Promise<{ text: string; samples: Sample[] }> {
  const response = await helper.request().get("/morelogin/metrics");
  assert.equal(response.status, 200, `the scrape answers 200: ${response.text}`);
  assert.match(String(response.headers["content-type"]), /^text\/plain; version=0\.0\.4/);
  return { text: response.text, samples: parseScrape(response.text) };
}

describe("nodes: metrics in Prometheus's text format (GET /morelogin/metrics)", function () {
  this.timeout(60_000);
  const { emulator } = useEmulator({ profiles: 12 });
  useNodeRed(emulator);

  const requestsOf = (samples: Sample[], endpoint: string, outcome: string): number => sampleValue(samples, "morelogin_requests_total", { config: CONFIG, endpoint, outcome });

  it("counts a flow's requests by endpoint and outcome, and the 429s", async () => {
    await loadFlow(metricsFlow(emulator()), credentialsFor(emulator()));
    const before = (await scrape()).samples;
    const out = new Collector("out");
    const caught = new Collector("caught");
    helper.getNode("list").receive({} as NodeMessage);
    await out.next(1);
    // A profile MoreLogin does not have: the start fails with a business error (kind api).
    helper.getNode("close").receive({ payload: "1000000000000000001" } as NodeMessage);
    await caught.next(1);
    // Refused once as too frequent, then answered.
    emulator().script({ kind: "tooMany", path: "/api/env/page", retryAfterSeconds: 1 });
    helper.getNode("list").receive({} as NodeMessage);
    await out.next(2);
    const after = (await scrape()).samples;
    const delta = (endpoint: string, outcome: string): number => requestsOf(after, endpoint, outcome) - requestsOf(before, endpoint, outcome);
    assert.equal(delta("listProfiles", "ok"), 2, "two lists of profiles read");
    assert.equal(delta("listProfiles", "rate-limit"), 1, "one refused as too frequent");
    assert.equal(delta("closeProfile", "api"), 1, "the close of an unknown profile failed with kind api");
    const refused = (samples: Sample[]): number => sampleValue(samples, "morelogin_rate_limited_total", { config: CONFIG, api: "local" });
    assert.equal(refused(after) - refused(before), 1, "one 429");
    const waited = (samples: Sample[], what: string): number => sampleValue(samples, `morelogin_pace_wait_seconds_${what}`, { config: CONFIG, api: "local" });
    assert.ok(waited(after, "count") - waited(before, "count") >= 1, "the list sent again waited out the API's Retry-After");
    assert.ok(waited(after, "sum") - waited(before, "sum") >= 0.5, `it waited about a second (${waited(after, "sum") - waited(before, "sum")} s)`);
  });

  it("shows a running profile and its lease, and a batch's items by state as its done says", async () => {
    await loadFlow(metricsFlow(emulator()), credentialsFor(emulator()));
    const [first, ...rest] = emulator().data.profiles.map((profile) => profile.id);
    assert.ok(first);
    const out = new Collector("out");
    helper.getNode("start").receive({ payload: first } as NodeMessage);
    await out.next(1);
    const running = (await scrape()).samples;
    assert.equal(sampleValue(running, "morelogin_running", { config: CONFIG, kind: "profiles" }), 1, "one profile running");
    assert.equal(sampleValue(running, "morelogin_leases_open", { config: CONFIG, kind: "profiles" }), 1, "under a lease");

    const progress = new Collector("progress");
    helper.getNode("b1").receive({ payload: rest.slice(0, 10) } as NodeMessage);
    const done = await waitUntil(
      () => progress.messages.map((msg) => msg.payload as BatchProgress).find((payload) => payload.endedAt !== null && payload.endedAt !== undefined),
      (found) => found !== undefined,
      "the batch's done",
    );
    assert.ok(done);
    assert.equal(done.done, 10);
    const samples = (await scrape()).samples;
    for (const state of ["done", "failed", "timedOut", "interrupted", "cancelled", "running", "waiting"] as const) {
      assert.equal(sampleValue(samples, "morelogin_batch_items", { batch: BATCH, state }), done[state], `items ${state} as the done message says`);
    }
    assert.equal(sampleValue(samples, "morelogin_running", { config: CONFIG, kind: "profiles" }), 1, "the batch's profiles closed again: the first one still runs");
    assert.ok(sampleValue(samples, "morelogin_journal_fsync_seconds_count", { journal: "batch" }) > 0, "the batch's journal syncs are timed");

    // Closed as a flow would close it: the config node's lease book is this process's, and later files' tests share its ID.
    helper.getNode("close").receive({ payload: first } as NodeMessage);
    await out.next(2);
    const closed = (await scrape()).samples;
    assert.equal(sampleValue(closed, "morelogin_running", { config: CONFIG, kind: "profiles" }), 0, "closed: none running");
    assert.equal(sampleValue(closed, "morelogin_leases_open", { config: CONFIG, kind: "profiles" }), 0, "closed: its lease given back");
  });

  it("no label holds a profile ID, a credential or a path", async () => {
    await loadFlow(metricsFlow(emulator()), credentialsFor(emulator()));
    const out = new Collector("out");
    const [first] = emulator().data.profiles.map((profile) => profile.id);
    helper.getNode("start").receive({ payload: first } as NodeMessage);
    helper.getNode("list").receive({} as NodeMessage);
    await out.next(2);
    const { text, samples } = await scrape();
    const { apiId, apiKey, localToken } = emulator().credentials;
    const secrets = [apiId, apiKey, localToken].filter((value): value is string => typeof value === "string" && value !== "");
    const ids = [...emulator().data.profiles.map((profile) => profile.id), ...emulator().data.cloudPhones.map((phone) => phone.id)];
    for (const value of [...secrets, ...ids]) assert.ok(!text.includes(value), `the scrape does not hold ${value.slice(0, 4)}…`);
    for (const value of labelValues(samples)) assert.ok(!value.includes("/"), `a label value is not a path: ${value}`);
    assert.ok(sampleValue(samples, "morelogin_requests_total", { config: CONFIG }) > 0, "it did count the requests");
  });
});
