import assert from "node:assert/strict";
import { requests, useEmulator } from "../support/emulator";
import { call } from "../support/http";
import { CONFIG_ID, Collector, TAB, configNode, credentialsFor, helper, loadFlow, statusCalls, useNodeRed, type FlowNode, type Msg } from "../support/node-red";
import { waitUntil } from "../support/wait-until";
import { redeploy } from "../support/redeploy";

const DEBUG_INFO = "local POST /api/env/getAllDebugInfo";

/**
 * A watch remembers what it saw by node ID for its next start in the same runtime (a redeploy). A
 * runtime that ends takes that memory with it: the same ID in the next runtime (the next test file of
 * a serial run, each test here) starts with none.
 */
describe("nodes: a watch's memory ends with its runtime", () => {
  const { emulator } = useEmulator({ profiles: 2 });
  useNodeRed(emulator);

  const flow = (): FlowNode[] => [
    { id: TAB, type: "tab", label: "watch memory" },
    configNode(emulator(), { localRpm: "0" }),
    { id: "watch1", z: TAB, type: "morelogin-watch", server: CONFIG_ID, watch: "profiles", interval: "2", wires: [["out"]] },
    { id: "out", z: TAB, type: "helper" },
  ];
  const local = (path: string, envId: string): Promise<unknown> => call(emulator().localUrl, path, { body: { envId } });
  const polls = (): number => requests(emulator(), DEBUG_INFO);
  const firstPoll = (): Promise<void> => waitUntil(() => statusCalls(helper.getNode("watch1")).some((status) => status.fill === "green"), "the watch's first poll");
  const event = (msg: Msg | undefined): [unknown, unknown] => [msg?.topic, (msg?.payload as { event?: unknown } | undefined)?.event];

  it("a profile that stopped between two runtimes is not sent by the next runtime's watch of the same ID; a redeploy within one runtime does send it", async () => {
    const [envId] = emulator().data.profiles.map((profile) => profile.id);
    assert.ok(envId);
    await local("/api/env/start", envId);
    await loadFlow(flow(), credentialsFor(emulator()));
    await firstPoll();

    // Within the runtime, a redeploy keeps what the watch saw: the stop is a change.
    await local("/api/env/close", envId);
    await redeploy(flow(), credentialsFor(emulator()));
    const redeployed = new Collector("out");
    const [stopped] = (await redeployed.next(1, 10_000)) as Msg[];
    assert.deepEqual(event(stopped), [envId, "stopped"]);
    // What this runtime's watch remembers last: the profile running.
    await local("/api/env/start", envId);
    const [, started] = (await redeployed.next(2, 10_000)) as Msg[];
    assert.deepEqual(event(started), [envId, "started"]);

    // A new runtime (the test helper loads the node types again): the watch of the same ID only learns what runs.
    await helper.unload();
    await local("/api/env/close", envId);
    await loadFlow(flow(), credentialsFor(emulator()));
    const out = new Collector("out");
    await firstPoll();
    const target = polls() + 2;
    await waitUntil(() => polls() >= target, "a poll after the first");
    assert.deepEqual(
      out.messages.map((msg) => event(msg as Msg)),
      [],
      "nothing remembered from the runtime before",
    );
  });
});
