import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { MoreLoginClient, MoreLoginError } from "../../src/client";
import { clientFor, rejection, useEmulator } from "../support/emulator";

describe("client: HTTPS_PROXY and NO_PROXY", () => {
  const { emulator } = useEmulator();
  let proxy: Server;
  let proxyUrl = "";
  const tunnels: string[] = [];
  const saved: Record<string, string | undefined> = {};
  const names = ["HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy", "NO_PROXY", "no_proxy"];

  before(async () => {
    proxy = createServer((req, res) => {
      tunnels.push(`GET ${String(req.url)}`);
      res.writeHead(502).end();
    });
    proxy.on("connect", (req, socket) => {
      tunnels.push(String(req.url));
      socket.end("HTTP/1.1 502 Bad Gateway\r\n\r\n");
    });
    await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
    proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    for (const name of names) saved[name] = process.env[name];
  });
  after(async () => {
    for (const name of names) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
    await new Promise<void>((resolve) => proxy.close(() => resolve()));
  });
  beforeEach(() => {
    tunnels.length = 0;
    for (const name of names) delete process.env[name];
  });

  const remoteClient = (): MoreLoginClient => new MoreLoginClient({ openUrl: "https://api.morelogin.test", apiId: "id", apiKey: "key", retry: { attempts: 1 }, timeouts: { token: 3_000 } });

  it("sends Open API calls to a remote host through the proxy HTTPS_PROXY names", async () => {
    process.env.HTTPS_PROXY = proxyUrl;
    const client = remoteClient();
    try {
      const error = await rejection(client.call("listApps", { pageNum: 1 }));
      assert.ok(error instanceof MoreLoginError);
      assert.deepEqual(tunnels, ["api.morelogin.test:443"]);
    } finally {
      await client.close();
    }
  });

  it("goes direct to a host NO_PROXY lists", async () => {
    process.env.HTTPS_PROXY = proxyUrl;
    process.env.NO_PROXY = "localhost,.morelogin.test";
    const client = remoteClient();
    try {
      await rejection(client.call("listApps", { pageNum: 1 }));
      assert.deepEqual(tunnels, []);
    } finally {
      await client.close();
    }
  });

  it("never sends loopback traffic (the desktop client, the emulator) through a proxy", async () => {
    process.env.HTTPS_PROXY = proxyUrl;
    process.env.HTTP_PROXY = proxyUrl;
    const client = clientFor(emulator());
    try {
      await client.call("listApps", { pageNum: 1 });
      await client.call("listTags");
      assert.deepEqual(tunnels, []);
    } finally {
      await client.close();
    }
  });

  it("a proxied call leaves the headers of other clients alone", async () => {
    process.env.HTTPS_PROXY = proxyUrl;
    const remote = remoteClient();
    const local = clientFor(emulator());
    try {
      await rejection(remote.call("listApps", { pageNum: 1 }));
      assert.deepEqual(tunnels, ["api.morelogin.test:443"]);
      await local.call("listApps", { pageNum: 1 });
      const host = new URL(emulator().openUrl).host;
      assert.deepEqual(
        emulator()
          .requestLog.slice(-2)
          .map((entry) => `${entry.path} ${String(entry.headers.host)}`),
        [`/oauth2/token ${host}`, `/cloudphone/app/page ${host}`],
      );
    } finally {
      await remote.close();
      await local.close();
    }
  });

  it("a proxy address that is not a URL is a clear network error, every time", async () => {
    process.env.HTTPS_PROXY = "10.0.0.1:3128";
    const client = remoteClient();
    try {
      for (let i = 0; i < 2; i++) {
        const error = await rejection(client.call("listApps", { pageNum: 1 }));
        assert.ok(error instanceof MoreLoginError);
        assert.equal(error.kind, "network");
        assert.equal(error.message, "Open API token request failed: cannot reach the Open API at https://api.morelogin.test (ERR_INVALID_URL)");
      }
      assert.deepEqual(tunnels, []);
    } finally {
      await client.close();
    }
  });
});
