import assert from "node:assert/strict";
import type { NodeMessage } from "node-red";
import { Collector, TAB, helper, loadFlow, useNodeRed, type FlowNode } from "../support/node-red";
import { parseScrape, sampleValue, type Sample } from "../support/metrics";
import { startRedis, type RunningRedis } from "../support/redis";
import { waitUntil } from "../support/wait-until";

const BATCH = "metrics queued batch";
const WAIT_MS = 20_000;

async function scrape(): Promise<Sample[]> {
  const response = await helper.request().get("/morelogin/metrics");
  assert.equal(response.status, 200);
  return parseScrape(response.text);
}

/** A batch node on a queue in a real redis-server: its workers and whether Redis answers, as the scrape says them. */
describe("nodes: metrics of a batch node on a queue (workers, Redis reachability)", function () {
  this.timeout(60_000);
  useNodeRed();
  let redis: RunningRedis;

  before(async () => {
    redis = await startRedis();
  });
  after(() => redis?.stop());

  it("one worker on the running batch while Redis answers; redis_up 0 once it is gone", async () => {
    const flow: FlowNode[] = [
      { id: TAB, type: "tab", label: "queue metrics" },
      { id: "q1", type: "morelogin-queue", name: BATCH, url: redis.url, worker: "metrics-worker", workerTimeout: "30" },
      // The items stay out: the batch runs while the scrape looks.
      { id: "b2", type: "morelogin-batch", z: TAB, name: BATCH, queue: "q1", parallel: "2", wires: [["items"], []] },
      { id: "items", z: TAB, type: "helper" },
    ];
    await loadFlow(flow);
    const items = new Collector("items");
    helper.getNode("b2").receive({ payload: ["a", "b", "c"] } as NodeMessage);
    await items.next(2);
    // The batch node's mirror of the queue follows Redis a moment later.
    const open = (samples: Sample[]): number =>
      sampleValue(samples, "morelogin_batch_items", { batch: BATCH, state: "running" }) + sampleValue(samples, "morelogin_batch_items", { batch: BATCH, state: "waiting" });
    const up = await waitUntil(scrape, (samples) => open(samples) === 3, "the scrape says the batch's three items are out or waiting", WAIT_MS);
    assert.equal(sampleValue(up, "morelogin_queue_workers", { batch: BATCH }), 1, "this Node-RED is the one worker");
    assert.equal(sampleValue(up, "morelogin_redis_up", { batch: BATCH }), 1, "Redis answers");
    await redis.kill();
    await waitUntil(scrape, (samples) => sampleValue(samples, "morelogin_redis_up", { batch: BATCH }) === 0, "the scrape says Redis is down", WAIT_MS);
  });
});
