import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmulator, type Emulator } from "../../src/emulator";
import { deployAndStart, packPackage, prepareUserDir, startNodeRed, type FlowNode, type RunningNodeRed } from "../../tools/sandbox";
import { startRecorder, type Recorder } from "../support/recorder";
import { nodeBinary, redJs, runtimeLabel } from "../support/runtime";
import { adminToken } from "../support/admin-token";

const PATHS = ["/morelogin/test", "/morelogin/pick/profiles", "/morelogin/pick/groups"];
const CONFIG = "adminauth-config";
/** A config node whose URL and secrets come from Node-RED's environment, as many users deploy it. */
const ENV_CONFIG = "adminauth-config-from-env";
const LIST_NODE = "adminauth-list-tags";
const STORED = "__PWRD__";
const LOCAL_TOKEN = "adminauth-local-token-5120";
const API_KEY = "adminauth-api-key-7781";
/** A secret of the Node-RED process that no request may ever carry for a read-only user. */
const CANARY = "canary-7d1e9f-in-node-reds-environment";
/** Hidden from flows by settings.js `envVarExcludes`: no editor request may read it either. */
const EXCLUDED = "excluded-4b7c-hidden-from-flows";
const ENV = {
  MORELOGIN_ADMINAUTH_EXCLUDED: EXCLUDED,
  MORELOGIN_ADMINAUTH_CANARY: CANARY,
  MORELOGIN_ADMINAUTH_LOCAL_TOKEN: LOCAL_TOKEN,
  MORELOGIN_ADMINAUTH_API_KEY: API_KEY,
};

