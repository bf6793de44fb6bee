import assert from "node:assert/strict";
import { call, dataOf, envelopeOf, expectError, type PageShape } from "../support/http";
import { exitOf, exitUnlessStarted, runCli as run, waitFor } from "../support/cli";
import { openSocket } from "../support/proxy-wire";

describe("emulator: CLI", function () {
  // Every test starts `node --import tsx` cold; with coverage to write, on a busy machine, that is slow.
  this.timeout(120_000);
  it("prints its URLs and credentials, serves requests and exits 0 on SIGINT", async () => {
    const child = run(["--local-port", "0", "--open-port", "0", "--profiles", "7", "--local-token", "cli-token"]);
    const exited = exitOf(child);
    const out = await waitFor(child, /Press Ctrl\+C/);
    const localUrl = /Local API:\s+(http:\/\/\S+)/.exec(out)?.[1];
    const openUrl = /Open API:\s+(http:\/\/\S+)/.exec(out)?.[1];
    assert.ok(localUrl && openUrl, out);
    assert.match(out, /API ID:\s+1690000000000001/);
    assert.match(out, /API key:\s+emulator-api-key/);
    assert.match(out, /Local token:\s+cli-token/);
    assert.match(out, /curl .*\/api\/env\/page/);
    const page = dataOf<PageShape<unknown>>(await call(localUrl, "/api/env/page", { body: {}, headers: { Authorization: "cli-token" } }));
    assert.equal(page.total, "7");
    child.kill("SIGINT");
    const { code } = await exited;
    assert.equal(code, 0);
  });

  it("rate-limits with the published 429, with Retry-After only when --rate-limit-retry-after asks", async () => {
    for (const [flags, retryAfter] of [
      [[], null],
      [["--rate-limit-retry-after"], /^(59|60)$/],
    ] as const) {
      const child = run(["--local-port", "0", "--open-port", "0", "--rate-limit", "1", ...flags]);
      const exited = exitOf(child);
      const localUrl = /Local API:\s+(http:\/\/\S+)/.exec(await waitFor(child, /Press Ctrl\+C/))?.[1];
      assert.ok(localUrl);
      dataOf(await call(localUrl, "/api/env/page", { body: {} }));
      const limited = await call(localUrl, "/api/env/page", { body: {} });
      expectError(limited, 429, 429, "Rate limit exceeded");
      if (retryAfter === null) assert.equal(limited.headers.get("retry-after"), null);
      else assert.match(limited.headers.get("retry-after") ?? "", retryAfter);
      child.kill("SIGTERM");
      assert.equal((await exited).code, 0);
    }
  });

  it("acts as MoreLogin's server edition with --login, and exits 0 on SIGTERM too", async () => {
    const child = run(["--local-port", "0", "--open-port", "0", "--login"]);
    const exited = exitOf(child);
    try {
      const out = await waitFor(child, /Press Ctrl\+C/);
      assert.match(out, /Login:\s+required/);
      assert.match(out, /curl .*\/api\/user\/login/);
      const localUrl = /Local API:\s+(http:\/\/\S+)/.exec(out)?.[1];
      assert.ok(localUrl, out);
      expectError(await call(localUrl, "/api/env/page", { body: {} }), 200, 35001);
      assert.equal(envelopeOf(await call(localUrl, "/api/user/login", { body: { apiId: "1690000000000001", apiKey: "emulator-api-key" } })).code, 0);
      dataOf(await call(localUrl, "/api/env/page", { body: {} }));
    } finally {
      child.kill("SIGTERM");
    }
    assert.equal((await exited).code, 0);
  });

  it("takes the cloud phone and automation timings, and says so when it starts; --phones-on 0 starts every phone off", async () => {
    const child = run(["--local-port", "0", "--open-port", "0", "--phone-boot-ms", "600000", "--automation-step-ms", "5000", "--phones-on", "0"]);
    const exited = exitOf(child);
    try {
      const out = await waitFor(child, /Press Ctrl\+C/);
      assert.match(out, /Timings:\s+phone boot 600000 ms, automation step 5000 ms, app install 1000 ms/);
      const localUrl = /Local API:\s+(http:\/\/\S+)/.exec(out)?.[1];
      assert.ok(localUrl);
      const phones = dataOf<PageShape<{ id: string; envStatus: number }>>(await call(localUrl, "/api/cloudphone/page", { body: { pageSize: 100 } })).dataList;
      assert.deepEqual(
        phones.map((p) => p.envStatus),
        phones.map(() => 2),
      );
      const off = phones[0];
      assert.ok(off);
      dataOf(await call(localUrl, "/api/cloudphone/powerOn", { body: { id: off.id } }));
      assert.equal(dataOf<{ envStatus: number }>(await call(localUrl, "/api/cloudphone/info", { body: { id: off.id } })).envStatus, 3, "booting");
    } finally {
      child.kill("SIGTERM");
    }
    assert.equal((await exited).code, 0);
  });

  it("serves the IP echo and the proxies' control route, says where, and exits 0 with its proxies open", async () => {
    const child = run(["--local-port", "0", "--open-port", "0"]);
    const exited = exitOf(child);
    try {
      const out = await waitFor(child, /Press Ctrl\+C/);
      const echoUrl = /IP echo:\s+(http:\/\/127\.0\.0\.1:\d+\/ip)/.exec(out)?.[1];
      const control = /Proxies:\s+6 on 127\.0\.0\.1 .*; (http:\/\/\S+\/emulator\/proxies) lists them/.exec(out)?.[1];
      assert.ok(echoUrl && control, out);
      assert.deepEqual((await call(echoUrl, "", { method: "GET" })).json, { ip: "127.0.0.1", bogon: true });
      const proxies = (await call(control, "", { method: "GET" })).json as { port: number }[];
      assert.equal(proxies.length, 6);
      // A connection held open to a proxy must not keep the emulator from exiting.
      const held = await openSocket(proxies[0]?.port ?? 0);
      held.on("error", () => undefined);
    } finally {
      child.kill("SIGTERM");
    }
    assert.equal((await exited).code, 0);
  });

  it("says the default timings when none are given", async () => {
    const child = run(["--local-port", "0", "--open-port", "0"]);
    const exited = exitOf(child);
    try {
      assert.match(await waitFor(child, /Press Ctrl\+C/), /Timings:\s+phone boot 3000 ms, automation step 3000 ms, app install 1000 ms/);
    } finally {
      child.kill("SIGTERM");
    }
    assert.equal((await exited).code, 0);
  });

  for (const args of [
    ["--bogus"],
    ["--local-port", "abc"],
    ["--latency", "50"],
    ["--rate-limit", "-1"],
    ["--phone-boot-ms", "soon"],
    ["--automation-step-ms", "-5"],
    ["--phones-on", "all"],
    ["--echo-port", "70000"],
  ]) {
    it(`exits 2 with a clear error for ${args.join(" ")}`, async function () {
      // A cold `node --import tsx` start, with coverage to write, can be slow on a busy machine.
      this.timeout(120_000);
      const { code, stderr, started } = await exitUnlessStarted(run(args));
      assert.equal(started, false, "the CLI started instead of refusing its arguments");
      assert.equal(code, 2);
      assert.match(stderr, /^morelogin-emulator: .+/);
    });
  }

  it("prints help and exits 0", async () => {
    const { code, stdout } = await exitOf(run(["--help"]));
    assert.equal(code, 0);
    assert.match(stdout, /--local-port/);
    assert.match(stdout, /40100/);
    assert.match(stdout, /--rate-limit-retry-after/);
    assert.match(stdout, /--phone-boot-ms/);
    assert.match(stdout, /--automation-step-ms/);
    assert.match(stdout, /--app-install-ms/);
    assert.match(stdout, /--phones-on/);
  });
});
