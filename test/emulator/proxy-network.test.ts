import assert from "node:assert/strict";
import type { Socket } from "node:net";
import { startEmulator, type EmulatedProxy } from "../../src/emulator";
import { call } from "../support/http";
import { exchange, httpAnswer, openSocket, socksConnect, socksCredentials } from "../support/proxy-wire";
import { useEmulator } from "../support/emulator";
import { waitUntil } from "../support/wait-until";
import { emulatedProxy } from "../support/emulated-proxy";

function jsonBody(answer: string): unknown {
  return JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4));
}

function basic(username: string, password: string): string {
  return `Proxy-Authorization: Basic ${Buffer.from(`${username}:${password}`).toString("base64")}\r\n`;
}

/** The emulator's network: a loopback proxy behind each seeded proxy row with an address, and the IP-echo route that reports its exit. */
describe("emulator: the proxy network and its IP-echo route", () => {
  const { emulator } = useEmulator({ profiles: 4, cloudPhones: 6, proxies: 8 });
  const sockets: Socket[] = [];
  afterEach(async () => {
    for (const socket of sockets.splice(0)) socket.destroy();
    for (const proxy of emulator().emulatedProxies()) await emulator().setProxyCondition(proxy.id, {});
  });
  const echoPort = (): number => Number(new URL(emulator().echoUrl).port);
  const getEcho = (): string => `GET /ip HTTP/1.1\r\nHost: 127.0.0.1:${echoPort()}\r\nConnection: close\r\n\r\n`;
  const proxyOf = (protocol: EmulatedProxy["protocol"], withCredentials: boolean): EmulatedProxy => emulatedProxy(emulator(), protocol, withCredentials);
  const credentialsOf = (proxy: EmulatedProxy): { username: string; password: string } => {
    assert.ok(proxy.credentials);
    return proxy.credentials;
  };
  const open = async (port: number): Promise<Socket> => {
    const socket = await openSocket(port);
    sockets.push(socket);
    return socket;
  };
  const send = async (socket: Socket, text: string): Promise<string> => {
    const answer = httpAnswer(socket);
    socket.write(text);
    return answer;
  };
  /** CONNECT through an HTTP proxy to the echo route; the proxy's answer, and the echo's when the tunnel opened. */
  const tunnelEcho = async (proxy: EmulatedProxy, auth = ""): Promise<{ connect: string; echo?: unknown }> => {
    const socket = await open(proxy.port);
    const connect = await send(socket, `CONNECT 127.0.0.1:${echoPort()} HTTP/1.1\r\nHost: 127.0.0.1:${echoPort()}\r\n${auth}\r\n`);
    if (!connect.startsWith("HTTP/1.1 200")) return { connect };
    return { connect, echo: jsonBody(await send(socket, getEcho())) };
  };
  /** SOCKS5 greeting, credentials when given, CONNECT to the echo route and GET /ip: each step's answer. */
  const socksEcho = async (proxy: EmulatedProxy, credentials?: { username: string; password: string }): Promise<{ method: number[]; auth?: number[]; reply?: number[]; echo?: unknown }> => {
    const socket = await open(proxy.port);
    const method = [...(await exchange(socket, Buffer.from(credentials ? [5, 1, 2] : [5, 1, 0]), 2))];
    let auth: number[] | undefined;
    if (credentials) {
      auth = [...(await exchange(socket, socksCredentials(credentials.username, credentials.password), 2))];
      if (auth[1] !== 0) return { method, auth };
    } else if (method[1] !== 0) return { method };
    const reply = [...(await exchange(socket, socksConnect("127.0.0.1", echoPort()), 10))];
    return { method, auth, reply, echo: jsonBody(await send(socket, getEcho())) };
  };

  it("points every seeded row with an address and an HTTP, HTTPS or SOCKS5 type at its listener on 127.0.0.1, and the phones' copies too", () => {
    const rows = emulator().data.proxies;
    const emulated = new Map(
      emulator()
        .emulatedProxies()
        .map((proxy) => [proxy.id, proxy]),
    );
    for (const row of rows) {
      const proxy = emulated.get(row.id);
      if ([0, 1, 2].includes(row.proxyType) && row.proxyPort !== null) {
        assert.ok(proxy, `${row.proxyName} is emulated`);
        assert.deepEqual([row.proxyIp, row.proxyPort, proxy.protocol], ["127.0.0.1", proxy.port, ["http", "https", "socks5"][row.proxyType]]);
        assert.deepEqual([proxy.exit.ip, proxy.exit.country], [row.exportIp, row.countryCode]);
      } else assert.equal(proxy, undefined, `${row.proxyName} (type ${row.proxyType}, address "${row.proxyIp}") keeps its row`);
    }
    assert.ok(
      rows.some((row) => row.proxyType === 3 && row.proxyIp.startsWith("192.168.")),
      "the SSH row keeps its LAN address",
    );
    const phones = emulator().data.cloudPhones.filter((phone) => phone.proxy !== null && emulated.has(phone.proxy.id));
    assert.ok(phones.length > 0);
    for (const phone of phones) assert.deepEqual([phone.proxy?.proxyIp, phone.proxy?.proxyPort], ["127.0.0.1", emulated.get(phone.proxy?.id ?? "")?.port]);
  });

  it("gives each exit a time zone of its country", () => {
    const zones: Record<string, string[]> = { US: ["America/Los_Angeles", "America/New_York"], GB: ["Europe/London"], DE: ["Europe/Berlin"], JP: ["Asia/Tokyo"], SG: ["Asia/Singapore"] };
    for (const proxy of emulator().emulatedProxies()) assert.ok(zones[proxy.exit.country]?.includes(proxy.exit.timezone), JSON.stringify(proxy.exit));
  });

  it("echoes the caller's own address when the request came direct", async () => {
    const answer = await call(emulator().echoUrl, "", { method: "GET" });
    assert.equal(answer.status, 200);
    assert.deepEqual(answer.json, { ip: "127.0.0.1", bogon: true });
  });

  it("tunnels through an HTTP proxy with CONNECT, and through one with credentials only when they are right (407 otherwise)", async () => {
    const open = proxyOf("http", false);
    assert.deepEqual((await tunnelEcho(open)).echo, open.exit);
    const guarded = proxyOf("http", true);
    const { username, password } = credentialsOf(guarded);
    assert.deepEqual((await tunnelEcho(guarded, basic(username, password))).echo, guarded.exit);
    for (const auth of ["", basic(username, `${password}x`), basic(`${username}x`, password)]) {
      const refused = await tunnelEcho(guarded, auth);
      assert.match(refused.connect, /^HTTP\/1\.1 407 /);
      assert.match(refused.connect, /Proxy-Authenticate: Basic/i);
      assert.equal(refused.echo, undefined);
    }
  });

  it("forwards a plain request in absolute form, checking credentials the same way", async () => {
    const guarded = proxyOf("https", true);
    const { username, password } = credentialsOf(guarded);
    const absolute = (auth: string): string => `GET http://127.0.0.1:${echoPort()}/ip HTTP/1.1\r\nHost: 127.0.0.1:${echoPort()}\r\n${auth}Connection: close\r\n\r\n`;
    const answer = await send(await open(guarded.port), absolute(basic(username, password)));
    assert.match(answer, /^HTTP\/1\.1 200 /);
    assert.deepEqual(jsonBody(answer), guarded.exit);
    assert.match(await send(await open(guarded.port), absolute(basic(username, "wrong"))), /^HTTP\/1\.1 407 /);
  });

  it("answers SOCKS5 CONNECT (RFC 1928) with username and password (RFC 1929) when the row has them, and refuses wrong ones with 0x01", async () => {
    const open = proxyOf("socks5", false);
    const plain = await socksEcho(open);
    assert.deepEqual([plain.method, plain.reply?.slice(0, 2), plain.echo], [[5, 0], [5, 0], open.exit]);
    const guarded = proxyOf("socks5", true);
    const credentials = credentialsOf(guarded);
    const good = await socksEcho(guarded, credentials);
    assert.deepEqual([good.method, good.auth, good.reply?.slice(0, 2), good.echo], [[5, 2], [1, 0], [5, 0], guarded.exit]);
    const wrong = await socksEcho(guarded, { ...credentials, password: `${credentials.password}x` });
    assert.deepEqual([wrong.method, wrong.auth, wrong.echo], [[5, 2], [1, 1], undefined]);
    assert.deepEqual((await socksEcho(guarded)).method, [5, 0xff], "no acceptable method without credentials");
  });

  it("makes a proxy dead (refused), slow (each connection waits) or exit elsewhere through the control route, and back", async () => {
    const proxy = proxyOf("http", false);
    const control = (body: unknown): Promise<{ status: number; json: unknown }> => call(emulator().localUrl, `/emulator/proxies/${proxy.id}`, { body });
    assert.equal((await control({ dead: true })).status, 200);
    await assert.rejects(openSocket(proxy.port), /ECONNREFUSED/);
    const elsewhere = { ip: "192.0.2.44", country: "FR", timezone: "Europe/Paris" };
    const answer = await control({ exit: elsewhere, delayMs: 300 });
    assert.deepEqual((answer.json as EmulatedProxy).exit, elsewhere);
    const started = performance.now();
    assert.deepEqual((await tunnelEcho(proxy)).echo, elsewhere, "revived on its port, exiting elsewhere");
    assert.ok(performance.now() - started >= 300, "the connection waited its delay");
    assert.equal((await control({})).status, 200);
    assert.deepEqual((await tunnelEcho(proxy)).echo, proxy.exit);
  });

  it("lists the proxies by name or ID, and refuses an unknown proxy or a bad condition", async () => {
    const listed = await call(emulator().localUrl, "/emulator/proxies", { method: "GET" });
    assert.deepEqual(listed.json, emulator().emulatedProxies());
    const byName = await call(emulator().openUrl, "/emulator/proxies/Proxy%20001", { method: "GET" });
    assert.equal((byName.json as EmulatedProxy).proxyName, "Proxy 001");
    assert.equal((await call(emulator().localUrl, "/emulator/proxies/nope", { body: { dead: true } })).status, 404);
    for (const [body, message] of [
      [{ dead: "yes" }, /dead must be a boolean/],
      [{ delayMs: -1 }, /delayMs must be/],
      [{ exit: { ip: 5 } }, /exit\.ip must be/],
      [{ slow: true }, /unknown proxy condition field: slow/],
      ["not json", /JSON/],
    ] as const) {
      const refused = await call(emulator().localUrl, "/emulator/proxies/Proxy 001".replace(" ", "%20"), { body });
      assert.equal(refused.status, 400);
      assert.match(String((refused.json as { error: string }).error), message);
    }
  });
});

