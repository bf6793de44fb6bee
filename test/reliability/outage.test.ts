import assert from "node:assert/strict";
import { createServer, type Server, type Socket } from "node:net";
import type { NodeMessage } from "node-red";
import { MoreLoginClient, MoreLoginTimeoutError } from "../../src/client";
import { useEmulator } from "../support/emulator";
import { Collector, credentialsFor, flowWith, helper, loadFlow, useNodeRed } from "../support/node-red";

describe("reliability: a desktop client that goes away and comes back", function () {
  this.timeout(120_000);
  useNodeRed();
  const { emulator, startAgain } = useEmulator({ profiles: 30 });

  it("fails clearly while it is gone and serves again when it is back, without a restart", async () => {
    await loadFlow(flowWith(emulator(), { type: "morelogin-list-profiles" }), credentialsFor(emulator()));
    const out = new Collector("out");
    const caught = new Collector("caught");
    const node = helper.getNode("n1");

    node.receive({ payload: "" } as NodeMessage);
    await out.next(1);
    await emulator().close();
    for (let i = 0; i < 5; i++) node.receive({ payload: "" } as NodeMessage);
    const errors = await caught.next(5, 30_000);
    for (const msg of errors) assert.match((msg.error as { message: string }).message, /^list profiles failed: cannot reach the Local API at .* \(ECONNREFUSED\)/);

    await startAgain(true); // on the same ports
    for (let i = 0; i < 5; i++) node.receive({ payload: "" } as NodeMessage);
    const served = await out.next(6, 30_000);
    assert.equal(served.length, 6);
    assert.equal(caught.messages.length, 5);
  });
});

describe("reliability: a server that accepts the connection and never answers", () => {
  let server: Server;
  const sockets = new Set<Socket>();
  let url = "";
  let connections = 0;
  before(async () => {
    server = createServer((socket) => {
      connections++;
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
      socket.resume();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const address = server.address();
    url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  });
  after(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it("fails after the call's timeout with a text that says so, and is not retried", async () => {
    const client = new MoreLoginClient({ localUrl: url, timeouts: { request: 1_000 } });
    try {
      const error = await client.call("listProfiles", { pageNo: 1 }).then(
        () => undefined,
        (failure: unknown) => failure,
      );
      assert.ok(error instanceof MoreLoginTimeoutError);
      assert.equal(error.message, "no answer from the Local API within 1 s (POST /api/env/page)");
      assert.equal(connections, 1);
    } finally {
      await client.close();
    }
  });
});
