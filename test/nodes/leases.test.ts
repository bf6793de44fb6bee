import assert from "node:assert/strict";
import type { Node, NodeMessage } from "node-red";
import type { MoreLoginClient } from "../../src/client";
import type { Emulator } from "../../src/emulator";
import { requests, useEmulator } from "../support/emulator";
import { call } from "../support/http";
import { CONFIG_ID, Collector, TAB, configNode, credentialsFor, helper, loadFlow, statusCalls, type FlowNode, type Msg } from "../support/node-red";
import { phonesOf } from "../support/phones";
import { redeploy, whileStopped } from "../support/redeploy";
import { useProfileRuntime } from "../support/profile-runtime";
import { waitUntil } from "../support/wait-until";

const START = "local POST /api/env/start";
const CLOSE = "local POST /api/env/close";
const DEBUG_INFO = "local POST /api/env/getAllDebugInfo";
const POWER_OFF = "local POST /api/cloudphone/powerOff";
/** No pacing and no start limit: only the leases under test close anything. */
const UNPACED = { localRpm: "0", openRpm: "0", concurrency: "0" };
/** "Within a few seconds" of the lease's end, on a busy 2-core machine. */
const FEW_SECONDS_MS = 4_000;
const WAIT_MS = 20_000;

interface Profile {
  envId: string;
  leaseUntil?: string;
}

/** A start node ("start") wired to "out", a close node ("close") wired to "closed", a Catch to "caught". */
function leaseFlow(emulator: Emulator, start: Record<string, unknown> = {}, config: Record<string, unknown> = {}): FlowNode[] {
  return [
    { id: TAB, type: "tab", label: "leases" },
    configNode(emulator, { ...UNPACED, ...config }),
    { id: "start", type: "morelogin-start-profile", z: TAB, server: CONFIG_ID, wires: [["out"]], ...start },
    { id: "close", type: "morelogin-close-profile", z: TAB, server: CONFIG_ID, wires: [["closed"]] },
    { id: "out", z: TAB, type: "helper" },
    { id: "closed", z: TAB, type: "helper" },
    { id: "catch1", z: TAB, type: "catch", scope: null, uncaught: false, wires: [["caught"]] },
    { id: "caught", z: TAB, type: "helper" },
  ];
}

function profileOf(msg: NodeMessage | undefined): Profile {
  const profile = (msg as Msg | undefined)?.morelogin as { profile?: Profile } | undefined;
  assert.ok(profile?.profile, "msg.morelogin.profile is set");
  return profile.profile;
}

/** The config node's client, as its nodes reach it. */
function clientOf(): MoreLoginClient {
  const client = (helper.getNode(CONFIG_ID) as Node & { client?: MoreLoginClient }).client;
  assert.ok(client, "the config node has a client");
  return client;
}

/** The warnings a node gave (the helper spies on warn). */
function warnings(node: Node): string[] {
  const spy = node.warn as unknown as { args: unknown[][] };
  return spy.args.map((args) => String(args[0]));
}

