import assert from "node:assert/strict";
import type { Node, NodeMessage } from "node-red";
import type { Emulator } from "../../src/emulator";
import { requests, useEmulator } from "../support/emulator";
import { call, dataOf } from "../support/http";
import { CONFIG_ID, Collector, TAB, configNode, credentialsFor, helper, loadFlow, statusCalls, type FlowNode, type Msg } from "../support/node-red";
import { useProfileRuntime } from "../support/profile-runtime";
import { waitUntil } from "../support/wait-until";

const START = "local POST /api/env/start";
const POWER_ON = "local POST /api/cloudphone/powerOn";
/** No pacing and no start limit, so that only the cap under test holds anything back. */
const UNPACED = { localRpm: "0", openRpm: "0", concurrency: "0" };
/** A closed profile elsewhere must free its place within this (the cap re-reads every 5 s). */
const FEW_SECONDS_MS = 12_000;

/** A flow on one tab: `steps` wired in a row from the node under test ("n1") to "out", and a Catch to "caught". */
function chain(emulator: Emulator, steps: Array<Record<string, unknown>>, config: Record<string, unknown>): FlowNode[] {
  const ids = steps.map((_, index) => `n${index + 1}`);
  return [
    { id: TAB, type: "tab", label: "capacity" },
    configNode(emulator, { ...UNPACED, ...config }),
    ...steps.map((step, index) => ({ id: ids[index] ?? "", z: TAB, server: CONFIG_ID, wires: [[ids[index + 1] ?? "out"]], type: "", ...step })),
    { id: "out", z: TAB, type: "helper" },
    { id: "catch1", z: TAB, type: "catch", scope: null, uncaught: false, wires: [["caught"]] },
    { id: "caught", z: TAB, type: "helper" },
  ];
}

function statusTexts(node: Node): string[] {
  return statusCalls(node).map((status) => status.text ?? "");
}

/** Waits until the node's status has shown `text`. */
function statusShown(node: Node, text: string): Promise<void> {
  return waitUntil(
    () => statusTexts(node).includes(text),
    () => `the status showed "${text}" (it showed ${JSON.stringify(statusTexts(node).slice(-3))})`,
    FEW_SECONDS_MS,
  );
}

/** The errors of the messages a redeploy ends: the helper drops its spies before it stops the flows. */
function recordErrors(node: Node): string[] {
  const ended: string[] = [];
  node.error = (error: unknown): void => {
    ended.push(error instanceof Error ? error.message : String(error));
  };
  return ended;
}

const STOPPED = "the node was stopped (a deploy or Node-RED shutting down) while the call was in flight";

