import assert from "node:assert/strict";
import type { Node } from "node-red";
import { requests, useEmulator } from "../support/emulator";
import { call, dataOf } from "../support/http";
import { Collector, credentialsFor, flowWith, helper, loadFlow, ownStatusCalls, useNodeRed, type Msg } from "../support/node-red";
import { waitUntil } from "../support/wait-until";

const PAGE = "/api/cloudbrowser/page";
const DEBUG_INFO = "/api/env/getAllDebugInfo";
/** The emulator's cloud browser: RUNNING this long after its start; after a stop, archived and CLOSED this long after. */
const BOOT_MS = 400;
/** A change reaches the flow within the interval (2 s) and a poll or two. */
const DETECT_MS = 8_000;

interface WatchPayload {
  event: string;
  kind?: string;
  id: string;
  from: unknown;
  to: unknown;
  item: Record<string, unknown>;
}

const payloadOf = (msg: Msg | undefined): WatchPayload => msg?.payload as WatchPayload;
const moreloginOf = (msg: Msg | undefined): Record<string, unknown> => msg?.morelogin as Record<string, unknown>;

describe("nodes: the watch node sees cloud browsers (where: cloud | both)", () => {
  const { emulator } = useEmulator({ profiles: 10, phoneBootMs: BOOT_MS });
  useNodeRed(emulator);

  const local = async <T = Record<string, unknown>>(path: string, body: unknown = {}): Promise<T> => dataOf<T>(await call(emulator().localUrl, path, { body }));
  const used = new Set<string>();
  /** A profile with a proxy (a cloud browser needs one), each test its own. */
  const cloudProfile = (): string => {
    const profile = emulator().data.profiles.find((item) => item.proxy !== null && !used.has(item.id));
    assert.ok(profile, "a free profile with a proxy");
    used.add(profile.id);
    return profile.id;
  };
  const cloudState = async (envId: string): Promise<string> => {
    const page = await local<{ dataList: Array<Record<string, unknown>> }>(PAGE, { pageNo: 1, pageSize: 10, envId });
    return String(page.dataList.find((row) => row.id === envId)?.cloudBrowserStatus);
  };
  const polls = (path: string): number => requests(emulator(), `local POST ${path}`);
  const greenShown = (node: Node): boolean => ownStatusCalls(node).some((status) => status.fill === "green");
  /** How many of this watch's polls have ended: each ends in one status, green, or red when it failed. */
  const pollsEnded = (node: Node): number => ownStatusCalls(node).filter((status) => status.fill === "green" || status.fill === "red").length;
  /** Waits until `count` more of this watch's polls have ended; called right after a poll's message, they all began after it (polls never overlap). */
  const nextPolls = async (node: Node, count: number): Promise<void> => {
    const target = pollsEnded(node) + count;
    await waitUntil(() => pollsEnded(node) >= target, `${count} more polls of ${node.id}`);
  };

  let deployments = 0;
  async function deployWatch(settings: Record<string, unknown>): Promise<{ out: Collector; caught: Collector; node: () => Node }> {
    const id = `cloudwatch${++deployments}`;
    const flow = flowWith(emulator(), { type: "morelogin-watch", watch: "profiles", interval: "2", ...settings }, { localRpm: "0" }).map((node) =>
      node.id === "n1" ? { ...node, id } : node.id === "complete1" ? { ...node, scope: [id] } : node,
    );
    await loadFlow(flow, credentialsFor(emulator()));
    const node = (): Node => helper.getNode(id);
    await waitUntil(() => greenShown(node()), "the watch's first poll");
    return { out: new Collector("out"), caught: new Collector("caught"), node };
  }

  afterEach(async () => {
    for (const envId of used) await local("/api/cloudbrowser/stop", { envId });
  });

  it("a cloud browser started and stopped through the API gives one started and one stopped message, each with kind cloud", async () => {
    const envId = cloudProfile();
    const { out, caught, node } = await deployWatch({ where: "cloud" });
    assert.equal(out.messages.length, 0, "the first poll only learns what runs");

    await local("/api/cloudbrowser/start", { envId });
    const [started] = (await out.next(1, DETECT_MS)) as Msg[];
    assert.equal(started?.topic, envId);
    const start = payloadOf(started);
    assert.deepEqual([start.event, start.kind, start.id, start.to], ["started", "cloud", envId, "RUNNING"]);
    // CLOSED before it, or STARTING when a poll fell within its boot.
    assert.ok(start.from === "CLOSED" || start.from === "STARTING", `from ${String(start.from)}`);
    assert.equal(start.item.cloudBrowserStatus, "RUNNING");
    const info = moreloginOf(started);
    assert.deepEqual([info.api, info.path, info.watch], ["local", PAGE, "profiles"]);
    const profile = info.profile as Record<string, unknown>;
    assert.equal(profile.envId, envId);
    assert.equal(profile.where, "cloud");
    assert.match(String(profile.cdpUrl), /^http:\/\/127\.0\.0\.1:\d+\?token=[0-9a-f]{32}$/, "connect's cdpUrl, as the start node carries it");
    assert.match(String(ownStatusCalls(node()).at(-1)?.text), /^1 cloud browser running · /);
    assert.ok(!ownStatusCalls(node()).some((status) => String(status.text).includes(new URL(String(profile.cdpUrl)).searchParams.get("token") ?? "?")), "no token in a status");

    await local("/api/cloudbrowser/stop", { envId });
    const [, stopped] = (await out.next(2, DETECT_MS)) as Msg[];
    const stop = payloadOf(stopped);
    assert.deepEqual([stop.event, stop.kind, stop.id, stop.from, stop.to], ["stopped", "cloud", envId, "RUNNING", "CLOSED"]);
    assert.equal(stop.item.cloudBrowserArchiveStatus, "COMPLETED", "stopped comes once the archive is done: the profile can start again");
    assert.equal(moreloginOf(stopped).profile, undefined);

    await nextPolls(node(), 1);
    assert.equal(out.messages.length, 2, "the archive states send nothing of their own, and each change is sent once");
    assert.equal(polls(DEBUG_INFO), 0, "where cloud reads no desktop-client profiles");
    assert.equal(caught.messages.length, 0);
  });

  it("a watch saved without where (as every flow before cloud browsers) polls no cloud route, even with a cloud browser running; its messages gain kind local", async () => {
    const cloudId = cloudProfile();
    await local("/api/cloudbrowser/start", { envId: cloudId });
    await waitUntil(async () => (await cloudState(cloudId)) === "RUNNING", "the cloud browser running");
    emulator().resetStats();

    const { out, node } = await deployWatch({});
    const localId = emulator().data.profiles.find((item) => !used.has(item.id))?.id;
    assert.ok(localId);
    await local("/api/env/start", { envId: localId });
    const [started] = (await out.next(1, DETECT_MS)) as Msg[];
    assert.deepEqual([payloadOf(started).event, payloadOf(started).kind, started?.topic], ["started", "local", localId]);
    await local("/api/env/close", { envId: localId });
    await out.next(2, DETECT_MS);
    await nextPolls(node(), 1);

    assert.deepEqual(
      Object.keys(emulator().stats.requests).filter((route) => route.includes("/cloudbrowser/")),
      [],
      "no cloudbrowser call at all",
    );
    assert.deepEqual(
      out.messages.map((msg) => payloadOf(msg as Msg).kind),
      ["local", "local"],
      "nothing of the cloud browser",
    );
  });

  it("where both: a profile started on this machine and one in the cloud each give a message, told apart by kind", async () => {
    const cloudId = cloudProfile();
    const localId = emulator().data.profiles.find((item) => !used.has(item.id))?.id;
    assert.ok(localId);
    const { out, node } = await deployWatch({ where: "both", events: ["started"] });
    await local("/api/env/start", { envId: localId });
    await local("/api/cloudbrowser/start", { envId: cloudId });
    const messages = (await out.next(2, DETECT_MS)) as Msg[];
    const byKind = Object.fromEntries(messages.map((msg) => [payloadOf(msg).kind, [msg.topic, payloadOf(msg).event, payloadOf(msg).to]]));
    assert.deepEqual(byKind, { local: [localId, "started", "running"], cloud: [cloudId, "started", "RUNNING"] });
    await nextPolls(node(), 1);
    assert.match(String(ownStatusCalls(node()).at(-1)?.text), /^2 profiles running \(1 in the cloud\) · /);
    await local("/api/env/close", { envId: localId });
  });
});
