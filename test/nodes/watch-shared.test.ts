import assert from "node:assert/strict";
import type { Node } from "node-red";
import { requests, useEmulator } from "../support/emulator";
import { CONFIG_ID, Collector, TAB, configNode, credentialsFor, helper, loadFlow, statusCalls, useNodeRed, type Msg } from "../support/node-red";
import { waitUntil } from "../support/wait-until";

const DEBUG_INFO = "local POST /api/env/getAllDebugInfo";

describe("nodes: watches on one config node share their polls", () => {
  const { emulator } = useEmulator({ profiles: 4 });
  useNodeRed(emulator);

  /** The green statuses (one per poll that answered) this node showed. */
  const pollsShown = (node: Node): number => {
    const spy = node.status as unknown as { thisValues: unknown[] };
    return statusCalls(node).filter((status, index) => spy.thisValues[index] === node && status.fill === "green").length;
  };

  it("three profile watches (two every 2 s, one every 4 s) send one getAllDebugInfo per poll between them, and each sends its own messages", async () => {
    await loadFlow(
      [
        { id: TAB, type: "tab" },
        configNode(emulator(), { localRpm: "0" }),
        { id: "fast", z: TAB, type: "morelogin-watch", server: CONFIG_ID, watch: "profiles", interval: "2", wires: [["fastOut"]] },
        { id: "twin", z: TAB, type: "morelogin-watch", server: CONFIG_ID, watch: "profiles", interval: "2", wires: [["twinOut"]] },
        { id: "slow", z: TAB, type: "morelogin-watch", server: CONFIG_ID, watch: "profiles", interval: "4", wires: [["slowOut"]] },
        { id: "twinOut", z: TAB, type: "helper" },
        { id: "fastOut", z: TAB, type: "helper" },
        { id: "slowOut", z: TAB, type: "helper" },
      ],
      credentialsFor(emulator()),
    );
    const [fast, slow] = [helper.getNode("fast"), helper.getNode("slow")];
    const fastOut = new Collector("fastOut");
    const twinOut = new Collector("twinOut");
    const slowOut = new Collector("slowOut");
    await waitUntil(() => pollsShown(fast) >= 1 && pollsShown(slow) >= 1, "both watches' first polls");

    const envId = emulator().data.profiles[1]?.id;
    assert.ok(envId);
    await fetch(`${emulator().localUrl}/api/env/start`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ envId }) });
    const [fromFast] = (await fastOut.next(1, 10_000)) as Msg[];
    const [fromTwin] = (await twinOut.next(1, 10_000)) as Msg[];
    const [fromSlow] = (await slowOut.next(1, 10_000)) as Msg[];
    const payloadOf = (msg: Msg | undefined): { event?: string; item?: object } => (msg?.payload ?? {}) as { event?: string; item?: object };
    for (const msg of [fromFast, fromTwin, fromSlow]) assert.deepEqual([msg?.topic, payloadOf(msg).event], [envId, "started"]);
    // The twins saw the start in the same shared poll; each message still has objects of its own.
    const requestOf = (msg: Msg | undefined): unknown => (msg?.morelogin as { requestId?: string } | undefined)?.requestId;
    assert.equal(requestOf(fromFast), requestOf(fromTwin), "the twins saw it in one poll");
    assert.ok(payloadOf(fromFast).item, "the message has the row");
    assert.notEqual(payloadOf(fromFast).item, payloadOf(fromTwin).item, "each watch's message has its own item");

    // Counted in the fast watch's own polls: the slow one never adds a request of its own.
    const sent = requests(emulator(), DEBUG_INFO);
    const [fastBefore, slowBefore] = [pollsShown(fast), pollsShown(slow)];
    await waitUntil(() => pollsShown(fast) >= fastBefore + 4 && pollsShown(slow) >= slowBefore + 2, "four more polls of the fast watch, two of the slow one");
    const polled = requests(emulator(), DEBUG_INFO) - sent;
    assert.ok(polled <= pollsShown(fast) - fastBefore + 1, `${polled} getAllDebugInfo requests for ${pollsShown(fast) - fastBefore} polls of the fast watch`);
  });
});