describe("emulator: proxy conditions as options, and the network's end", () => {
  it("starts a proxy dead or exiting elsewhere by option, refuses an option naming no proxy, and closes every listener with the emulator", async () => {
    const servers = (): number => process.getActiveResourcesInfo().filter((kind) => kind === "TCPServerWrap").length;
    const before = servers();
    await assert.rejects(startEmulator({ proxyConditions: { "Proxy 999": { dead: true } } }), /names no emulated proxy: "Proxy 999"/);
    await waitUntil(
      () => servers() === before,
      () => `a refused start leaves no listener (${servers()} listening, ${before} before)`,
    );
    await assert.rejects(startEmulator({ proxyConditions: { "Proxy 001": { delayMs: "slow" } as never } }), /proxyConditions\["Proxy 001"\]: delayMs must be/);
    const emulator = await startEmulator({ proxyConditions: { "Proxy 001": { dead: true }, "Proxy 002": { exit: { country: "JP" } } } });
    try {
      const [first, second] = emulator.emulatedProxies();
      assert.ok(first && second);
      await assert.rejects(openSocket(first.port), /ECONNREFUSED/);
      assert.deepEqual(second.exit.country, "JP");
      (await openSocket(second.port)).destroy();
    } finally {
      await emulator.close();
    }
    await waitUntil(
      () => servers() === before,
      () => `no proxy, echo or API listener is left (${servers()} listening, ${before} before)`,
    );
  });
});
