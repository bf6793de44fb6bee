import assert from "node:assert/strict";
import type { Node, NodeMessage } from "node-red";
import type { MoreLoginClient } from "../../src/client";
import type { Emulator } from "../../src/emulator";
import { useEmulator } from "../support/emulator";
import { call, dataOf } from "../support/http";
import {
  CONFIG_ID,
  Collector,
  NODE_MODULES,
  TAB,
  catchNode,
  completeNode,
  configNode,
  credentialsFor,
  functionNode,
  helper,
  statusCalls,
  useNodeRed,
  type FlowNode,
  type Msg,
} from "../support/node-red";
import { requestsAt } from "../support/outcome";
import { OUTCOME_MS, waitUntil } from "../support/wait-until";

const START = "/api/cloudbrowser/start";
const STOP = "/api/cloudbrowser/stop";
const PAGE = "/api/cloudbrowser/page";
/** No pacing and no start limit: only the lease or the cap under test holds anything back or stops anything. */
const UNPACED = { localRpm: "0", openRpm: "0", concurrency: "0" };
/** "Within a few seconds" of the lease's end, on a busy 2-core machine. */
const FEW_SECONDS_MS = 4_000;

interface Row {
  cloudBrowserStatus: string;
  cloudBrowserArchiveStatus: string | null;
}

/**
 * start (where cloud) → "work", a function node that throws (the flow fails mid-way: nothing closes the
 * cloud browser), its error to a Catch → "caught"; and a close node ("close", where cloud) → "closed".
 */
function cloudFlow(emulator: Emulator, start: Record<string, unknown>, config: Record<string, unknown> = {}): FlowNode[] {
  return [
    { id: TAB, type: "tab", label: "cloud leases" },
    configNode(emulator, { ...UNPACED, ...config }),
    { id: "start", type: "morelogin-start-profile", z: TAB, server: CONFIG_ID, where: "cloud", wires: [["started", "work"]], ...start },
    { id: "work", type: "function", z: TAB, func: 'throw new Error("the page had no table");', outputs: 1, wires: [[]] },
    { id: "close", type: "morelogin-close-profile", z: TAB, server: CONFIG_ID, wires: [["closed"]] },
    { id: "started", z: TAB, type: "helper" },
    { id: "closed", z: TAB, type: "helper" },
    { id: "catch1", z: TAB, type: "catch", scope: null, uncaught: false, wires: [["caught"]] },
    { id: "caught", z: TAB, type: "helper" },
  ];
}

function warnings(node: Node): string[] {
  const spy = node.warn as unknown as { args: unknown[][] };
  return spy.args.map((args) => String(args[0]));
}

function leaseUntilOf(msg: NodeMessage | undefined): number {
  const profile = ((msg as Msg | undefined)?.morelogin as { profile?: { leaseUntil?: string } } | undefined)?.profile;
  const until = Date.parse(profile?.leaseUntil ?? "");
  assert.ok(Number.isFinite(until), "msg.morelogin.profile.leaseUntil is an ISO time");
  return until;
}

function clientOf(): MoreLoginClient {
  const client = (helper.getNode(CONFIG_ID) as Node & { client?: MoreLoginClient }).client;
  assert.ok(client, "the config node has a client");
  return client;
}

