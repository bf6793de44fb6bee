import assert from "node:assert/strict";
import { createServer, request, type Server } from "node:http";
import { connect, type AddressInfo } from "node:net";
import type { NodeMessage } from "node-red";
import { useEmulator } from "../support/emulator";
import { CONFIG_ID, TAB, configNode, credentialsFor, helper, loadFlow, useNodeRed, type FlowNode } from "../support/node-red";
import { SecretScanner } from "../support/secrets";
import { hostileMessage, hostileValues, mulberry32 } from "./hostile-values";

const PER_TYPE = 2_000;
const CONCURRENCY = 50;
/** How long no message may end before the run counts as stalled (a hung node, not a busy machine). */
const STALL_MS = 30_000;
const TYPES: Array<[string, Record<string, unknown>]> = [
  ["morelogin-list-profiles", { pageNo: "page", pageNoType: "msg", pageSize: "", pageSizeType: "num", envName: "payload.envName", envNameType: "msg", output: "array" }],
  ["morelogin-list-cloud-phones", { output: "split" }],
  ["morelogin-list-proxies", { all: true, maxItems: 20 }],
  ["morelogin-list-groups", {}],
  ["morelogin-list-tags", {}],
  ["morelogin-list-apps", {}],
  ["morelogin-start-profile", { envId: "", envIdType: "str" }],
  ["morelogin-close-profile", { envId: "payload.envId", envIdType: "msg" }],
  ["morelogin-request", { api: "local", method: "POST", path: "path", pathType: "msg" }],
  // The request node once more, on the Open API (bearer token, another base URL).
  ["morelogin-request", { api: "open", method: "POST", path: "path", pathType: "msg" }],
  ["morelogin-profile-status", { envId: "payload.envId", envIdType: "msg", waitFor: "" }],
  ["morelogin-profile", { action: "detail", envId: "payload.envId", envIdType: "msg" }],
  ["morelogin-cloud-phone", { api: "local", action: "info", phoneId: "payload.id", phoneIdType: "msg" }],
  ["morelogin-automation", { api: "open", action: "runs", taskId: "payload.taskId", taskIdType: "msg" }],
];

function prototypeSnapshot(): string {
  return JSON.stringify(Object.getOwnPropertyNames(Object.prototype).sort());
}