describe("nodes: leases close what a flow started and never closed", function () {
  this.timeout(60_000);
  const { emulator } = useEmulator({ profiles: 21, cloudPhones: 4, phoneBootMs: 50 });
  const ids = useProfileRuntime(emulator);
  const closes = (): number => requests(emulator(), CLOSE);
  /** When the close count reached `count`: the moment the emulator had answered it (Date.now()). */
  const closedAt = async (count: number): Promise<number> => {
    await waitUntil(() => closes() >= count, `${count} close(s) reached the emulator`, WAIT_MS);
    return Date.now();
  };
  const isRunning = (envId: string): boolean =>
    emulator()
      .running()
      .some((row) => row.envId === envId);

  /** The profile at `index` sent once to the start node of a flow with a 1 s lease: its ID, the start node, what the node sent on. */
  const startedUnderLease = async (index: number): Promise<{ envId: string; start: Node; started: NodeMessage | undefined }> => {
    const [envId] = ids(index, 1);
    assert.ok(envId);
    await loadFlow(leaseFlow(emulator(), { lease: "1" }), credentialsFor(emulator()));
    const out = new Collector("out");
    const start = helper.getNode("start");
    start.receive({ payload: envId } as NodeMessage);
    const [started] = await out.next(1, WAIT_MS);
    return { envId, start, started };
  };

  afterEach(async () => {
    // A config node keeps its leases in this process across a redeploy: none may reach the next test (or suite).
    const config = helper.getNode(CONFIG_ID) as (Node & { client?: MoreLoginClient }) | null;
    await config?.client?.leases.clear();
    await helper.unload();
  });

  it("closes a profile started with a lease and never closed: once, after the lease and within a few seconds; warns and counts", async () => {
    const { envId, start, started } = await startedUnderLease(0);
    const until = Date.parse(profileOf(started).leaseUntil ?? "");
    assert.ok(Number.isFinite(until), "leaseUntil is an ISO time");
    assert.ok(
      statusCalls(start).some((status) => status.text === `started, port ${(started as Msg & { payload: { debugPort: string } }).payload.debugPort} · 1 lease`),
      "the status shows the lease it holds",
    );
    const at = await closedAt(1);
    assert.ok(at >= until, "closed after the lease, not before");
    assert.ok(at - until <= FEW_SECONDS_MS, `closed within a few seconds of the lease's end (took ${at - until} ms)`);
    assert.equal(isRunning(envId), false);
    await waitUntil(() => warnings(start).length > 0, "the start node warned", WAIT_MS);
    assert.match(warnings(start)[0] ?? "", new RegExp(`lease of 1 s on profile ${envId} ran out`));
    assert.ok(
      statusCalls(start).some((status) => status.text === `lease ran out: closed ${envId} · 0 leases`),
      "the status counts down",
    );
    // Once: a further read of the running set sends nothing more.
    const reads = requests(emulator(), DEBUG_INFO);
    await call(emulator().localUrl, "/api/env/start", { body: { envId } }); // started by hand: not ours to close
    await clientOf().runningProfiles.read();
    assert.ok(requests(emulator(), DEBUG_INFO) > reads);
    assert.equal(closes(), 1, "closed once");
  });

  it("a profile closed by the flow is not closed twice; one closed elsewhere sends nothing; msg.lease, the config default and a renewal apply", async () => {
    const [closedByFlow, closedElsewhere, fromConfig, fromMessage] = ids(1, 4);
    assert.ok(closedByFlow && closedElsewhere && fromConfig && fromMessage);
    await loadFlow(leaseFlow(emulator(), {}, { lease: "1" }), credentialsFor(emulator()));
    const out = new Collector("out");
    const closed = new Collector("closed");
    const start = helper.getNode("start");
    const book = clientOf().leases;

    // The config default applies to a node without its own lease; msg.lease overrides it.
    start.receive({ payload: fromConfig } as NodeMessage);
    start.receive({ payload: fromMessage, lease: "3" } as NodeMessage);
    const [a, b] = await out.next(2, WAIT_MS);
    const leases = new Map([a, b].map((msg) => [profileOf(msg).envId, Date.parse(profileOf(msg).leaseUntil ?? "")]));
    const spread = (leases.get(fromMessage) ?? 0) - (leases.get(fromConfig) ?? 0);
    assert.ok(spread > 1_500 && spread < 2_500, `msg.lease 3 s ends about 2 s after the config's 1 s (${spread} ms)`);

    // A renewal moves the deadline: started again with a 60 s lease, the 1 s one no longer closes it.
    start.receive({ payload: fromConfig, lease: 60 } as NodeMessage);
    const renewed = Date.parse(profileOf((await out.next(3, WAIT_MS))[2]).leaseUntil ?? "");
    assert.ok(renewed > (leases.get(fromConfig) ?? 0) + 50_000, "the renewal moved the deadline");

    // Closed by the flow first: the lease ends with the close.
    start.receive({ payload: closedByFlow, lease: 1 } as NodeMessage);
    await out.next(4, WAIT_MS);
    helper.getNode("close").receive({ payload: closedByFlow } as NodeMessage);
    await closed.next(1, WAIT_MS);
    assert.ok(!book.entries().some((entry) => entry.id === closedByFlow), "the flow's close ended the lease at once");
    // Closed elsewhere (by hand in the desktop client): the lease runs out and nothing is sent.
    start.receive({ payload: closedElsewhere, lease: 1 } as NodeMessage);
    await out.next(5, WAIT_MS);
    await call(emulator().localUrl, "/api/env/close", { body: { envId: closedElsewhere } });

    // fromMessage's 3 s lease runs out last: by its close every 1 s lease has been dealt with.
    // The warning comes once the close is answered (the emulator shows the profile stopped a moment before).
    await waitUntil(() => warnings(start).length === 1, "the 3 s lease closed its profile and the start node warned", WAIT_MS);
    assert.equal(isRunning(fromMessage), false);
    await waitUntil(() => book.entries().every((entry) => entry.id !== closedElsewhere), "the lease on the profile closed elsewhere is forgotten", WAIT_MS);
    // Closes: the flow's, the hand-made one and the 3 s lease's; none for the renewed or the closed ones.
    assert.equal(closes(), 3);
    assert.equal(isRunning(fromConfig), true, "the renewed profile still runs");
    assert.deepEqual(
      book.entries().map((entry) => entry.id),
      [fromConfig],
    );
    assert.equal(warnings(start).length, 1, "one warning: the 3 s lease's");
    assert.match(warnings(start)[0] ?? "", new RegExp(`lease of 3 s on profile ${fromMessage}`));
  });

  it("a profile closed and started again outside Node-RED during its lease runs on past the old deadline", async () => {
    const { envId, start, started } = await startedUnderLease(18);
    const ourPort = (started as Msg & { payload: { debugPort: string } }).payload.debugPort;
    // By hand in the desktop client, within the lease: closed, then started again (another session, another port).
    await call(emulator().localUrl, "/api/env/close", { body: { envId } });
    const again = (await call(emulator().localUrl, "/api/env/start", { body: { envId } })).json as { data: { debugPort: string } };
    assert.notEqual(again.data.debugPort, ourPort, "the hand-made start runs on another port");
    // The lease runs out: the config node reads the running set, sees another session and forgets its entry.
    await waitUntil(() => clientOf().leases.entries().length === 0, "the lease's end was dealt with", WAIT_MS);
    assert.equal(isRunning(envId), true, "the session started by hand runs on");
    assert.equal(closes(), 1, "the only close is the hand-made one");
    assert.deepEqual(warnings(start), []);
  });

  it("a start with lease 0 of a profile under a lease ends that lease", async () => {
    const [restarted, witness] = ids(19, 2);
    assert.ok(restarted && witness);
    await loadFlow(leaseFlow(emulator()), credentialsFor(emulator()));
    const out = new Collector("out");
    const start = helper.getNode("start");
    start.receive({ payload: restarted, lease: 1 } as NodeMessage);
    await out.next(1, WAIT_MS);
    start.receive({ payload: restarted, lease: 0 } as NodeMessage);
    const second = (await out.next(2, WAIT_MS))[1];
    assert.equal(profileOf(second).leaseUntil, undefined, "the new start has no lease");
    // A witness whose 2 s lease runs out after the old 1 s one would have: by its close, the old one would have acted.
    start.receive({ payload: witness, lease: 2 } as NodeMessage);
    await out.next(3, WAIT_MS);
    await waitUntil(() => warnings(start).length === 1, "the witness's lease closed it and the start node warned", WAIT_MS);
    assert.match(warnings(start)[0] ?? "", new RegExp(`profile ${witness}`));
    assert.equal(isRunning(restarted), true, "the profile started again with lease 0 runs on");
    assert.equal(closes(), 1, "only the witness was closed");
  });

  it("bad msg.lease fails the message before anything starts", async () => {
    const [envId] = ids(5, 1);
    await loadFlow(leaseFlow(emulator()), credentialsFor(emulator()));
    const caught = new Collector("caught");
    helper.getNode("start").receive({ payload: envId, lease: "soon" } as NodeMessage);
    const [failed] = await caught.next(1, WAIT_MS);
    assert.match(String((failed as Msg & { error: { message: string } }).error.message), /msg\.lease must be a number of seconds/);
    assert.equal(requests(emulator(), START), 0);
  });

  it("powers off a cloud phone whose lease ran out", async () => {
    const phones = phonesOf(emulator);
    const id = phones.phoneIn(2);
    const flow: FlowNode[] = [
      { id: TAB, type: "tab", label: "phone lease" },
      configNode(emulator(), UNPACED),
      { id: "phone", type: "morelogin-cloud-phone", z: TAB, server: CONFIG_ID, action: "powerOn", phoneId: id, lease: "1", wires: [["out"]] },
      { id: "out", z: TAB, type: "helper" },
    ];
    await loadFlow(flow, credentialsFor(emulator()));
    const out = new Collector("out");
    const phone = helper.getNode("phone");
    phone.receive({ payload: "" } as NodeMessage);
    await out.next(1, WAIT_MS);
    await waitUntil(() => requests(emulator(), POWER_OFF) === 1, "the lease powered the phone off", WAIT_MS);
    await phones.reaches(id, 2);
    await waitUntil(() => warnings(phone).length === 1, "the phone node warned", WAIT_MS);
    assert.match(warnings(phone)[0] ?? "", new RegExp(`lease of 1 s on cloud phone ${id}`));
    const texts = statusCalls(phone).map((status) => status.text);
    // (The test runtime has the shared catalog only: the node's own "power-on accepted" shows as its key.)
    assert.ok(
      texts.some((text) => /^power-on accepted · 1 lease$/.test(text ?? "")),
      `the status counted the lease: ${texts.join(" | ")}`,
    );
    await waitUntil(() => statusCalls(phone).some((status) => status.text === `lease ran out: powered off ${id} · 0 leases`), "the status counts down", WAIT_MS);
  });

  it("six starts under maxProfiles 2 that are never closed all go through: the leases free the places", async () => {
    const profiles = ids(6, 6);
    await loadFlow(leaseFlow(emulator(), { lease: "1" }, { maxProfiles: "2" }), credentialsFor(emulator()));
    const out = new Collector("out");
    const caught = new Collector("caught");
    const start = helper.getNode("start");
    for (const envId of profiles) start.receive({ payload: envId } as NodeMessage);
    await out.next(6, 45_000);
    assert.equal(caught.messages.length, 0);
    assert.ok((emulator().stats.peakRunningProfiles ?? 0) <= 2, "never more than 2 running");
    await waitUntil(() => closes() === 6, "every lease closed its profile", WAIT_MS);
  });

  it("closeOnStop closes what the config node started when it is redeployed; without it a redeploy keeps the profile and its lease", async () => {
    const [kept, closedOnStop] = ids(12, 2);
    assert.ok(kept && closedOnStop);
    const credentials = credentialsFor(emulator());
    const flow = leaseFlow(emulator(), { lease: "600" });
    await loadFlow(flow, credentials);
    const out = new Collector("out");
    helper.getNode("start").receive({ payload: kept } as NodeMessage);
    await out.next(1, WAIT_MS);
    // Changed config, closeOnStop off: the profile keeps running, its lease is carried over.
    const withPacing = flow.map((node) => (node.id === CONFIG_ID ? { ...node, localRpm: "600" } : node));
    await redeploy(withPacing, credentials);
    assert.equal(isRunning(kept), true);
    // The new config node reads its leases back from disk.
    await clientOf().leases.flushed();
    assert.deepEqual(
      clientOf()
        .leases.entries()
        .map((entry) => entry.id),
      [kept],
    );

    const closing = withPacing.map((node) => (node.id === CONFIG_ID ? { ...node, closeOnStop: true } : node));
    await redeploy(closing, credentials);
    const again = new Collector("out");
    helper.getNode("start").receive({ payload: closedOnStop } as NodeMessage);
    await again.next(1, WAIT_MS);
    await redeploy(
      closing.map((node) => (node.id === CONFIG_ID ? { ...node, localRpm: "0" } : node)),
      credentials,
    );
    assert.equal(isRunning(kept), false, "closed on stop");
    assert.equal(isRunning(closedOnStop), false, "closed on stop");
    assert.equal(closes(), 2);
  });

  it("a delete through the config node ends the lease at once: a profile closed by hand, then deleted, is not looked for again", async () => {
    const [envId] = ids(16, 1);
    assert.ok(envId);
    const flow: FlowNode[] = [
      ...leaseFlow(emulator(), { lease: "600" }),
      { id: "remove", type: "morelogin-profile", z: TAB, server: CONFIG_ID, action: "delete", envId: "", envIdType: "str", wires: [["removed"]] },
      { id: "removed", z: TAB, type: "helper" },
    ];
    await loadFlow(flow, credentialsFor(emulator()));
    helper.getNode("start").receive({ payload: envId } as NodeMessage);
    await new Collector("out").next(1, WAIT_MS);
    // Closed in the desktop client (MoreLogin refuses to delete a running profile), then deleted by the flow.
    await call(emulator().localUrl, "/api/env/close", { body: { envId } });
    const reads = requests(emulator(), DEBUG_INFO);
    helper.getNode("remove").receive({ payload: envId } as NodeMessage);
    await new Collector("removed").next(1, WAIT_MS);
    assert.deepEqual(clientOf().leases.entries(), [], "the delete's reply ended the lease");
    assert.equal(requests(emulator(), DEBUG_INFO), reads, "without a read of the running set");
    assert.equal(closes(), 1, "the only close is the hand-made one");
  });

  it("closeOnStop closes what the config node started when Node-RED stops, and when the config node is deleted", async () => {
    const [beforeStop, beforeDelete] = ids(17, 2);
    assert.ok(beforeStop && beforeDelete);
    const credentials = credentialsFor(emulator());
    await loadFlow(leaseFlow(emulator(), { lease: "600" }, { closeOnStop: true }), credentials);
    helper.getNode("start").receive({ payload: beforeStop } as NodeMessage);
    await new Collector("out").next(1, WAIT_MS);
    let runningWhileStopped = true;
    await whileStopped(async () => {
      runningWhileStopped = isRunning(beforeStop);
    });
    assert.equal(runningWhileStopped, false, "closed when Node-RED stopped its flows");

    helper.getNode("start").receive({ payload: beforeDelete } as NodeMessage);
    await new Collector("out").next(1, WAIT_MS);
    assert.equal(isRunning(beforeDelete), true);
    // The config node and every node that used it deleted and deployed: only the tab is left.
    await redeploy([{ id: TAB, type: "tab", label: "leases" }], credentials);
    assert.equal(isRunning(beforeDelete), false, "closed when its config node was deleted");
    assert.equal(closes(), 2);
  });

  it("one reader of the running set: two watches and a capped start share getAllDebugInfo reads", async () => {
    const [running, waiting] = ids(14, 2);
    const flow: FlowNode[] = [
      ...leaseFlow(emulator(), {}, { maxProfiles: "1" }),
      { id: "watch1", type: "morelogin-watch", z: TAB, server: CONFIG_ID, watch: "profiles", interval: "2", wires: [["seen1"]] },
      { id: "watch2", type: "morelogin-watch", z: TAB, server: CONFIG_ID, watch: "profiles", interval: "2", wires: [["seen2"]] },
      { id: "seen1", z: TAB, type: "helper" },
      { id: "seen2", z: TAB, type: "helper" },
    ];
    await call(emulator().localUrl, "/api/env/start", { body: { envId: running } });
    await loadFlow(flow, credentialsFor(emulator()));
    const out = new Collector("out");
    // The cap is full (a profile started by hand runs): this start waits and re-reads while it waits.
    helper.getNode("start").receive({ payload: waiting } as NodeMessage);
    const watch1 = helper.getNode("watch1");
    // Each poll shows its time ("1 profile running · 23:41:07"): the distinct texts count the polls.
    const polls = (): number =>
      new Set(
        statusCalls(watch1)
          .map((status) => status.text ?? "")
          .filter((text) => /profiles? running/.test(text)),
      ).size;
    await waitUntil(() => polls() >= 4, "four polls of the first watch", WAIT_MS);
    const reads = requests(emulator(), DEBUG_INFO);
    const seenPolls = polls();
    // The cap re-reads every 5 s while a start waits: it takes the watches' reads instead.
    assert.ok(reads <= seenPolls, `one read per poll for the two watches and the cap (${reads} reads, ${seenPolls} polls)`);
    await call(emulator().localUrl, "/api/env/close", { body: { envId: running } });
    await out.next(1, WAIT_MS);
  });
});