describe("nodes: leases and maxCloudBrowsers cover cloud browsers", function () {
  this.timeout(90_000);
  const { emulator } = useEmulator({ profiles: 30, phoneBootMs: 400 });
  // Before useNodeRed's unload: a config node keeps its leases in this process, and none may reach the next test.
  afterEach(async () => {
    const config = helper.getNode(CONFIG_ID) as (Node & { client?: MoreLoginClient }) | null;
    await config?.client?.leases.clear();
    // A cloud browser a failed test left running would take a place under the next test's cap: each test stops its own.
    for (const envId of used) await call(emulator().localUrl, STOP, { body: { envId } });
  });
  useNodeRed(emulator);
  const used = new Set<string>();
  /** A profile with a proxy (a cloud browser needs one), each test its own. */
  const freshProfile = (): string => {
    const profile = emulator().data.profiles.find((item) => item.proxy !== null && !used.has(item.id));
    assert.ok(profile, "a free profile with a proxy");
    used.add(profile.id);
    return profile.id;
  };
  const rowOf = async (envId: string): Promise<Row> => {
    const page = dataOf<{ dataList: Array<Row & { id: string }> }>(await call(emulator().localUrl, PAGE, { body: { pageNo: 1, pageSize: 10, envId } }));
    const row = page.dataList.find((item) => item.id === envId);
    assert.ok(row, `a row for ${envId}`);
    return row;
  };
  const stopsOf = (envId: string): number => requestsAt(emulator(), STOP).filter((entry) => (entry.body as { envId?: string }).envId === envId).length;
  const load = (flow: FlowNode[]): Promise<void> => helper.load([...NODE_MODULES, catchNode, completeNode, functionNode] as never, flow as never, credentialsFor(emulator()) as never);

  it("a flow that fails mid-way, no close: the lease stops the cloud browser once, after the lease; it archives, then is CLOSED", async () => {
    const envId = freshProfile();
    await load(cloudFlow(emulator(), { lease: "1" }));
    const started = new Collector("started");
    const caught = new Collector("caught");
    const start = helper.getNode("start");
    start.receive({ payload: envId } as NodeMessage);
    const [msg] = await started.next(1, OUTCOME_MS);
    const until = leaseUntilOf(msg);
    await caught.next(1, OUTCOME_MS);
    assert.equal((await rowOf(envId)).cloudBrowserStatus, "RUNNING", "the failed flow left it running");
    assert.ok(
      statusCalls(start).some((status) => status.text === "running in the cloud · 1 lease"),
      "the start node's status counts the lease",
    );

    // The stop's answer comes back once the emulator's browser has ended: its row then shows the archive.
    const seen: string[] = [];
    await waitUntil(
      async () => {
        const row = await rowOf(envId);
        const state = `${row.cloudBrowserStatus}/${row.cloudBrowserArchiveStatus}`;
        if (seen.at(-1) !== state) seen.push(state);
        return row.cloudBrowserStatus === "CLOSED" && row.cloudBrowserArchiveStatus === "COMPLETED";
      },
      () => `the lease stopped the cloud browser and it archived (states seen: ${seen.join(", ")})`,
      OUTCOME_MS,
    );
    const stoppedAt = Date.now();
    assert.ok(
      seen.some((state) => state === "RUNNING/PENDING" || state === "RUNNING/ARCHIVING"),
      `it archived before it was CLOSED (states seen: ${seen.join(", ")})`,
    );
    assert.ok(stoppedAt >= until, "stopped after the lease, not before");
    assert.deepEqual(
      requestsAt(emulator(), STOP).map((entry) => entry.body),
      [{ envId }],
      "stopped once, by envId",
    );
    assert.ok(stoppedAt - until <= FEW_SECONDS_MS + 1_000, `stopped within a few seconds of the lease's end (${stoppedAt - until} ms)`);
    await waitUntil(() => warnings(start).length > 0, "the start node warned", OUTCOME_MS);
    assert.match(warnings(start)[0] ?? "", new RegExp(`lease of 1 s on the cloud browser of profile ${envId} ran out`));
    assert.ok(
      statusCalls(start).some((status) => status.text === `lease ran out: stopped ${envId} in the cloud · 0 leases`),
      "the status counts down",
    );
    // Other files' tests in this process share the config node's ID, and so its book, and the emulator's seeded
    // profile IDs: a local start of the same ID there is theirs. Only this profile's cloud browser counts here.
    assert.deepEqual(
      clientOf()
        .leases.entries()
        .filter((entry) => entry.id === envId && entry.kind === "cloudBrowsers"),
      [],
      "the book holds nothing more of this profile's cloud browser",
    );
  });

  it("a close in the cloud gives the lease back: nothing is stopped after the lease's deadline", async () => {
    const envId = freshProfile();
    const flow = cloudFlow(emulator(), { lease: "1" });
    // This flow does not fail: start → close (left on local: the carried cloud profile takes it to the cloud).
    const start = flow.find((node) => node.id === "start");
    assert.ok(start);
    start.wires = [["started", "close"]];
    await load(flow);
    const started = new Collector("started");
    const closed = new Collector("closed");
    const caught = new Collector("caught");
    helper.getNode("start").receive({ payload: envId } as NodeMessage);
    const [msg] = await started.next(1, OUTCOME_MS);
    const until = leaseUntilOf(msg);
    await closed.next(1, OUTCOME_MS);
    assert.deepEqual(caught.messages, []);
    assert.equal(stopsOf(envId), 1, "the close stopped it");
    assert.equal(clientOf().leases.heldBy("start"), 0, "the close ended the lease");
    // Past the lease's deadline and a lease sweep's few seconds: the lease sends nothing.
    await waitUntil(() => Date.now() > until + FEW_SECONDS_MS, "the lease's deadline and a few seconds have passed", OUTCOME_MS);
    await waitUntil(async () => (await rowOf(envId)).cloudBrowserStatus === "CLOSED", "the stopped cloud browser archived", OUTCOME_MS);
    assert.equal(stopsOf(envId), 1, "nothing stopped it again");
    assert.deepEqual(warnings(helper.getNode("start")), [], "no lease ran out");
  });

  it("maxCloudBrowsers 1: a second cloud start waits, the status says so, until the first is closed; then it starts", async () => {
    const [first, second] = [freshProfile(), freshProfile()];
    const flow = cloudFlow(emulator(), {}, { maxCloudBrowsers: "1" });
    const start = flow.find((node) => node.id === "start");
    assert.ok(start);
    start.wires = [["started"]];
    await load(flow);
    const started = new Collector("started");
    const closed = new Collector("closed");
    const caught = new Collector("caught");
    const startNode = helper.getNode("start");
    startNode.receive({ payload: first } as NodeMessage);
    await started.next(1, OUTCOME_MS);
    startNode.receive({ payload: second } as NodeMessage);
    await waitUntil(
      () => statusCalls(startNode).some((status) => status.text === "1 waiting for a free cloud browser, 1 of 1 running"),
      () => `the status says the second start waits (it showed ${JSON.stringify(statusCalls(startNode).slice(-3))})`,
      OUTCOME_MS,
    );
    const startsOf = (envId: string): number => requestsAt(emulator(), START).filter((entry) => (entry.body as { envId?: string }).envId === envId).length;
    assert.equal(startsOf(second), 0, "the second start was not sent");
    assert.equal(started.messages.length, 1);
    assert.equal(clientOf().capacityUsage("cloudBrowsers").running, 1);

    // The first is closed (the message names it and where): its place goes to the second.
    helper.getNode("close").receive({ payload: { envId: first, where: "cloud" } } as NodeMessage);
    await closed.next(1, OUTCOME_MS);
    const [, resumed] = await started.next(2, OUTCOME_MS);
    assert.equal((resumed as Msg).topic, second);
    assert.equal(startsOf(second), 1);
    const log = requestsAt(emulator(), START)
      .concat(requestsAt(emulator(), STOP))
      .map((entry) => entry.path);
    assert.ok(log.length === 3, "two starts and one stop");
    const order = emulator()
      .requestLog.filter((entry) => entry.path === START || entry.path === STOP)
      .map((entry) => `${entry.path === START ? "start" : "stop"} ${(entry.body as { envId: string }).envId}`);
    assert.deepEqual(order, [`start ${first}`, `stop ${first}`, `start ${second}`], "the second start went only after the first's stop");
    // The close freed the place at once: the second start did not wait for the cap to read the cloud browsers again.
    const log2 = emulator().requestLog;
    const stopAt = log2.findIndex((entry) => entry.path === STOP);
    const secondAt = log2.findIndex((entry) => entry.path === START && (entry.body as { envId: string }).envId === second);
    const readsBetween = log2.slice(stopAt, secondAt).filter((entry) => entry.path === PAGE && (entry.body as { envId?: string }).envId === undefined);
    assert.equal(readsBetween.length, 0, "no read of every cloud browser between the stop and the second start");
    assert.deepEqual(caught.messages, []);
  });
});
