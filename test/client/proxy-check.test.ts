import assert from "node:assert/strict";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { checkProxies, checkProxy, type ProxyCheck, type ProxyToCheck } from "../../src/client";
import type { EmulatedProxy, ProxyInfo } from "../../src/emulator";
import { scaled } from "../../tools/test-limits";
import { useEmulator } from "../support/emulator";
import { settle } from "../support/node-red";
import { OUTCOME_MS, waitUntil } from "../support/wait-until";
import { emulatedProxy } from "../support/emulated-proxy";

const TIMEOUT_MS = 5_000;

/** Sockets this process holds, the client's and the emulator's sides both: a check must leave none behind once it has answered. */
function openSockets(): number {
  return process.getActiveResourcesInfo().filter((kind) => kind === "TCPSocketWrap" || kind === "TCPConnectWrap").length;
}

/** The client's proxy check against the emulator's real loopback proxies and IP echo. */
describe("client: checkProxy through the emulator's proxies", () => {
  const { emulator } = useEmulator({ profiles: 2, cloudPhones: 0, proxies: 8 });
  let baseline = 0;
  before(() => {
    baseline = openSockets();
  });
  afterEach(async () => {
    for (const proxy of emulator().emulatedProxies()) await emulator().setProxyCondition(proxy.id, {});
    await waitUntil(
      () => openSockets() <= baseline,
      () => `no socket left open by the checks (now ${openSockets()}, before ${baseline})`,
    );
  });

  const emulated = (protocol: EmulatedProxy["protocol"], withCredentials: boolean): EmulatedProxy => emulatedProxy(emulator(), protocol, withCredentials);
  const rowOf = (proxy: EmulatedProxy): ProxyInfo => {
    const row = emulator().data.proxies.find((candidate) => candidate.id === proxy.id);
    assert.ok(row);
    return row;
  };
  /** The row as proxyInfo/page lists it (password withheld), with the password its owner knows. */
  const asListed = (proxy: EmulatedProxy, password: string | null = proxy.credentials?.password ?? null): ProxyToCheck => ({ ...rowOf(proxy), password });
  const check = (proxy: ProxyToCheck, timeoutMs = TIMEOUT_MS): Promise<ProxyCheck> => checkProxy(proxy, { echoUrl: emulator().echoUrl, timeoutMs });
  const worked = (outcome: ProxyCheck, proxy: EmulatedProxy): void => {
    assert.deepEqual({ ...outcome, latencyMs: 0 }, { ok: true, latencyMs: 0, exitIp: proxy.exit.ip, country: proxy.exit.country, timezone: proxy.exit.timezone, error: null });
    assert.ok(typeof outcome.latencyMs === "number" && outcome.latencyMs >= 0);
  };
  const failedWith = (outcome: ProxyCheck, error: string | RegExp): void => {
    assert.deepEqual({ ...outcome, error: "" }, { ok: false, latencyMs: null, exitIp: null, country: null, timezone: null, error: "" });
    if (typeof error === "string") assert.equal(outcome.error, error);
    else assert.match(String(outcome.error), error);
  };

  it("reports the exit of a good HTTP proxy, with and without credentials", async () => {
    const open = emulated("http", false);
    worked(await check(asListed(open)), open);
    const guarded = emulated("http", true);
    worked(await check(asListed(guarded)), guarded);
  });

  it("reports the exit of a good SOCKS5 proxy with credentials, and of one without", async () => {
    const guarded = emulated("socks5", true);
    worked(await check(asListed(guarded)), guarded);
    const open = emulated("socks5", false);
    worked(await check(asListed(open)), open);
  });

  it("reaches an HTTPS row, and a named provider's row by its proxyType", async () => {
    const https = emulated("https", false);
    const row = rowOf(https);
    assert.notEqual(row.proxyProvider, 1, "the seeded HTTPS row without credentials is a Luminati one (provider 7, proxyType 1)");
    worked(await check(asListed(https)), https);
    worked(await check({ ...asListed(https), proxyProvider: 1, proxyType: undefined }), https);
  });

  it("says a dead proxy refused the connection", async () => {
    const proxy = emulated("http", false);
    await emulator().setProxyCondition(proxy.id, { dead: true });
    failedWith(await check(asListed(proxy)), "the proxy refused the connection");
  });

  it("says authentication failed for wrong credentials, without the credentials", async () => {
    const http = emulated("http", true);
    const socks = emulated("socks5", true);
    for (const [proxy, words] of [
      [http, "authentication failed (HTTP 407)"],
      [socks, "authentication failed (SOCKS5)"],
    ] as const) {
      const outcome = await check(asListed(proxy, "Wrong-Secret-42"));
      failedWith(outcome, words);
      assert.ok(!JSON.stringify(outcome).includes("Wrong-Secret-42"));
    }
    failedWith(await check(asListed(http, null)), "authentication failed (HTTP 407)");
    failedWith(await check({ ...asListed(socks), username: "", password: "" }), /^authentication failed \(SOCKS5/);
  });

  it("gives up on a slow proxy at its timeout, long before the proxy would answer", async () => {
    // Longer than the wait for sockets after each test: a socket held until the proxy answered would fail it.
    const delayMs = scaled(2 * OUTCOME_MS);
    for (const protocol of ["http", "socks5"] as const) {
      const proxy = emulated(protocol, true);
      await emulator().setProxyCondition(proxy.id, { delayMs });
      const started = performance.now();
      failedWith(await check(asListed(proxy), 300), "timed out after 300 ms");
      const took = performance.now() - started;
      assert.ok(took >= 300 && took < delayMs, `${protocol}: answered after ${Math.round(took)} ms`);
    }
  });

  it("reports where a proxy made to exit elsewhere exits", async () => {
    const proxy = emulated("socks5", true);
    const elsewhere = { ip: "192.0.2.77", country: "BR", timezone: "America/Sao_Paulo" };
    await emulator().setProxyCondition(proxy.id, { exit: elsewhere });
    const outcome = await check(asListed(proxy));
    assert.deepEqual([outcome.ok, outcome.exitIp, outcome.country, outcome.timezone], [true, elsewhere.ip, elsewhere.country, elsewhere.timezone]);
  });

  it("says why an echo reply is bad, why TLS failed, and why a row cannot be checked", async () => {
    const proxy = asListed(emulated("http", false));
    const echo = new URL(emulator().echoUrl);
    failedWith(await checkProxy(proxy, { echoUrl: `${echo.origin}/elsewhere`, timeoutMs: TIMEOUT_MS }), "bad echo reply: HTTP 404");
    failedWith(await checkProxy(proxy, { echoUrl: `${emulator().localUrl}/demo`, timeoutMs: TIMEOUT_MS }), "bad echo reply: the reply is not JSON");
    const served = `${emulator().localUrl}/emulator/served`;
    failedWith(await checkProxy(proxy, { echoUrl: served, timeoutMs: TIMEOUT_MS }), "bad echo reply: the reply has no IP (ip or query)");
    failedWith(await checkProxy(proxy, { echoUrl: served, timeoutMs: TIMEOUT_MS, fields: { ip: "profiles.ip" } }), 'bad echo reply: the reply has no IP at "profiles.ip"');
    const exit = emulated("http", false).exit;
    const viaPaths = await checkProxy(proxy, { echoUrl: emulator().echoUrl, timeoutMs: TIMEOUT_MS, fields: { country: "timezone", timezone: "country" } });
    assert.deepEqual([viaPaths.exitIp, viaPaths.country, viaPaths.timezone], [exit.ip, exit.timezone, exit.country], "field paths replace the common names");
    failedWith(await checkProxy(proxy, { echoUrl: emulator().echoUrl.replace("http:", "https:"), timeoutMs: TIMEOUT_MS }), /^TLS failed \(\w+\)$/);
    failedWith(await checkProxy(proxy, { echoUrl: "not a url", timeoutMs: TIMEOUT_MS }), "echoUrl is not a URL");
    const ssh = emulator().data.proxies.find((row) => row.proxyType === 3);
    const hostless = emulator().data.proxies.find((row) => row.proxyIp === "");
    assert.ok(ssh && hostless);
    failedWith(await check(ssh), "this proxy's protocol (SSH) cannot be checked: HTTP, HTTPS and SOCKS5 can");
    failedWith(await check(hostless), "proxyPort must be from 1 to 65535");
    failedWith(await check({ proxyIp: "127.0.0.1", proxyPort: 1080 }), /names no protocol/);
    // A row built by a user's code with an address that is not text: its fields are named, not the echo URL.
    failedWith(await check({ proxyIp: 127001 as unknown as string, proxyPort: 1080, proxyProvider: 0 }), "the proxy's fields are not usable (proxyIp, proxyPort)");
  });
});

/** Many proxies at once: a bounded number in flight, each with its own timeout, the outcomes in order. */
describe("client: checkProxies", () => {
  const { emulator } = useEmulator({ profiles: 2, cloudPhones: 0, proxies: 8 });
  let echo: Server;
  let echoUrl = "";
  let inFlight = 0;
  let mostInFlight = 0;
  let holding = true;
  const held: ServerResponse[] = [];
  /** ip-api's shape. */
  const answer = (res: ServerResponse): void => {
    inFlight--;
    res.end(JSON.stringify({ query: "203.0.113.9", countryCode: "NL", timezone: "Europe/Amsterdam" }));
  };
  before(async () => {
    echo = createServer((_req: IncomingMessage, res: ServerResponse) => {
      inFlight++;
      mostInFlight = Math.max(mostInFlight, inFlight);
      if (holding) held.push(res);
      else answer(res);
    });
    await new Promise<void>((resolve) => echo.listen(0, "127.0.0.1", resolve));
    echoUrl = `http://127.0.0.1:${(echo.address() as AddressInfo).port}/`;
  });
  after(async () => {
    echo.closeAllConnections();
    await new Promise<void>((resolve) => echo.close(() => resolve()));
  });

  it("checks at most `concurrency` proxies at once and answers in the proxies' order, a dead one failing alone", async () => {
    const proxies = emulator().emulatedProxies();
    const rows = proxies.map((proxy) => ({ ...emulator().data.proxies.find((row) => row.id === proxy.id), password: proxy.credentials?.password }) as ProxyToCheck);
    const dead = proxies[2];
    assert.ok(dead && rows.length === 6);
    await emulator().setProxyCondition(dead.id, { dead: true });
    const many = [...rows, ...rows];
    const outcomes = checkProxies(many, { echoUrl, timeoutMs: scaled(OUTCOME_MS), concurrency: 3 });
    // The echo holds every request: three arrive, and no fourth while they wait.
    await waitUntil(
      () => held.length === 3,
      () => `three checks at the echo (${held.length})`,
    );
    await settle(500);
    assert.equal(held.length, 3, "no more than three checks at once");
    holding = false;
    for (const res of held.splice(0)) answer(res);
    assert.deepEqual(
      (await outcomes).map((outcome) => outcome.error ?? `${outcome.exitIp} ${outcome.country} ${outcome.timezone}`),
      many.map((_, index) => (index % 6 === 2 ? "the proxy refused the connection" : "203.0.113.9 NL Europe/Amsterdam")),
    );
    assert.equal(mostInFlight, 3);
    await emulator().setProxyCondition(dead.id, {});
  });
});
