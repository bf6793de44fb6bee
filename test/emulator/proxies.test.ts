import assert from "node:assert/strict";
import type { ProxyInfo } from "../../src/emulator";
import { call, dataOf, expectError, type PageShape } from "../support/http";
import { bearer, useEmulator } from "../support/emulator";

const isPrivate = (ip: string): boolean => /^(127\.|10\.|192\.168\.|172\.(1[6-9]|2\d|3[01])\.)/.test(ip);

describe("emulator: proxy list filters", () => {
  const { emulator } = useEmulator();
  const proxies = (): ProxyInfo[] => emulator().data.proxies;
  const list = async (filters: Record<string, unknown>): Promise<ProxyInfo[]> =>
    dataOf<PageShape<ProxyInfo>>(await call(emulator().localUrl, "/api/proxyInfo/page", { body: { pageNo: 1, pageSize: 100, ...filters } })).dataList;

  /** The filter keeps exactly `expected`, which the seeded data makes neither empty nor everything. */
  async function keeps(filters: Record<string, unknown>, expected: (proxy: ProxyInfo) => boolean): Promise<void> {
    const wanted = proxies().filter(expected);
    assert.ok(wanted.length > 0 && wanted.length < proxies().length, `${JSON.stringify(filters)} should select some proxies, not all`);
    assert.deepEqual(await list(filters), wanted, JSON.stringify(filters));
  }

  it("finds one proxy by its exact id, and none by part of it", async () => {
    const target = proxies()[3];
    assert.ok(target);
    assert.deepEqual(await list({ id: target.id }), [target]);
    assert.deepEqual(await list({ id: target.id.slice(0, -1) }), []);
  });

  it("keeps only proxies cloud phones can use with isCloudPhoneProxy true: no private IPs (the emulated proxies on 127.0.0.1 stand in for public ones), no Pia or 360 proxies", async () => {
    const standIns = new Set(
      emulator()
        .emulatedProxies()
        .map((proxy) => proxy.id),
    );
    assert.ok(standIns.size > 0 && proxies().every((p) => standIns.has(p.id) === (p.proxyIp === "127.0.0.1")));
    await keeps({ isCloudPhoneProxy: true }, (p) => (standIns.has(p.id) || !isPrivate(p.proxyIp)) && p.proxyProvider !== 16 && p.proxyProvider !== 18);
    assert.ok(
      proxies().some((p) => !standIns.has(p.id) && isPrivate(p.proxyIp)),
      "a private proxy (the SSH one) stays out",
    );
    assert.ok(proxies().some((p) => p.proxyProvider === 16));
    assert.deepEqual(await list({ isCloudPhoneProxy: false }), proxies());
  });

  it("filters by category, status and check status", async () => {
    for (const category of [1, 2]) await keeps({ proxyCategoryType: category }, (p) => p.proxyCategoryType === category);
    for (const status of [0, 1, 3, 4]) await keeps({ proxyStatus: status }, (p) => p.proxyStatus === status);
    for (const check of [0, 1, 2, 3]) await keeps({ proxyCheckStatus: check }, (p) => p.proxyCheckStatus === check);
    assert.ok(
      proxies()
        .filter((p) => p.proxyCategoryType === 2)
        .every((p) => p.proxyStatus === 1),
      "own proxies are always status 1",
    );
  });

  it("filters by part of the IP and of the name", async () => {
    await keeps({ proxyIp: "192.168." }, (p) => p.proxyIp.includes("192.168."));
    await keeps({ proxyName: "oxy 002" }, (p) => p.proxyName === "Proxy 002");
    await keeps({ proxyName: "PROXY 002" }, (p) => p.proxyName === "Proxy 002");
  });

  it("filters by lists of providers and of types; an empty list filters nothing", async () => {
    await keeps({ proxyProviders: [7, 16] }, (p) => p.proxyProvider === 7 || p.proxyProvider === 16);
    await keeps({ proxyProviders: [2] }, (p) => p.proxyProvider === 2);
    await keeps({ proxyTypes: [2, 3] }, (p) => p.proxyType === 2 || p.proxyType === 3);
    await keeps({ proxyTypes: [1] }, (p) => p.proxyType === 1);
    assert.deepEqual(await list({ proxyProviders: [], proxyTypes: [] }), proxies());
  });

  it("applies every filter sent, and pages what is left", async () => {
    await keeps({ proxyCategoryType: 2, proxyTypes: [2] }, (p) => p.proxyCategoryType === 2 && p.proxyType === 2);
    const own = proxies().filter((p) => p.proxyCategoryType === 2);
    const page = dataOf<PageShape<ProxyInfo>>(await call(emulator().localUrl, "/api/proxyInfo/page", { body: { pageNo: 2, pageSize: 2, proxyCategoryType: 2 } }));
    assert.deepEqual(page, { total: String(own.length), current: "2", pages: String(Math.ceil(own.length / 2)), dataList: own.slice(2, 4) });
  });

  it("filters the same on the Open API", async () => {
    const auth = await bearer(emulator());
    const body = { pageNo: 1, pageSize: 100, proxyCategoryType: 1, proxyCheckStatus: 1 };
    const open = dataOf<PageShape<ProxyInfo>>(await call(emulator().openUrl, "/proxyInfo/page", { body, headers: auth }));
    assert.deepEqual(open.dataList, await list(body));
    assert.ok(open.dataList.length > 0);
  });

  it("answers 99001 for filters of the wrong type", async () => {
    for (const [field, value, text] of [
      ["proxyProviders", 7, "proxyProviders must be an array of integers"],
      ["proxyTypes", ["http"], "proxyTypes must be an array of integers"],
      ["proxyStatus", "normal", "proxyStatus must be an integer"],
      ["isCloudPhoneProxy", "yes", "isCloudPhoneProxy must be a boolean"],
      ["id", "abc", "id must be a numeric ID"],
    ] as const) {
      expectError(await call(emulator().localUrl, "/api/proxyInfo/page", { body: { [field]: value } }), 200, 99001, `Request parameter error: ${text}`);
    }
  });
});
