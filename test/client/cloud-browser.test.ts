import assert from "node:assert/strict";
import { MoreLoginNetworkError } from "../../src/client";
import type { Emulator } from "../../src/emulator";
import { clearFaults, rejection, requests, resetBeforeEach, useClients, useEmulator } from "../support/emulator";

const START = "local POST /api/cloudbrowser/start";
const STOP = "local POST /api/cloudbrowser/stop";
const PAGE = "local POST /api/cloudbrowser/page";

/** The bodies the emulator got at one path. */
const bodiesAt = (emulator: Emulator, path: string): unknown[] => emulator.requestLog.filter((request) => request.path === path).map((request) => request.body);

describe("client: the cloud browser endpoints", () => {
  const { emulator } = useEmulator({ phoneBootMs: 50 });
  const clientWith = useClients(emulator);
  resetBeforeEach(emulator, clearFaults);
  const withProxy = (): string => {
    const profile = emulator().data.profiles.find((item) => item.proxy !== null);
    assert.ok(profile, "a profile with a proxy");
    return profile.id;
  };

  it("start and stop are writes: never sent again after the connection drops", async () => {
    const client = clientWith();
    const envId = withProxy();
    emulator().script({ kind: "reset", api: "local", path: "/api/cloudbrowser/start" });
    const start = await rejection(client.call("cloudBrowserStart", { envId }));
    assert.ok(start instanceof MoreLoginNetworkError, String(start));
    assert.equal(requests(emulator(), START), 1);
    emulator().script({ kind: "reset", api: "local", path: "/api/cloudbrowser/stop" });
    const stop = await rejection(client.call("cloudBrowserStop", { envId, force: false }));
    assert.ok(stop instanceof MoreLoginNetworkError, String(stop));
    assert.equal(requests(emulator(), STOP), 1);
  });

  it("page is a read: sent again after the connection drops, always with pageNo and pageSize, the ID a decimal string", async () => {
    const client = clientWith();
    const envId = withProxy();
    emulator().script({ kind: "reset", api: "local", path: "/api/cloudbrowser/page" });
    const { data } = await client.call("cloudBrowserPage", { envId });
    assert.equal(requests(emulator(), PAGE), 2);
    assert.deepEqual(bodiesAt(emulator(), "/api/cloudbrowser/page").at(-1), { pageNo: 1, pageSize: 10, envId });
    assert.deepEqual(
      data.dataList.map((row) => [row.id, row.cloudBrowserStatus]),
      [[envId, "CLOSED"]],
    );
  });
});
