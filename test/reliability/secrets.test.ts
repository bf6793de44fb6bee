import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { WebSocket } from "undici";
import { startEmulator, type Emulator } from "../../src/emulator";
import { deployAndStart, startNodeRed, type FlowNode, type RunningNodeRed } from "../../tools/sandbox";
import { SecretScanner } from "../support/secrets";
import { linkedUserDir } from "../support/user-dir";
import { waitUntil } from "../support/wait-until";

const LOCAL_TOKEN = "secrets-local-token-7731";
const API_KEY = "secrets-api-key-4409-do-not-log";
const CONFIG = "secrets-config";
const BAD_CONFIG = "secrets-config-wrong-token";
const TAB = "secrets-tab";
/** Paths only the two echo nodes call, so that their scripted echo faults hit nothing else. */
const ECHO_LOCAL = "/api/env/detail";
const ECHO_OPEN = "/envgroup/page";

/**
 * A real Node-RED (this checkout linked into its user folder, as `npm install <folder>` would) with
 * every operation node, debug nodes printing whole messages to the log and the editor's sidebar, a
 * Status node and a Catch node. Everything a user could see is searched for the secrets.
 */
describe("reliability: secrets in a real Node-RED (log, debug sidebar, flows.json, editor)", function () {
  this.timeout(120_000);
  let work: string;
  let emulator: Emulator;
  let nodeRed: RunningNodeRed;
  let socket: WebSocket | undefined;
  const frames: string[] = [];

  before(async () => {
    emulator = await startEmulator({ profiles: 10, localToken: LOCAL_TOKEN, apiKey: API_KEY });
    work = mkdtempSync(join(tmpdir(), "morelogin-secrets-"));
    nodeRed = await startNodeRed({ userDir: linkedUserDir(work, "morelogin-secrets") });
    socket = new WebSocket(`${nodeRed.url.replace("http", "ws")}/comms`);
    socket.addEventListener("message", (event) => frames.push(String(event.data)));
    await new Promise<void>((resolve, reject) => {
      socket?.addEventListener("open", () => resolve());
      socket?.addEventListener("error", () => reject(new Error("cannot open the editor's comms socket")));
    });
    socket.send(JSON.stringify({ subscribe: "debug" }));
    socket.send(JSON.stringify({ subscribe: "status/#" }));
  });

  after(async () => {
    socket?.close();
    await nodeRed?.stop();
    await emulator?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  function flow(): FlowNode[] {
    const profile = emulator.data.profiles[0]?.id;
    const ops: Array<{ type: string; [property: string]: unknown }> = [
      { type: "morelogin-list-profiles", pageNo: "1", pageNoType: "num", pageSize: "3", pageSizeType: "num" },
      { type: "morelogin-list-cloud-phones" },
      { type: "morelogin-list-proxies", all: true },
      { type: "morelogin-list-groups", output: "split" },
      { type: "morelogin-list-tags" },
      { type: "morelogin-list-apps" },
      { type: "morelogin-start-profile", envId: profile, envIdType: "str" },
      { type: "morelogin-close-profile", envId: profile, envIdType: "str" },
      { type: "morelogin-request", api: "open", method: "POST", path: "/cloudphone/app/page", pathType: "str" },
      // Failures: a refused Local token, an Open API path that does not exist, a hostile path, and
      // two answers that repeat the request, credentials included (the emulator's echo fault).
      { type: "morelogin-list-tags", server: BAD_CONFIG },
      { type: "morelogin-request", api: "open", method: "GET", path: "/no/such/endpoint", pathType: "str" },
      { type: "morelogin-request", api: "local", method: "GET", path: "/api/../oauth2/token", pathType: "str" },
      { type: "morelogin-request", api: "local", method: "POST", path: ECHO_LOCAL, pathType: "str" },
      { type: "morelogin-request", api: "open", method: "POST", path: ECHO_OPEN, pathType: "str" },
    ];
    const nodes: FlowNode[] = [
      { id: TAB, type: "tab", label: "secrets" },
      {
        id: CONFIG,
        type: "morelogin-config",
        name: "emulator",
        localUrl: emulator.localUrl,
        openUrl: emulator.openUrl,
        credentials: { localToken: LOCAL_TOKEN, apiId: emulator.credentials.apiId, apiKey: API_KEY },
      },
      {
        id: BAD_CONFIG,
        type: "morelogin-config",
        name: "wrong token",
        localUrl: emulator.localUrl,
        openUrl: emulator.openUrl,
        credentials: { localToken: `${LOCAL_TOKEN}-wrong`, apiId: emulator.credentials.apiId, apiKey: API_KEY },
      },
      { id: "inject", type: "inject", z: TAB, props: [{ p: "payload" }], payload: "", payloadType: "str", repeat: "", once: false, wires: [ops.map((_op, index) => `op-${index}`)] },
      { id: "debug", type: "debug", z: TAB, active: true, tosidebar: true, console: true, complete: "true", targetType: "full", wires: [] },
      { id: "catch", type: "catch", z: TAB, scope: null, uncaught: false, wires: [["debug"]] },
      { id: "status", type: "status", z: TAB, scope: null, wires: [["debug"]] },
    ];
    ops.forEach((op, index) => {
      nodes.push({ id: `op-${index}`, z: TAB, server: CONFIG, wires: [["debug"]], ...op });
    });
    // A real runtime tells flow nodes from config nodes by their position on the canvas.
    return nodes.map((node, index) => (node.z ? { x: 100 + (index % 4) * 200, y: 60 * index, ...node } : node));
  }

  it("shows no token, API key or Authorization value anywhere a user can look", async () => {
    await deployAndStart(nodeRed, flow());
    const trigger = async (): Promise<void> => {
      const response = await fetch(`${nodeRed.url}/inject/inject`, { method: "POST" });
      assert.equal(response.status, 200, nodeRed.output());
    };
    /** waitUntil, whose error ends with Node-RED's log as it was when the wait ran out. */
    const waitShowingLog = (predicate: () => boolean, what: string): Promise<void> => waitUntil(predicate, () => `${what}; Node-RED's log ends:\n${nodeRed.output().slice(-4000)}\n`, 20_000);
    const caughtErrors = (): number => (nodeRed.output().match(/\n {2}error: \{\n {4}message: /g) ?? []).length;

    emulator.script({ kind: "echo", api: "local", path: ECHO_LOCAL, times: 2 });
    emulator.script({ kind: "echo", api: "open", path: ECHO_OPEN, times: 2 });
    await trigger();
    await waitShowingLog(() => caughtErrors() >= 5, "five caught errors");
    // The Open API token is revoked: the next round gets 401, fetches a new token and carries on.
    emulator.revokeAllTokens();
    await trigger();
    await waitShowingLog(() => caughtErrors() >= 10, "ten caught errors");
    await waitShowingLog(() => emulator.stats.tokensGranted >= 2, "a second token, fetched after the revocation");
    // The editor's socket sends batches: arrays of {topic, data}.
    const published = (): Array<{ topic?: string }> => frames.flatMap((frame) => [JSON.parse(frame) as { topic?: string } | Array<{ topic?: string }>].flat());
    const debugFrames = (): number => published().filter((item) => item.topic === "debug").length;
    const statusFrames = (): number => published().filter((item) => item.topic?.startsWith("status/")).length;
    await waitShowingLog(() => debugFrames() >= 20 && statusFrames() >= 10, "the debug sidebar's messages and the status texts");

    const log = nodeRed.output();
    assert.match(log, /API authentication failed \(code 35002\)/, "the wrong Local token is reported");
    assert.equal(emulator.stats.faultsInjected.echo, 4, "each echo node got the echo in both rounds");
    assert.match(log, /morelogin-list-apps/);
    const editorFlows = await (await fetch(`${nodeRed.url}/flows`, { headers: { "Node-RED-API-Version": "v2" } })).text();
    const flowsFile = readFileSync(join(work, "user", "flows.json"), "utf8");
    const editorCredentials = (await (await fetch(`${nodeRed.url}/credentials/morelogin-config/${CONFIG}`)).json()) as Record<string, unknown>;

    // Every Authorization value that went over the wire (the Local token and each bearer token).
    const authorizations = [...new Set(emulator.requestLog.map((entry) => entry.headers.authorization).filter((value): value is string => typeof value === "string"))];
    const bearerTokens = authorizations.filter((value) => value.startsWith("Bearer ")).map((value) => value.slice("Bearer ".length));
    assert.ok(bearerTokens.length >= 1, "bearer tokens were sent");
    const scanner = new SecretScanner([LOCAL_TOKEN, API_KEY, ...authorizations, ...bearerTokens]);
    for (const text of [log, editorFlows, flowsFile, JSON.stringify(editorCredentials), ...frames]) scanner.scan(text);

    console.log(
      `RELIABILITY secrets ${JSON.stringify({
        logBytes: log.length,
        sidebarMessages: published().length,
        debugMessages: debugFrames(),
        statusUpdates: statusFrames(),
        authorizationValuesSearched: authorizations.length,
        secretsFound: scanner.findings.length,
      })}`,
    );
    assert.ok(debugFrames() >= 20, `the debug sidebar received messages (${debugFrames()})`);
    assert.ok(statusFrames() >= 10, `the editor received status texts (${statusFrames()})`);
    assert.deepEqual(scanner.findings, []);
    assert.match(log, new RegExp(`echo of POST ${ECHO_LOCAL}: headers .*authorization\\W{1,8}\\*\\*\\*`), "the Local token was echoed, masked");
    assert.match(log, new RegExp(`echo of POST ${ECHO_OPEN}: headers .*authorization\\W{1,8}Bearer \\*\\*\\*`), "the bearer token was echoed, masked");
    // flows.json holds no credential at all (not even the API ID); the editor only learns what is set.
    assert.equal(flowsFile.includes(emulator.credentials.apiId), false, "flows.json holds no API ID");
    assert.doesNotMatch(flowsFile, /"credentials"/);
    assert.deepEqual(editorCredentials, { has_localToken: true, apiId: emulator.credentials.apiId, has_apiKey: true });
  });
});