describe("nodes: maxProfiles, a cap on running profiles", () => {
  const { emulator } = useEmulator({ profiles: 40, startDelayMs: 40 });
  const ids = useProfileRuntime(emulator);
  afterEach(() => helper.unload());

  it("30 messages through start and close with maxProfiles 3: never more than 3 running, and all 30 finish", async () => {
    const flow = chain(emulator(), [{ type: "morelogin-start-profile" }, { type: "morelogin-close-profile" }], { maxProfiles: "3" });
    await loadFlow(flow, credentialsFor(emulator()));
    const out = new Collector("out");
    const caught = new Collector("caught");
    const start = helper.getNode("n1");
    const profiles = ids(0, 30);
    for (const envId of profiles) start.receive({ payload: envId } as NodeMessage);
    await out.next(30, 60_000);
    assert.equal(caught.messages.length, 0, "no message failed");
    assert.deepEqual((out.messages as Msg[]).map((msg) => msg.topic).sort(), [...profiles].sort());
    assert.equal(emulator().stats.peakRunningProfiles, 3, "the emulator saw at most 3 profiles running at once, and the cap let 3 run");
    assert.equal(requests(emulator(), START), 30);
    assert.ok(
      statusTexts(start).some((text) => /^\d+ waiting for a free profile, 3 of 3 running$/.test(text)),
      "the start node's status said what the messages waited for",
    );
  });

  it("a start whose flow never closes its profile holds the place, and the status says so; a close elsewhere lets the next one go", async () => {
    const [first, second] = ids(0, 2);
    await loadFlow(chain(emulator(), [{ type: "morelogin-start-profile" }], { maxProfiles: "1" }), credentialsFor(emulator()));
    const out = new Collector("out");
    const start = helper.getNode("n1");
    start.receive({ payload: first } as NodeMessage);
    await out.next(1);
    start.receive({ payload: second } as NodeMessage);
    await statusShown(start, "1 waiting for a free profile, 1 of 1 running");
    assert.equal(requests(emulator(), START), 1, "the second start was not sent");
    assert.deepEqual(
      emulator()
        .running()
        .map((profile) => profile.envId),
      [first],
    );

    // Another client (a person, a script) closes the first profile: nothing in this flow tells the cap.
    dataOf(await call(emulator().localUrl, "/api/env/close", { body: { envId: first } }));
    const [, next] = await out.next(2, FEW_SECONDS_MS);
    assert.equal((next as Msg).topic, second);
    assert.deepEqual(
      emulator()
        .running()
        .map((profile) => profile.envId),
      [second],
    );
  });

  it("a close through the config node frees the place at once, and a start of a running profile passes straight through", async () => {
    const [first, second] = ids(2, 2);
    const flow = chain(emulator(), [{ type: "morelogin-start-profile" }], { maxProfiles: "1" });
    flow.push({ id: "close", z: TAB, type: "morelogin-close-profile", server: CONFIG_ID, wires: [["closed"]] }, { id: "closed", z: TAB, type: "helper" });
    await loadFlow(flow, credentialsFor(emulator()));
    const out = new Collector("out");
    const closed = new Collector("closed");
    const start = helper.getNode("n1");
    start.receive({ payload: first } as NodeMessage);
    await out.next(1);
    start.receive({ payload: first } as NodeMessage);
    await out.next(2);
    assert.deepEqual(
      statusTexts(start).filter((text) => text.includes("waiting")),
      [],
      "the second start of the running profile did not wait",
    );
    start.receive({ payload: second } as NodeMessage);
    await statusShown(start, "1 waiting for a free profile, 1 of 1 running");
    const readsBefore = requests(emulator(), "local POST /api/env/getAllDebugInfo");
    helper.getNode("close").receive({ payload: first } as NodeMessage);
    await closed.next(1);
    // Bounded: a close that did not free the place leaves the start to the next read of the running set (every 5 s).
    const [, , third] = await out.next(3, FEW_SECONDS_MS);
    assert.equal((third as Msg).topic, second);
    assert.equal(requests(emulator(), "local POST /api/env/getAllDebugInfo"), readsBefore, "the close freed the place without reading the running set again");
  });

  it("a redeploy ends each waiting start once, and sends none of them", async () => {
    const profiles = ids(4, 3);
    await loadFlow(chain(emulator(), [{ type: "morelogin-start-profile" }], { maxProfiles: "1" }), credentialsFor(emulator()));
    const out = new Collector("out");
    const start = helper.getNode("n1");
    for (const envId of profiles) start.receive({ payload: envId } as NodeMessage);
    await out.next(1);
    await statusShown(start, "2 waiting for a free profile, 1 of 1 running");
    const ended = recordErrors(start);
    await helper.unload();
    await waitUntil(() => ended.length >= 2, "the redeploy ended the waiting messages", 5_000);
    assert.deepEqual(ended, [`start profile failed: ${STOPPED}`, `start profile failed: ${STOPPED}`]);
    assert.equal(requests(emulator(), START), 1);
  });

  it("with room under maxProfiles, a start that waits for `concurrency` says it waits for a start slot", async () => {
    const [slow, next] = ids(7, 2);
    emulator().script({ kind: "latency", api: "local", path: "/api/env/start", latencyMs: 1_500 });
    await loadFlow(chain(emulator(), [{ type: "morelogin-start-profile" }], { maxProfiles: "5", concurrency: "1" }), credentialsFor(emulator()));
    const out = new Collector("out");
    const start = helper.getNode("n1");
    start.receive({ payload: slow } as NodeMessage);
    start.receive({ payload: next } as NodeMessage);
    await statusShown(start, "1 waiting for a start slot");
    await out.next(2);
    assert.equal(
      statusTexts(start).some((text) => text.includes("free profile")),
      false,
      "no message waited for a free profile",
    );
  });

  it("a setting that is not a whole number makes the config node unusable, with a clear error", async () => {
    await loadFlow(chain(emulator(), [{ type: "morelogin-start-profile" }], { maxProfiles: "many" }), credentialsFor(emulator()));
    const caught = new Collector("caught");
    helper.getNode("n1").receive({ payload: ids(0, 1)[0] } as NodeMessage);
    const [msg] = await caught.next(1);
    assert.equal(
      ((msg as Msg).error as { message: string }).message,
      'start profile failed: the MoreLogin config node is not usable: maxProfiles must be a whole number, 0 or more (0 = no limit), got "many"',
    );
    assert.equal(requests(emulator(), START), 0);
  });
});

