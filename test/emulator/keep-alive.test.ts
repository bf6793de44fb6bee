import assert from "node:assert/strict";
import { Agent, request } from "node:http";
import { call, dataOf } from "../support/http";
import { useEmulator } from "../support/emulator";

/**
 * How long a kept-alive connection lies idle before it is used again: past Node's default server
 * keep-alive timeout of 5 s, the emulator's before it kept connections longer.
 */
const IDLE_MS = 6_000;

interface Exchange {
  status: number;
  /** The request went over a connection an earlier request had used. */
  reusedSocket: boolean;
  keepAlive: string | undefined;
}

/**
 * One request through `agent`, as the core http request node makes them: its agent keeps connections
 * and never drops an idle one itself, so it relies on the server not closing one it is about to reuse.
 */
function exchange(agent: Agent, url: string, method: "GET" | "POST", body?: object): Promise<Exchange> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent, method, headers: body ? { "content-type": "application/json" } : {} }, (res) => {
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode ?? 0, reusedSocket: req.reusedSocket, keepAlive: String(res.headers["keep-alive"] ?? "") }));
    });
    req.on("error", reject);
    req.end(body ? JSON.stringify(body) : undefined);
  });
}

/** Two requests with the connection idle for IDLE_MS between them. */
async function reuseAfterIdle(url: string, method: "GET" | "POST", body?: object): Promise<Exchange[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const first = await exchange(agent, url, method, body);
    // A fixed wait on purpose: what is tested is Node's own idle timer on the server's socket, which no
    // clock of the emulator's drives and no event announces (the three servers idle in parallel).
    await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
    return [first, await exchange(agent, url, method, body)];
  } finally {
    agent.destroy();
  }
}

describe("emulator: kept-alive connections are closed by the client, never under it", () => {
  const { emulator } = useEmulator({ profiles: 2 });

  it("the Local API, the Open API and a started profile's debug port keep an idle connection for the client to reuse", async function () {
    this.timeout(IDLE_MS + 30_000);
    const { localUrl, openUrl, credentials } = emulator();
    const envId = emulator().data.profiles[0]?.id;
    const { debugPort } = dataOf<{ debugPort: string }>(await call(localUrl, "/api/env/start", { body: { envId } }));
    const servers = {
      local: reuseAfterIdle(`${localUrl}/api/env/page`, "POST", { pageNo: 1, pageSize: 1 }),
      open: reuseAfterIdle(`${openUrl}/oauth2/token`, "POST", { client_id: credentials.apiId, client_secret: credentials.apiKey, grant_type: "client_credentials" }),
      debugPort: reuseAfterIdle(`http://127.0.0.1:${debugPort}/json/version`, "GET"),
    };
    for (const [server, exchanges] of Object.entries(servers)) {
      const [first, second] = await exchanges;
      assert.equal(first?.status, 200, `${server}: first request`);
      assert.equal(second?.status, 200, `${server}: request after ${IDLE_MS} ms idle`);
      assert.equal(second?.reusedSocket, true, `${server}: the connection idle for ${IDLE_MS} ms was still open and was reused`);
      // Clients that follow the announced timeout (Node's agent, undici) drop the connection a second or two before it.
      const announced = Number(/timeout=(\d+)/.exec(second?.keepAlive ?? "")?.[1]);
      assert.ok(announced >= 60, `${server}: announces an idle timeout of at least 60 s (Keep-Alive: ${second?.keepAlive})`);
    }
  });
});
