import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ENDPOINTS, type EndpointName } from "../../src/client";
import { startEmulator, type Emulator } from "../../src/emulator";
import { NODE_DECLARATIONS } from "../../src/nodes/lib/declarations/node-declarations";
import { deployAndStart, freePort, packPackage, prepareUserDir, startNodeRed, type FlowNode, type RunningNodeRed } from "../../tools/sandbox";
import { nodeBinary, redJs, runtimeLabel } from "../support/runtime";
import { waitUntil } from "../support/wait-until";

/** The example flows exactly as version 0.1 shipped them: flows users saved from them must keep working. */
const SAVED = join(__dirname, "..", "fixtures", "flows-0.1");

/** The API path each saved operation node calls. */
function pathOf(node: FlowNode): string {
  if (node.type === "morelogin-request") return String(node.path);
  const declaration = (NODE_DECLARATIONS as Record<string, { list?: EndpointName; endpoint?: EndpointName }>)[node.type];
  const endpoint = declaration?.list ?? declaration?.endpoint;
  assert.ok(endpoint, `${node.type} is still a node type of this package`);
  return ENDPOINTS[endpoint].path;
}

describe(`package: flows saved with 0.1 load and work (${runtimeLabel})`, function () {
  this.timeout(180_000);
  let work: string;
  let emulator: Emulator;
  let nodeRed: RunningNodeRed;

  before(async () => {
    work = mkdtempSync(join(tmpdir(), "morelogin-saved-"));
    const tarball = await packPackage(join(work, "pack"));
    await prepareUserDir(join(work, "user"), tarball, { fresh: true });
    // The examples were saved for the emulator's default ports; they are used when free.
    emulator = await startEmulator({ profiles: 5, localPort: await freePort(40100), openPort: await freePort(40101) });
    nodeRed = await startNodeRed({ userDir: join(work, "user"), node: nodeBinary, redJs });
  });

  after(async () => {
    await nodeRed?.stop();
    await emulator?.close();
    rmSync(work, { recursive: true, force: true });
  });

  for (const file of readdirSync(SAVED).filter((name) => name.endsWith(".json"))) {
    it(`${file}: deploys without a warning, and every node calls its endpoint when injected`, async () => {
      const saved = JSON.parse(readFileSync(join(SAVED, file), "utf8")) as FlowNode[];
      const tab = "saved-0-1";
      // As Node-RED imports a file onto a tab: the saved nodes unchanged, each placed on that tab.
      const flows: FlowNode[] = [
        { id: tab, type: "tab", label: file },
        ...saved.map((node): FlowNode => {
          if (node.type !== "morelogin-config") return { ...node, z: tab };
          // Credentials are never part of a saved flow: the user types them in. The URLs move only when the saved ports are taken.
          const credentials = { apiId: emulator.credentials.apiId, apiKey: emulator.credentials.apiKey };
          return { ...node, localUrl: emulator.localUrl, openUrl: emulator.openUrl, credentials };
        }),
      ];
      const logFrom = nodeRed.output().length;
      await deployAndStart(nodeRed, flows);
      emulator.resetStats();
      for (const inject of saved.filter((node) => node.type === "inject")) {
        const fired = await fetch(`${nodeRed.url}/inject/${inject.id}`, { method: "POST" });
        assert.equal(fired.status, 200, `inject ${inject.id}: ${nodeRed.output().slice(logFrom)}`);
      }
      const expected = saved.filter((node) => node.type.startsWith("morelogin-") && node.type !== "morelogin-config").map(pathOf);
      const missing = (): string[] => expected.filter((path) => !emulator.requestLog.some((request) => request.path === path));
      await waitUntil(() => missing().length === 0, "every saved MoreLogin node reaches its endpoint", 15_000).catch(() => undefined);
      assert.deepEqual(missing(), [], "every saved MoreLogin node reached its endpoint");
      // A pause on purpose: the saved flows end in nodes of their own, so no event says every answer has
      // been handled (and an error or warning about it logged) by the runtime in its own process.
      await new Promise((resolve) => setTimeout(resolve, 300));
      const log = nodeRed.output().slice(logFrom);
      assert.match(log, /Started flows/);
      assert.doesNotMatch(log, /\[(error|warn)\]/, log);
    });
  }
});