describe(`package: admin endpoints behind adminAuth (${runtimeLabel})`, function () {
  this.timeout(180_000);
  let work: string;
  let nodeRed: RunningNodeRed;
  let emulator: Emulator;
  let recorder: Recorder;
  let admin: string;
  let reader: string;

  before(async () => {
    work = mkdtempSync(join(tmpdir(), "morelogin-adminauth-"));
    emulator = await startEmulator({ profiles: 12, localToken: LOCAL_TOKEN, apiKey: API_KEY });
    recorder = await startRecorder();
    const tarball = await packPackage(join(work, "pack"));
    await prepareUserDir(join(work, "user"), tarball, { fresh: true });
    nodeRed = await startNodeRed({
      userDir: join(work, "user"),
      node: nodeBinary,
      redJs,
      env: { ...ENV, MORELOGIN_ADMINAUTH_LOCAL_URL: emulator.localUrl },
      settings: { envVarExcludes: ["MORELOGIN_ADMINAUTH_EXCLUDED"] },
      adminUsers: [
        { username: "admin", password: "admin-password", permissions: "*" },
        { username: "reader", password: "reader-password", permissions: "read" },
        { username: "nobody", password: "nobody-password", permissions: "flows.read" },
        { username: "config-editor", password: "config-editor-password", permissions: ["read", "morelogin-config.write"] },
      ],
    });
    admin = await tokenFor("admin", "admin-password", "*");
    reader = await tokenFor("reader", "reader-password", "read");
    const flows: FlowNode[] = [
      { id: "adminauth-tab", type: "tab", label: "adminAuth" },
      {
        id: CONFIG,
        type: "morelogin-config",
        name: "emulator",
        localUrl: emulator.localUrl,
        openUrl: emulator.openUrl,
        credentials: { localToken: LOCAL_TOKEN, apiId: emulator.credentials.apiId, apiKey: API_KEY },
      },
      {
        id: ENV_CONFIG,
        type: "morelogin-config",
        name: "from the environment",
        localUrl: "${MORELOGIN_ADMINAUTH_LOCAL_URL}",
        openUrl: emulator.openUrl,
        credentials: { localToken: "${MORELOGIN_ADMINAUTH_LOCAL_TOKEN}", apiId: emulator.credentials.apiId, apiKey: "${MORELOGIN_ADMINAUTH_API_KEY}" },
      },
      { id: "adminauth-list-env", type: "morelogin-list-tags", z: "adminauth-tab", server: ENV_CONFIG, output: "array", wires: [[]] },
      { id: LIST_NODE, type: "morelogin-list-tags", z: "adminauth-tab", server: CONFIG, output: "array", wires: [[]] },
    ];
    await deployAndStart(nodeRed, flows, admin);
  });

  after(async () => {
    await nodeRed?.stop();
    await recorder?.close();
    await emulator?.close();
    rmSync(work, { recursive: true, force: true });
  });

  beforeEach(() => {
    emulator.resetStats();
    recorder.requests.length = 0;
  });

  const tokenFor = (username: string, password: string, scope: string): Promise<string> => adminToken(nodeRed.url, username, password, scope);

  async function call(path: string, body: object, token?: string): Promise<{ status: number; body: Record<string, unknown> }> {
    const response = await fetch(`${nodeRed.url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    const json = response.headers.get("content-type")?.includes("application/json");
    return { status: response.status, body: json ? ((await response.json()) as Record<string, unknown>) : { text: await response.text() } };
  }

  const sentTo = (server: Recorder): string[] => server.requests.map((request) => `${request.method} ${request.url}`);

  /** What the editor itself posts for the deployed config node: its saved URLs, stored passwords as placeholders. */
  const asTheEditorPostsIt = (): object => ({
    id: CONFIG,
    localUrl: emulator.localUrl,
    openUrl: emulator.openUrl,
    credentials: { localToken: STORED, apiId: emulator.credentials.apiId, apiKey: STORED },
  });

  it("refuses every endpoint to anonymous callers and to users who may not read config nodes", async () => {
    const nobody = await tokenFor("nobody", "nobody-password", "flows.read");
    for (const path of PATHS) {
      assert.equal((await call(path, { id: CONFIG })).status, 401, `${path} without a token`);
      assert.equal((await call(path, { id: CONFIG }, nobody)).status, 401, `${path} without morelogin-config.read (Node-RED answers 401)`);
    }
    assert.equal(emulator.requestLog.length, 0);
  });

  it("serves a read-only user the pickers and the connection test of the deployed config node", async () => {
    for (const body of [{ id: CONFIG }, asTheEditorPostsIt()]) {
      const profiles = await call("/morelogin/pick/profiles", { ...body, q: "Profile 0" }, reader);
      assert.equal(profiles.status, 200, JSON.stringify(profiles.body));
      const expected = emulator.data.profiles.filter((profile) => profile.envName.toLowerCase().includes("profile 0"));
      assert.deepEqual(
        (profiles.body.items as Array<{ id: string }>).map((item) => item.id),
        expected.map((profile) => profile.id),
      );
      const groups = await call("/morelogin/pick/groups", body, reader);
      assert.equal((groups.body.items as unknown[]).length, emulator.data.groups.length);
      const test = await call("/morelogin/test", body, reader);
      assert.deepEqual(test.body, {
        local: { ok: true, message: "Local API reachable: 12 profiles" },
        balance: { ok: true, message: "Balance: 125.00 (12500 cents), remaining duration 120 minutes, remaining concurrency 3" },
        open: { ok: true, message: "Open API: signed in with the API ID and API Key" },
      });
    }
    assert.ok(
      emulator.requestLog.every((request) => request.api === "open" || request.headers.authorization === LOCAL_TOKEN),
      "the deployed token went with every Local call",
    );
  });

  it("serves a read-only user a deployed config node whose settings are ${ENV} values, as the editor posts them", async () => {
    const body = {
      id: ENV_CONFIG,
      localUrl: "${MORELOGIN_ADMINAUTH_LOCAL_URL}",
      openUrl: emulator.openUrl,
      credentials: { localToken: STORED, apiId: emulator.credentials.apiId, apiKey: STORED },
    };
    const test = await call("/morelogin/test", body, reader);
    assert.deepEqual(test.body, {
      local: { ok: true, message: "Local API reachable: 12 profiles" },
      balance: { ok: true, message: "Balance: 125.00 (12500 cents), remaining duration 120 minutes, remaining concurrency 3" },
      open: { ok: true, message: "Open API: signed in with the API ID and API Key" },
    });
    const groups = await call("/morelogin/pick/groups", body, reader);
    assert.equal((groups.body.items as unknown[]).length, emulator.data.groups.length);
    const elsewhere = await call("/morelogin/test", { ...body, localUrl: "${MORELOGIN_ADMINAUTH_CANARY}" }, reader);
    assert.equal(elsewhere.status, 403);
  });

  const refusedForReaders: Array<[string, () => object]> = [
    ["other URLs for the deployed config node", () => ({ id: CONFIG, localUrl: recorder.url, openUrl: recorder.url })],
    ["only another Open API URL", () => ({ id: CONFIG, openUrl: recorder.url })],
    ["typed credentials towards the deployed URLs", () => ({ id: CONFIG, credentials: { localToken: "typed-token", apiId: "typed-id", apiKey: "typed-key" } })],
    ["typed credentials towards another host", () => ({ localUrl: recorder.url, openUrl: recorder.url, credentials: { localToken: "typed-token", apiId: "1", apiKey: "typed-key" } })],
    [
      "${ENV} credentials towards another host",
      () => ({ localUrl: recorder.url, openUrl: recorder.url, credentials: { localToken: "${MORELOGIN_ADMINAUTH_CANARY}", apiId: "1", apiKey: "${MORELOGIN_ADMINAUTH_CANARY}" } }),
    ],
    ["an ${ENV} credential on the deployed config node", () => ({ id: CONFIG, credentials: { localToken: "${MORELOGIN_ADMINAUTH_CANARY}" } })],
    ["an ${ENV} URL on the deployed config node", () => ({ id: CONFIG, localUrl: "${MORELOGIN_ADMINAUTH_CANARY}" })],
    [
      "stored credentials towards another host",
      () => ({ id: CONFIG, localUrl: recorder.url, openUrl: recorder.url, credentials: { localToken: STORED, apiId: emulator.credentials.apiId, apiKey: STORED } }),
    ],
    ["the stored Local token typed in", () => ({ id: CONFIG, credentials: { localToken: LOCAL_TOKEN } })],
    ["the stored API key typed in", () => ({ id: CONFIG, credentials: { apiKey: API_KEY } })],
    ["a config node that is not deployed", () => ({ id: "adminauth-not-deployed", localUrl: emulator.localUrl, openUrl: emulator.openUrl })],
    ["a deployed node that is not a config node", () => ({ id: LIST_NODE })],
    ["no config node at all", () => ({})],
  ];

  for (const [what, body] of refusedForReaders) {
    it(`refuses a read-only user ${what} with 403, and sends nothing`, async () => {
      for (const path of PATHS) {
        const refused = await call(path, { ...body(), q: "x" }, reader);
        assert.equal(refused.status, 403, `${path}: ${JSON.stringify(refused.body)}`);
        assert.match(
          String(refused.body.error),
          /^only a user who may change config nodes \(morelogin-config\.write\) can use .+: your user can pick from and test the config node as it is deployed$/,
        );
        assert.doesNotMatch(JSON.stringify(refused.body), new RegExp(`${CANARY}|${LOCAL_TOKEN}|${API_KEY}`));
      }
      assert.deepEqual(sentTo(recorder), [], "the foreign host got no request");
      assert.deepEqual(
        emulator.requestLog.map((request) => request.path),
        [],
        "MoreLogin got no request",
      );
    });
  }

  it("lets an admin test typed and ${ENV} credentials before deploying, with Node-RED's environment", async () => {
    const typed = await call(
      "/morelogin/test",
      { id: "adminauth-new-config", localUrl: emulator.localUrl, openUrl: emulator.openUrl, credentials: { localToken: LOCAL_TOKEN, apiId: emulator.credentials.apiId, apiKey: API_KEY } },
      admin,
    );
    assert.equal(typed.status, 200);
    assert.equal((typed.body.local as { ok: boolean }).ok, true);
    assert.equal((typed.body.open as { ok: boolean }).ok, true);
    const fromEnv = await call(
      "/morelogin/test",
      {
        id: "adminauth-new-config",
        localUrl: emulator.localUrl,
        openUrl: emulator.openUrl,
        credentials: { localToken: "${MORELOGIN_ADMINAUTH_LOCAL_TOKEN}", apiId: emulator.credentials.apiId, apiKey: "${MORELOGIN_ADMINAUTH_API_KEY}" },
      },
      admin,
    );
    assert.deepEqual(fromEnv.body, {
      local: { ok: true, message: "Local API reachable: 12 profiles" },
      balance: { ok: true, message: "Balance: 125.00 (12500 cents), remaining duration 120 minutes, remaining concurrency 3" },
      open: { ok: true, message: "Open API: signed in with the API ID and API Key" },
    });
    const pick = await call("/morelogin/pick/groups", { localUrl: emulator.localUrl, openUrl: emulator.openUrl, credentials: { localToken: "${MORELOGIN_ADMINAUTH_LOCAL_TOKEN}" } }, admin);
    assert.equal((pick.body.items as unknown[]).length, emulator.data.groups.length);
  });

  it("sends an admin's settings where they point, and so the recorder would see what a reader's 403 kept back", async () => {
    const body = { localUrl: recorder.url, openUrl: recorder.url, credentials: { localToken: "${MORELOGIN_ADMINAUTH_CANARY}", apiId: "1", apiKey: "${MORELOGIN_ADMINAUTH_CANARY}" } };
    assert.equal((await call("/morelogin/test", body, reader)).status, 403);
    assert.deepEqual(sentTo(recorder), []);
    const sent = await call("/morelogin/test", body, admin);
    assert.equal(sent.status, 200);
    assert.equal((sent.body.local as { ok: boolean }).ok, false);
    assert.ok(recorder.requests.some((request) => request.url === "/api/env/page" && request.headers.authorization === CANARY));
    assert.ok(recorder.requests.some((request) => request.url === "/oauth2/token" && request.body.includes(CANARY)));
    assert.doesNotMatch(JSON.stringify(sent.body), new RegExp(CANARY));
  });

  it("grants the same to a user whose permissions name morelogin-config.write without *", async () => {
    const editor = await tokenFor("config-editor", "config-editor-password", "");
    const body = { localUrl: recorder.url, openUrl: recorder.url, credentials: { localToken: "${MORELOGIN_ADMINAUTH_CANARY}" } };
    assert.equal((await call("/morelogin/test", body, editor)).status, 200);
    assert.ok(recorder.requests.some((request) => request.url === "/api/env/page" && request.headers.authorization === CANARY));
  });

  it("reads no variable that settings.js hides from flows (envVarExcludes), not even for an admin", async () => {
    const body = { localUrl: recorder.url, openUrl: recorder.url, credentials: { localToken: "${MORELOGIN_ADMINAUTH_EXCLUDED}" } };
    assert.equal((await call("/morelogin/test", body, admin)).status, 200);
    const sent = recorder.requests.find((request) => request.url === "/api/env/page");
    assert.equal(sent?.headers.authorization, "${MORELOGIN_ADMINAUTH_EXCLUDED}", "the reference stays as it is, as Node-RED leaves it for flows");
    assert.doesNotMatch(JSON.stringify(recorder.requests), new RegExp(EXCLUDED));
  });

  it("never sends stored credentials to other URLs, not even for an admin (400)", async () => {
    for (const path of PATHS) {
      const refused = await call(path, { id: CONFIG, localUrl: recorder.url, openUrl: recorder.url, credentials: { localToken: STORED, apiKey: STORED } }, admin);
      assert.equal(refused.status, 400, path);
      assert.match(String(refused.body.error), /stored credentials are only used with the URLs they were deployed with/);
    }
    assert.deepEqual(sentTo(recorder), []);
    assert.deepEqual(
      emulator.requestLog.map((request) => request.path),
      [],
    );
  });
});