describe("nodes: maxPhones, a cap on powered-on cloud phones", () => {
  const { emulator } = useEmulator({ cloudPhones: 12, phoneBootMs: 100 });
  const PHONE = "morelogin-cloud-phone";

  before((done) => {
    helper.startServer(done);
  });
  after((done) => {
    helper.stopServer(done);
  });
  beforeEach(async () => {
    // Seeded phones may be on: every test starts with all of them off.
    for (const phone of emulator().data.cloudPhones) {
      if (phone.envStatus !== 2) await call(emulator().localUrl, "/api/cloudphone/powerOff", { body: { id: phone.id } });
    }
    emulator().resetStats();
  });
  afterEach(() => helper.unload());

  const phoneIds = (): string[] => emulator().data.cloudPhones.map((phone) => phone.id);

  it("every phone through power on, a shell command and power off with maxPhones 2: never more than 2 on, and all finish", async () => {
    const steps = [
      { type: PHONE, action: "powerOn", wait: true },
      { type: PHONE, action: "shell", command: "getprop ro.product.model" },
      { type: PHONE, action: "powerOff", phoneId: "topic", phoneIdType: "msg" },
    ];
    await loadFlow(chain(emulator(), steps, { maxPhones: "2" }), credentialsFor(emulator()));
    const out = new Collector("out");
    const caught = new Collector("caught");
    const powerOn = helper.getNode("n1");
    for (const id of phoneIds()) powerOn.receive({ payload: id } as NodeMessage);
    await waitUntil(() => out.messages.length + caught.messages.length >= phoneIds().length, "every message ended", 60_000);
    assert.equal(caught.messages.length, 0, "no message failed");
    assert.equal(emulator().stats.peakPoweredPhones, 2, "the emulator saw at most 2 phones on at once, and the cap let 2 be on");
    assert.equal(requests(emulator(), POWER_ON), phoneIds().length);
    assert.ok(statusTexts(powerOn).some((text) => /^\d+ waiting for a free phone, 2 of 2 powered on$/.test(text)));
  });

  it("a phone powered off elsewhere lets the next power-on go; a redeploy ends the waiting ones once", async () => {
    const [first, second, third] = phoneIds();
    await loadFlow(chain(emulator(), [{ type: PHONE, action: "powerOn" }], { maxPhones: "1" }), credentialsFor(emulator()));
    const out = new Collector("out");
    const powerOn = helper.getNode("n1");
    powerOn.receive({ payload: first } as NodeMessage);
    await out.next(1);
    powerOn.receive({ payload: second } as NodeMessage);
    powerOn.receive({ payload: third } as NodeMessage);
    await statusShown(powerOn, "2 waiting for a free phone, 1 of 1 powered on");
    assert.equal(requests(emulator(), POWER_ON), 1);

    await call(emulator().localUrl, "/api/cloudphone/powerOff", { body: { id: first } });
    const [, next] = await out.next(2, FEW_SECONDS_MS);
    assert.equal((next as Msg).topic, second);
    await statusShown(powerOn, "1 waiting for a free phone, 1 of 1 powered on");

    const ended = recordErrors(powerOn);
    await helper.unload();
    await waitUntil(() => ended.length >= 1, "the redeploy ended the waiting message", 5_000);
    assert.deepEqual(ended, [`cloud phone failed: ${STOPPED}`]);
    assert.equal(requests(emulator(), POWER_ON), 2);
  });
});
