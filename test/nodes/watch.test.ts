import assert from "node:assert/strict";
import type { Node } from "node-red";
import { DEFAULT_RETRY } from "../../src/client";
import { CONFIG_ID, Collector, TAB, credentialsFor, flowWith, helper, loadFlow, statusCalls, useNodeRed, type FlowNode, type Msg } from "../support/node-red";
import { requests, useEmulator } from "../support/emulator";
import { call, dataOf } from "../support/http";
import { waitUntil } from "../support/wait-until";
import { redeploy, whileStopped } from "../support/redeploy";

const WATCH = "morelogin-watch";
const DEBUG_INFO = "/api/env/getAllDebugInfo";
const INTERVAL_S = 2;
/** The bound: a change reaches the flow within `interval` + 2 s. */
const DETECT_MS = INTERVAL_S * 1000 + 2000;

interface WatchPayload {
  event: string;
  id: string;
  name: string;
  from: unknown;
  to: unknown;
  item: Record<string, unknown>;
  at: string;
}

const payloadOf = (msg: Msg | undefined): WatchPayload => msg?.payload as WatchPayload;
const moreloginOf = (msg: Msg | undefined): Record<string, unknown> => msg?.morelogin as Record<string, unknown>;

describe("nodes: watch", () => {
  const { emulator } = useEmulator({ profiles: 12, cloudPhones: 6, phoneBootMs: 300, automationStepMs: 200 });
  useNodeRed(emulator);

  const local = async <T = Record<string, unknown>>(path: string, body: unknown = {}): Promise<T> => dataOf<T>(await call(emulator().localUrl, path, { body }));
  const profileId = (index: number): string => {
    const id = emulator().data.profiles[index]?.id;
    assert.ok(id, `profile ${index}`);
    return id;
  };
  /** Started as another client (the desktop client, another flow) would: straight over HTTP. */
  const startElsewhere = (envId: string): Promise<unknown> => local("/api/env/start", { envId });
  const polls = (path = DEBUG_INFO): number => requests(emulator(), `local POST ${path}`);

  beforeEach(async () => {
    emulator().setFaults({});
    await local("/api/env/closeAll");
    emulator().resetStats();
  });

  interface Deployed {
    flow: FlowNode[];
    out: Collector;
    caught: Collector;
    node: () => Node;
  }

  /**
   * A watch's memory, by node ID, lasts as long as its runtime (each helper.load is a new one; see
   * watch-memory.test.ts); each test's watch still gets an ID of its own, so none can read another's.
   */
  let deployments = 0;
  async function deployWatch(settings: Record<string, unknown>, config: Record<string, unknown> = {}, alongside: FlowNode[] = []): Promise<Deployed> {
    const id = `watch${++deployments}`;
    const flow = flowWith(emulator(), { type: WATCH, watch: "profiles", interval: String(INTERVAL_S), ...settings }, config).map((node) =>
      node.id === "n1" ? { ...node, id } : node.id === "complete1" ? { ...node, scope: [id] } : node,
    );
    flow.push(...alongside);
    await loadFlow(flow, credentialsFor(emulator()));
    return { flow, out: new Collector("out"), caught: new Collector("caught"), node: () => helper.getNode(id) };
  }

  /** The statuses this node showed (the helper's spy on Node.prototype.status records every node's). */
  const statusesOf = (node: Node): Array<{ fill?: string; shape?: string; text?: string }> => {
    const spy = node.status as unknown as { thisValues: unknown[] };
    return statusCalls(node).filter((_, index) => spy.thisValues[index] === node);
  };
  const greenShown = (node: Node): boolean => statusesOf(node).some((status) => status.fill === "green");
  /** How many of this watch's polls have ended: each ends in one status, green, or red when it failed. */
  const pollsEnded = (node: Node): number => statusesOf(node).filter((status) => status.fill === "green" || status.fill === "red").length;
  /**
   * Waits until `count` more of this watch's polls have ended (polls never overlap). Right after a poll's
   * outcome (its message, its status) they all began after it; from any other moment the first may have been in flight.
   */
  const nextPolls = async (node: Node, count: number): Promise<void> => {
    const target = pollsEnded(node) + count;
    await waitUntil(() => pollsEnded(node) >= target, `${count} more polls of ${node.id}`);
  };

  describe("profiles", () => {
    it("a start and a stop made elsewhere each give exactly one message within interval + 2 s; a start carries the browser's address", async () => {
      const envId = profileId(0);
      const { out, caught, node } = await deployWatch({});
      await waitUntil(() => greenShown(node()), "the first poll");
      assert.equal(out.messages.length, 0, "the first poll only learns what runs");

      await startElsewhere(envId);
      const [started] = (await out.next(1, DETECT_MS)) as Msg[];
      assert.equal(started?.topic, envId);
      const payload = payloadOf(started);
      assert.equal(payload.event, "started");
      assert.equal(payload.id, envId);
      assert.equal(payload.from, "stopped");
      assert.equal(payload.to, "running");
      assert.equal(payload.name, emulator().data.profiles[0]?.envName);
      assert.equal(payload.item.envId, envId);
      assert.ok(!Number.isNaN(Date.parse(payload.at)), "at is an ISO time");
      const info = moreloginOf(started);
      assert.equal(info.api, "local");
      assert.equal(info.path, DEBUG_INFO);
      assert.equal(info.watch, "profiles");
      const debugPort = emulator()
        .running()
        .find((profile) => profile.envId === envId)?.debugPort;
      const profile = info.profile as Record<string, unknown>;
      assert.equal(profile.envId, envId);
      assert.equal(profile.debugPort, debugPort);
      assert.equal(profile.cdpUrl, `http://127.0.0.1:${debugPort}`);
      assert.match(String(profile.webSocketDebuggerUrl), /^ws:\/\/127\.0\.0\.1:\d+\/devtools\/browser\//);

      assert.equal(await emulator().happen.profileExits(envId), true);
      const [, stopped] = (await out.next(2, DETECT_MS)) as Msg[];
      assert.equal(payloadOf(stopped).event, "stopped");
      assert.equal(payloadOf(stopped).from, "running");
      assert.equal(payloadOf(stopped).to, "stopped");
      assert.equal(payloadOf(stopped).item.debugPort, debugPort, "a stopped profile's item is the last row seen");
      assert.equal(moreloginOf(stopped).profile, undefined);

      await nextPolls(node(), 1);
      assert.equal(out.messages.length, 2, "each change is sent once");
      assert.equal(caught.messages.length, 0);
    });

    it("a profile closed and started again between two polls sends stopped, then started with its new port", async () => {
      const envId = profileId(8);
      await startElsewhere(envId);
      const { out, node } = await deployWatch({});
      await waitUntil(() => greenShown(node()), "the first poll");
      const firstPort = emulator()
        .running()
        .find((profile) => profile.envId === envId)?.debugPort;
      await emulator().happen.profileExits(envId);
      await emulator().happen.profileStarts(envId);
      const newPort = emulator()
        .running()
        .find((profile) => profile.envId === envId)?.debugPort;
      assert.notEqual(newPort, firstPort);
      const [stopped, started] = (await out.next(2, DETECT_MS)) as Msg[];
      assert.deepEqual([payloadOf(stopped).event, payloadOf(stopped).item.debugPort, payloadOf(started).event, payloadOf(started).item.debugPort], ["stopped", firstPort, "started", newPort]);
      await nextPolls(node(), 1);
      assert.equal(out.messages.length, 2);
    });

    it("one getAllDebugInfo call per poll, whatever the number of running profiles", async () => {
      for (let index = 0; index < 6; index++) await startElsewhere(profileId(index));
      const { node } = await deployWatch({});
      await waitUntil(() => greenShown(node()), "the first poll");
      emulator().resetStats();
      await nextPolls(node(), 1);
      const seen = Object.entries(emulator().stats.requests).filter(([route]) => route !== `local POST ${DEBUG_INFO}`);
      assert.deepEqual(seen, [], "no other request than getAllDebugInfo");
      const shown = statusesOf(node()).at(-1);
      assert.equal(shown?.fill, "green");
      assert.match(String(shown?.text), /^6 profiles running · \d\d:\d\d:\d\d$/);
    });

    it("ids sends only the changes of those profiles", async () => {
      const [watched, other] = [profileId(1), profileId(2)];
      const { out, node } = await deployWatch({ ids: ` ${watched}, `, idsType: "str" });
      await waitUntil(() => greenShown(node()), "the first poll");
      await startElsewhere(other);
      await startElsewhere(watched);
      const [first] = (await out.next(1, DETECT_MS)) as Msg[];
      assert.equal(first?.topic, watched);
      await nextPolls(node(), 1);
      assert.deepEqual(
        out.messages.map((msg) => msg.topic),
        [watched],
      );
    });

    it("events sends only the chosen changes", async () => {
      const envId = profileId(3);
      const { out, node } = await deployWatch({ events: ["stopped"] });
      await waitUntil(() => greenShown(node()), "the first poll");
      await startElsewhere(envId);
      // Each poll is one request: one is in flight while this watch has sent more than it has shown the end of. It may not have seen the start.
      await nextPolls(node(), polls() > pollsEnded(node()) ? 2 : 1);
      assert.equal(out.messages.length, 0, "no started message");
      await emulator().happen.profileExits(envId);
      const [only] = (await out.next(1, DETECT_MS)) as Msg[];
      assert.equal(payloadOf(only).event, "stopped");
      await nextPolls(node(), 1);
      assert.equal(out.messages.length, 1);
    });

    it("initial sends each running profile once after deploy, with from null; without it nothing is sent", async () => {
      const envId = profileId(4);
      await startElsewhere(envId);
      const withInitial = await deployWatch({ initial: true });
      const [sent] = (await withInitial.out.next(1, DETECT_MS)) as Msg[];
      assert.equal(sent?.topic, envId);
      assert.equal(payloadOf(sent).event, "started");
      assert.equal(payloadOf(sent).from, null);
      assert.equal((moreloginOf(sent).profile as Record<string, unknown>).envId, envId);
      await nextPolls(withInitial.node(), 1);
      assert.equal(withInitial.out.messages.length, 1, "sent once, not at every poll");
      await helper.unload();

      const without = await deployWatch({});
      await waitUntil(() => greenShown(without.node()), "the first poll");
      await nextPolls(without.node(), 1);
      assert.equal(without.out.messages.length, 0);
    });

    it("a redeploy that changes nothing sends nothing; a change made while the flows were stopped is sent once", async () => {
      const envId = profileId(5);
      const deployed = await deployWatch({});
      await waitUntil(() => greenShown(deployed.node()), "the first poll");
      await startElsewhere(envId);
      await deployed.out.next(1, DETECT_MS);

      await redeploy(deployed.flow, credentialsFor(emulator()));
      const afterRedeploy = new Collector("out");
      await nextPolls(deployed.node(), 2);
      assert.equal(afterRedeploy.messages.length, 0, `the redeployed watch remembers what it had seen: ${JSON.stringify(afterRedeploy.messages.map((msg) => msg.payload))}`);

      await whileStopped(async () => {
        await emulator().happen.profileExits(envId);
      });
      const afterRestart = new Collector("out");
      const [stopped] = (await afterRestart.next(1, DETECT_MS)) as Msg[];
      assert.equal(stopped?.topic, envId);
      assert.equal(payloadOf(stopped).event, "stopped");
      await nextPolls(deployed.node(), 1);
      assert.equal(afterRestart.messages.length, 1);
    });
  });

  it("failing polls: one Catch and a red status per run of failures, then it recovers and sends what changed meanwhile", async () => {
    const envId = profileId(6);
    const { out, caught, node } = await deployWatch({});
    await waitUntil(() => greenShown(node()), "the first poll");
    const failedPolls = 3;
    // Each failed poll is the client's every attempt at a read that keeps failing with 503.
    const faults = failedPolls * DEFAULT_RETRY.attempts;
    const before = polls();
    emulator().script({ kind: "http503", api: "local", path: DEBUG_INFO, times: faults });
    await waitUntil(() => polls() >= before + faults, "three failed polls");
    await startElsewhere(envId);
    const [started] = (await out.next(1, DETECT_MS + 10_000)) as Msg[];
    // When the first message is not this start, the whole list says what came instead (a memory from elsewhere sends "stopped").
    const sent = (out.messages as Msg[]).map((msg) => [msg.topic, payloadOf(msg).event, payloadOf(msg).item.debugPort]);
    assert.deepEqual([started?.topic, payloadOf(started).event], [envId, "started"], JSON.stringify(sent));

    assert.equal(caught.messages.length, 1, "one Catch for the run of failures");
    const error = caught.messages[0] as Msg;
    assert.match(String((error.error as { message: string }).message), /^watch profiles failed: .*503/);
    assert.equal((moreloginOf(error).error as Record<string, unknown>).status, 503);
    const statuses = statusesOf(node());
    const red = statuses.findIndex((status) => status.fill === "red");
    assert.ok(red >= 0, "the status turned red");
    assert.equal(statuses[red]?.shape, "ring");
    assert.equal(statuses.at(-1)?.fill, "green", "the next good poll cleared it");

    emulator().script({ kind: "http503", api: "local", path: DEBUG_INFO, times: DEFAULT_RETRY.attempts });
    await waitUntil(() => caught.messages.length === 2, "a new run of failures reaches Catch again");
    await nextPolls(node(), 1);
    assert.equal(out.messages.length, 1);
  });

  it("nothing is sent after close, even from the poll in flight", async () => {
    const envId = profileId(7);
    const { flow, out, node } = await deployWatch({});
    await waitUntil(() => greenShown(node()), "the first poll");
    const before = polls();
    // Slow for this poll and the new watch's first, so the old one's answer comes first.
    emulator().script({ kind: "latency", api: "local", path: DEBUG_INFO, latencyMs: 1500, times: 2 });
    await startElsewhere(envId);
    await waitUntil(() => polls() > before, "a slow poll in flight");
    // Deploying only the changed watch keeps the config node and its client: the old watch's poll
    // in flight must end without a message. Its wires lead nowhere then: watch its own send().
    const closing = node();
    const sentAfterClose: unknown[] = [];
    closing.send = (msg?: unknown): void => {
      sentAfterClose.push(msg);
    };
    await redeploy(
      flow.map((item) => (item.id === closing.id ? { ...item, name: "renamed" } : item)),
      credentialsFor(emulator()),
      "nodes",
    );
    // The "out" node did not change: it is the same node, still collected by `out`.
    const [started] = (await out.next(1, DETECT_MS + 2000)) as Msg[];
    assert.equal(payloadOf(started).event, "started", "the new watch sends the change");
    await nextPolls(node(), 1);
    assert.deepEqual(sentAfterClose, [], "the closed watch's poll in flight sent nothing");
    assert.equal(out.messages.length, 1, "the change is sent once");
  });

  it("bad settings give a clear error, and the runtime keeps going", async () => {
    const flow: FlowNode[] = [
      ...flowWith(emulator(), { type: WATCH, watch: "profiles", interval: "1" }),
      { id: "n2", type: WATCH, z: "tab1", server: "config1", watch: "phones", interval: "2", events: ["started"], wires: [["out"]] },
      { id: "n3", type: WATCH, z: "tab1", server: "config1", watch: "profiles", ids: "not-an-id", wires: [["out"]] },
      { id: `good${++deployments}`, type: WATCH, z: "tab1", server: "config1", watch: "profiles", interval: "2", wires: [["out"]] },
    ];
    await loadFlow(flow, credentialsFor(emulator()));
    const caught = new Collector("caught");
    const texts = (await caught.next(3, DETECT_MS)).map((msg) => String(((msg as Msg).error as { message: string }).message)).sort();
    assert.equal(texts.length, 3);
    assert.match(texts.find((text) => text.includes("interval")) ?? "", /^watch failed: interval must be a number of seconds from 2 to 86400, not "1"$/);
    assert.match(texts.find((text) => text.includes("events")) ?? "", /"started" is not an event of a phones watch/);
    assert.match(texts.find((text) => text.includes("ids")) ?? "", /^watch failed: ids/);
    await waitUntil(() => greenShown(helper.getNode(`good${deployments}`)), "the good watch polls");
    assert.equal(statusesOf(helper.getNode("n1")).at(-1)?.fill, "red");
  });

  it("100 redeploys leave no timer, socket or poller behind", async function () {
    this.timeout(120_000);
    const resources = (): Record<string, number> => {
      const counts: Record<string, number> = {};
      for (const name of process.getActiveResourcesInfo()) counts[name] = (counts[name] ?? 0) + 1;
      return counts;
    };
    const deployed = await deployWatch({});
    await waitUntil(() => greenShown(deployed.node()), "the first poll");
    await nextPolls(deployed.node(), 1);
    const baseline = resources();
    for (let round = 0; round < 100; round++) await redeploy(deployed.flow, credentialsFor(emulator()));
    await waitUntil(() => greenShown(deployed.node()), "the last watch's first poll");
    emulator().resetStats();
    await nextPolls(deployed.node(), 2);
    assert.ok(polls() <= 4, `one watch polls, not many: ${polls()} polls in two intervals`);
    const now = resources();
    for (const kind of ["Timeout", "TCPSocketWrap"]) {
      assert.ok((now[kind] ?? 0) <= (baseline[kind] ?? 0) + 10, `${kind}: ${baseline[kind] ?? 0} before, ${now[kind] ?? 0} after 100 redeploys`);
    }
  });

  describe("phones and runs", () => {
    const phone = (index: number): { id: string; envStatus: number } => {
      const found = emulator().data.cloudPhones[index];
      assert.ok(found, `phone ${index}`);
      return found;
    };

    it("phones: a power-on elsewhere sends running (4) once booted, a shutdown sends stopped (2); Open API too", async () => {
      // A watch on each API in one flow, each on its own phone and into its own output: both watched at once.
      const events = ["running", "stopped"];
      const onOpen = `watch${++deployments}`;
      const [localPhone, openPhone] = [phone(0), phone(1)];
      for (const target of [localPhone, openPhone]) if (target.envStatus !== 2) assert.equal(emulator().happen.phoneShutsDown(target.id), true);
      const onLocal = await deployWatch({ watch: "phones", api: "local", ids: localPhone.id, events }, {}, [
        { id: onOpen, type: WATCH, z: TAB, server: CONFIG_ID, watch: "phones", api: "open", interval: String(INTERVAL_S), ids: openPhone.id, events, wires: [["outOpen"]] },
        { id: "outOpen", z: TAB, type: "helper" },
      ]);
      const watched = [
        { api: "local", target: localPhone, path: "/api/cloudphone/page", out: onLocal.out, node: onLocal.node },
        { api: "open", target: openPhone, path: "/cloudphone/page", out: new Collector("outOpen"), node: () => helper.getNode(onOpen) },
      ];
      await waitUntil(() => watched.every(({ node }) => greenShown(node())), "the first poll of each watch");
      for (const { target } of watched) await local("/api/cloudphone/powerOn", { id: target.id });
      for (const { api, target, path, out } of watched) {
        const [running] = (await out.next(1, DETECT_MS + 1000)) as Msg[];
        assert.equal(payloadOf(running).event, "running", api);
        assert.equal(payloadOf(running).to, 4);
        assert.equal(payloadOf(running).item.id, target.id);
        assert.equal(moreloginOf(running).api, api);
        assert.equal(moreloginOf(running).path, path);
      }
      for (const { target } of watched) assert.equal(emulator().happen.phoneShutsDown(target.id), true);
      for (const { api, out } of watched) {
        const [, stopped] = (await out.next(2, DETECT_MS)) as Msg[];
        assert.equal(payloadOf(stopped).event, "stopped", api);
        assert.deepEqual([payloadOf(stopped).from, payloadOf(stopped).to], [4, 2]);
      }
      await Promise.all(watched.map(({ node }) => nextPolls(node(), 1)));
      for (const { api, out } of watched) assert.equal(out.messages.length, 2, `${api}: booting (3) is not among the chosen events, and nothing is sent twice`);
    });

    it("runs: a run that ends after the watch began is sent once, with its end state", async () => {
      const target = phone(2);
      const { out, node } = await deployWatch({ watch: "runs" });
      await waitUntil(() => greenShown(node()), "the first poll");
      const templates = await local<{ dataList: Array<{ id: string }> }>("/api/cloudphone/rpa/template/market/page", { pageNo: 1, pageSize: 10 });
      const templateId = templates.dataList[0]?.id;
      assert.ok(templateId);
      await local("/api/cloudphone/rpa/onceTask/save", { cloudPhoneId: target.id, scheduleName: "watch test", templateId, templateParameter: "{}" });
      const [ended] = (await out.next(1, DETECT_MS + 2000)) as Msg[];
      const runs = await local<{ dataList: Array<{ id: string; taskState: number }> }>("/api/cloudphone/rpa/subTask/page", { pageNo: 1, pageSize: 100, cloudPhoneId: target.id });
      const run = runs.dataList.find((item) => item.id === payloadOf(ended).id);
      assert.ok(run, "the message names the run");
      assert.equal(payloadOf(ended).event, { 3: "succeeded", 4: "failed", 5: "cancelled" }[run.taskState]);
      assert.equal(payloadOf(ended).to, run.taskState);
      assert.equal(moreloginOf(ended).watch, "runs");
      await nextPolls(node(), 1);
      assert.equal(out.messages.length, 1);
    });
  });
});