describe("reliability: hostile input", function () {
  // 28,000 messages of pure CPU work: on a machine shared with the other suites they take what they take.
  // A hang is caught within STALL_MS by the watchdog below, not by this bound.
  this.timeout(1_800_000);
  let canary: Server;
  let canaryUrl = "";
  let canaryHits = 0;
  const prototypeBefore = prototypeSnapshot();

  useNodeRed();
  const { emulator } = useEmulator({ profiles: 40, localToken: "fuzz-local-token-8812" });
  before(async () => {
    canary = createServer((req, res) => {
      canaryHits++;
      req.resume();
      res.end("{}");
    });
    await new Promise<void>((resolve) => canary.listen(0, "127.0.0.1", resolve));
    canaryUrl = `http://127.0.0.1:${(canary.address() as AddressInfo).port}`;
  });
  after(async () => {
    await new Promise<void>((resolve) => canary.close(() => resolve()));
  });

  it(`${PER_TYPE} hostile messages per node type: one outcome each, no crash, no other host, prototype untouched`, async () => {
    // Pacing off: 20,000 messages at 120 a minute would take hours; this test is about outcomes.
    const flow: FlowNode[] = [{ id: TAB, type: "tab" }, configNode(emulator(), { localRpm: "0", openRpm: "0", concurrency: "0" })];
    TYPES.forEach(([type, props], index) => {
      flow.push({ id: `fuzz-${index}`, type, z: TAB, server: CONFIG_ID, wires: [["out"]], ...props });
    });
    flow.push(
      { id: "out", z: TAB, type: "helper" },
      { id: "catch1", z: TAB, type: "catch", scope: null, uncaught: false, wires: [["caught"]] },
      { id: "caught", z: TAB, type: "helper" },
      // A list in split mode that finds nothing sends nothing: its done() is seen by a Complete node.
      { id: "complete1", z: TAB, type: "complete", scope: TYPES.map((_entry, index) => `fuzz-${index}`), uncaught: false, wires: [["completed"]] },
      { id: "completed", z: TAB, type: "helper" },
    );
    await loadFlow(flow, credentialsFor(emulator()));
    const scanner = new SecretScanner([emulator().credentials.apiKey, "fuzz-local-token-8812"]);
    const values = hostileValues(canaryUrl, [emulator().data.profiles[0]?.id, emulator().data.profiles[1]?.id, emulator().data.cloudPhones[0]?.id, 1, 5]);
    const random = mulberry32(20261122);
    const total = PER_TYPE * TYPES.length;
    const outcomes = new Map<number, { outputs: number; errors: number; completions: number }>();
    const errorTexts = new Map<string, number>();
    let unhandled = 0;
    const onUnhandled = (): void => {
      unhandled++;
    };
    process.on("unhandledRejection", onUnhandled);
    const warnings: string[] = [];
    const onWarning = (warning: Error): void => {
      warnings.push(`${warning.name}: ${warning.message}`);
    };
    process.on("warning", onWarning);

    await new Promise<void>((resolve, reject) => {
      let sent = 0;
      let done = 0;
      // Stalled means no message ended for a while, not a slow machine: the watchdog restarts with every outcome.
      let lastEnded = Date.now();
      const watchdog = setInterval(() => {
        if (Date.now() - lastEnded > STALL_MS) reject(new Error(`stalled: ${done}/${total} messages ended, none in the last ${STALL_MS / 1000} s`));
      }, 1_000);
      const ended = (msg: NodeMessage & { fuzz?: number }, kind: "output" | "error" | "completion"): void => {
        if (msg.fuzz === undefined) return;
        const entry = outcomes.get(msg.fuzz) ?? { outputs: 0, errors: 0, completions: 0 };
        const first = entry.errors + entry.completions === 0 && (kind !== "output" || entry.outputs === 0);
        if (kind === "output") entry.outputs++;
        else if (kind === "error") entry.errors++;
        else entry.completions++;
        outcomes.set(msg.fuzz, entry);
        scanner.scan(msg);
        // An input ends once: with its first output, its error, or (nothing sent) its completion.
        if (!first) return;
        done++;
        lastEnded = Date.now();
        if (sent < total) next();
        else if (done === total) {
          clearInterval(watchdog);
          resolve();
        }
      };
      helper.getNode("out").on("input", (msg: NodeMessage) => ended(msg, "output"));
      helper.getNode("caught").on("input", (msg: NodeMessage) => {
        const text = String((msg as { error?: { message?: unknown } }).error?.message);
        // The error's shape, without the values that vary (IDs, lengths, request IDs).
        const shape = text.replace(/\d+/g, "N").slice(0, 160);
        errorTexts.set(shape, (errorTexts.get(shape) ?? 0) + 1);
        ended(msg, "error");
      });
      helper.getNode("completed").on("input", (msg: NodeMessage) => {
        if (msg.fuzz !== undefined && !(outcomes.get(msg.fuzz as number)?.outputs ?? 0)) ended(msg, "completion");
      });
      const next = (): void => {
        try {
          const seq = sent++;
          const node = helper.getNode(`fuzz-${seq % TYPES.length}`);
          node.receive({ ...hostileMessage(random, values), fuzz: seq } as NodeMessage);
          if (seq % 500 === 0) scanner.scanRuntime(node);
        } catch (error) {
          clearInterval(watchdog);
          reject(error instanceof Error ? error : new Error(String(error)));
        }
      };
      for (let i = 0; i < CONCURRENCY; i++) next();
    });
    process.off("unhandledRejection", onUnhandled);
    process.off("warning", onWarning);
    scanner.scanRuntime(helper.getNode("out"));

    const errorsAndOutputs = [...outcomes.values()].filter((entry) => entry.errors > 0 && entry.outputs > 0).length;
    const doubleErrors = [...outcomes.values()].filter((entry) => entry.errors > 1).length;
    const silent = [...outcomes.values()].filter((entry) => entry.completions > 0).length;
    // Every path the emulator was asked for stays under the API's base: no dot segments, even decoded.
    const routes = Object.keys(emulator().stats.requests);
    const escaped = routes.filter((route) => {
      const path = route.split(" ")[2] ?? "";
      let decoded = path;
      try {
        decoded = decodeURIComponent(path);
      } catch {
        // a broken escape is checked as it is
      }
      return !path.startsWith("/") || path.startsWith("//") || decoded.includes("\\") || decoded.split("/").some((segment) => segment === "." || segment === "..");
    });
    // Per node: how many of its messages came out and how many failed (each node gets both).
    const perNode = TYPES.map((_entry, index) => {
      const entries = [...outcomes.entries()].filter(([seq]) => seq % TYPES.length === index).map(([, entry]) => entry);
      return { outputs: entries.filter((entry) => entry.outputs > 0).length, errors: entries.filter((entry) => entry.errors > 0).length };
    });
    const figures = {
      messages: total,
      ended: outcomes.size,
      withOutput: [...outcomes.values()].filter((entry) => entry.outputs > 0).length,
      withError: [...outcomes.values()].filter((entry) => entry.errors > 0).length,
      errorsAndOutputs,
      doubleErrors,
      endedWithoutOutput: silent,
      canaryHits,
      distinctPathsAtEmulator: routes.length,
      pathsOutsideTheApi: escaped.length,
      distinctErrorTexts: errorTexts.size,
      perNode: perNode.map((entry, index) => `${TYPES[index]?.[0].replace("morelogin-", "")}: ${entry.outputs} out / ${entry.errors} caught`),
      unhandled,
      processWarnings: warnings.length,
      secretsFound: scanner.findings.length,
    };
    console.log(`RELIABILITY fuzz ${JSON.stringify(figures)}`);
    if (process.env.FUZZ_ERRORS)
      console.log(
        [...errorTexts.entries()]
          .sort((a, b) => b[1] - a[1])
          .map(([text, count]) => `${count}\t${text}`)
          .join("\n"),
      );
    assert.equal(outcomes.size, total, "every message ended");
    assert.equal(errorsAndOutputs, 0, "no message both failed and came out");
    assert.equal(doubleErrors, 0, "no message failed twice");
    assert.equal(canaryHits, 0, "nothing reached another host");
    assert.deepEqual(escaped, [], "no path left the API's base");
    perNode.forEach((entry, index) => {
      assert.ok(entry.outputs > 0, `${TYPES[index]?.[0]} made a correct call at least once`);
    });
    const unclear = [...errorTexts.keys()].filter((text) => !/^[a-z -]+ failed: \S/i.test(text) || /\[object Object\]|undefined|TypeError/.test(text));
    assert.deepEqual(unclear, [], "every error names what failed and why");
    assert.equal(unhandled, 0);
    assert.deepEqual(warnings, [], "no process warnings");
    assert.deepEqual(scanner.findings, []);
    assert.equal(prototypeSnapshot(), prototypeBefore);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });

  it("the emulator's own parser survives hostile bodies and raw bytes, and keeps serving", async () => {
    const random = mulberry32(7);
    const paths = ["/api/env/page", "/api/env/start", "/api/env/close", "/api/cloudphone/page", "/api/envgroup/page", "/api/proxyInfo/page", "/api/envtag/all", "/nope", "/status"];
    const bodies: Array<string | Buffer> = [
      "",
      "{",
      "null",
      "[]",
      '"text"',
      "1e999999",
      "[".repeat(100_000),
      '{"a":'.repeat(50_000),
      '{"__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}},"pageNo":1}',
      JSON.stringify({ pageNo: "1\r\nX: y", pageSize: 2 ** 60, envName: "x".repeat(1024 * 1024) }),
      Buffer.alloc(2 * 1024 * 1024, 0x7b),
    ];
    const send = (path: string, body: string | Buffer, token?: string): Promise<number> =>
      new Promise((resolve) => {
        const req = request(`${emulator().localUrl}${path}`, { method: "POST", headers: { "content-type": "application/json", ...(token ? { authorization: token } : {}) }, agent: false }, (res) => {
          res.resume();
          res.on("end", () => resolve(res.statusCode ?? 0));
        });
        req.on("error", () => resolve(-1));
        req.end(body);
      });
    for (let i = 0; i < 2_000; i++) {
      const body = i < bodies.length * 5 ? (bodies[i % bodies.length] as string | Buffer) : Buffer.from(Array.from({ length: Math.floor(random() * 512) }, () => Math.floor(random() * 256)));
      await send(paths[i % paths.length] as string, body, random() < 0.5 ? "fuzz-local-token-8812" : undefined);
    }
    // Raw bytes on the socket: broken framing, lying lengths, bad chunking, CR/LF in the target.
    const { port } = new URL(emulator().localUrl);
    const raw = [
      'POST /api/env/page HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{"pageNo":',
      "POST /api/env/page HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n",
      "POST /api/env/page HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 5\r\n\r\n{}",
      "GET /api/env/%0d%0aX:%20y HTTP/1.1\r\nHost: x\r\n\r\n",
      "GET /api/../../etc/passwd HTTP/1.1\r\nHost: x\r\n\r\n",
      "GET http://evil.example/api/envtag/all HTTP/1.1\r\nHost: evil.example\r\n\r\n",
      "POST /api/env/start HTTP/1.1\r\nHost: x\r\nAuthorization: a\r\n b\r\nContent-Length: 2\r\n\r\n{}",
      "\u0000\u0001\u0002garbage\r\n\r\n",
      `GET /${"a".repeat(100_000)} HTTP/1.1\r\nHost: x\r\n\r\n`,
    ];
    for (let i = 0; i < 200; i++) {
      await new Promise<void>((resolve) => {
        const socket = connect(Number(port), "127.0.0.1", () => socket.end(raw[i % raw.length] as string));
        socket.setTimeout(2_000, () => socket.destroy());
        socket.on("error", () => undefined);
        socket.on("close", () => resolve());
        socket.resume();
      });
    }
    assert.equal(await send("/status", "{}"), 200);
    assert.equal(await send("/api/env/page", '{"pageNo":1}', "fuzz-local-token-8812"), 200);
    assert.equal(prototypeSnapshot(), prototypeBefore);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });
});
