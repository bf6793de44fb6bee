import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmulator, type Emulator } from "../../src/emulator";
import { EXAMPLE_CONFIG_ID, deployAndStart, freePort, loadExamples, packPackage, packedFiles, prepareUserDir, startNodeRed, type RunningNodeRed } from "../../tools/sandbox";
import { NODE_TYPES } from "../support/node-types";
import { nodeBinary, redJs, runtimeLabel } from "../support/runtime";

describe(`package: installed from its tarball into ${runtimeLabel}`, function () {
  this.timeout(180_000);
  let work: string;
  let emulator: Emulator;
  let nodeRed: RunningNodeRed;

  before(async () => {
    work = mkdtempSync(join(tmpdir(), "morelogin-package-"));
    const tarball = await packPackage(join(work, "pack"));
    await prepareUserDir(join(work, "user"), tarball, { fresh: true });
    emulator = await startEmulator();
    nodeRed = await startNodeRed({ userDir: join(work, "user"), port: await freePort(), node: nodeBinary, redJs });
  });

  after(async () => {
    await nodeRed?.stop();
    await emulator?.close();
    rmSync(work, { recursive: true, force: true });
  });

  it("ships only what Node-RED needs", async () => {
    const files = await packedFiles();
    const allowed = /^(dist\/.+|examples\/.+\.json|resources\/morelogin-editor\.js|README\.md|LICENSE|CHANGELOG\.md|package\.json)$/;
    assert.deepEqual(
      files.filter((file) => !allowed.test(file)),
      [],
    );
    assert.deepEqual(
      files.filter((file) => /\.map$|\.tgz$|^(src|test|tools)\/|\.env|credentials|flows_cred/.test(file)),
      [],
    );
    for (const type of NODE_TYPES) {
      for (const file of [`dist/nodes/${type}.js`, `dist/nodes/${type}.html`, `dist/nodes/locales/en-US/${type}.json`]) {
        assert.ok(files.includes(file), `${file} is packed`);
      }
    }
    assert.ok(files.includes("dist/emulator/cli.js"));
    assert.ok(files.some((file) => /^dist\/nodes\/icons\/.+\.svg$/.test(file)));
  });

  it("has an example flow for every operation node", () => {
    const examples = loadExamples({});
    const used = new Set(examples.flows.map((node) => node.type));
    assert.deepEqual(
      NODE_TYPES.filter((type) => !used.has(type)),
      [],
    );
    for (const [name, nodes] of examples.byExample) {
      assert.ok(
        nodes.some((node) => node.type === "comment"),
        `${name} explains itself in a Comment node`,
      );
    }
  });

  it("lists all ten node types, loaded and enabled", async () => {
    const response = await fetch(`${nodeRed.url}/nodes`, { headers: { accept: "application/json" } });
    assert.equal(response.status, 200);
    const sets = (await response.json()) as Array<{ module: string; types: string[]; enabled: boolean; err?: string }>;
    const ours = sets.filter((set) => set.module === "node-red-contrib-morelogin");
    assert.deepEqual(ours.flatMap((set) => set.types).sort(), [...NODE_TYPES].sort());
    for (const set of ours) {
      assert.equal(set.err, undefined, `${set.types.join()} loaded without error`);
      assert.equal(set.enabled, true);
    }
  });

  it("deploys every example flow without errors, and the list profiles example reaches the API", async () => {
    const examples = loadExamples({ localUrl: emulator.localUrl, openUrl: emulator.openUrl });
    const credentials = { apiId: emulator.credentials.apiId, apiKey: emulator.credentials.apiKey };
    const flows = examples.flows.map((node) => (node.id === EXAMPLE_CONFIG_ID ? { ...node, credentials } : node));
    const before = nodeRed.output().length;
    await deployAndStart(nodeRed, flows);

    const deployed = (await (await fetch(`${nodeRed.url}/flows`, { headers: { "Node-RED-API-Version": "v2" } })).json()) as { flows: Array<{ id: string; type: string }> };
    assert.equal(deployed.flows.length, flows.length);
    const log = nodeRed.output().slice(before);
    assert.doesNotMatch(log, /\[error\]|\[warn\]/, log);
    assert.match(log, /Started flows/);

    // Secrets stay out of flows.json, and the editor only learns that they are set.
    const flowsFile = readFileSync(join(work, "user", "flows.json"), "utf8");
    for (const secret of [emulator.credentials.apiKey, emulator.credentials.apiId]) assert.equal(flowsFile.includes(secret), false, "flows.json holds no credential");
    const editorView = (await (await fetch(`${nodeRed.url}/credentials/morelogin-config/${EXAMPLE_CONFIG_ID}`)).json()) as Record<string, unknown>;
    assert.deepEqual(editorView, { has_localToken: false, apiId: emulator.credentials.apiId, has_apiKey: true });

    const listExample = [...examples.byExample.entries()].find(([name]) => /list profiles/i.test(name));
    assert.ok(listExample, "an example named after list profiles exists");
    const inject = listExample[1].find((node) => node.type === "inject");
    assert.ok(inject, "the list profiles example starts with an inject node");
    emulator.resetStats();
    const injected = await fetch(`${nodeRed.url}/inject/${inject.id}`, { method: "POST" });
    assert.equal(injected.status, 200);
    const deadline = Date.now() + 10_000;
    while (!emulator.stats.requests["local POST /api/env/page"] && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.ok((emulator.stats.requests["local POST /api/env/page"] ?? 0) >= 1, "the inject reached the emulator");
    assert.doesNotMatch(nodeRed.output().slice(before), /\[error\]/);
  });
});
