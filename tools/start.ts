/**
 * `npm start`: the package as a user gets it, in a Node-RED on loopback with the example flows
 * deployed, against the emulator — or against a real desktop client when MORELOGIN_LOCAL_URL is set.
 */
import { join } from "node:path";
import { startEmulator, type Emulator } from "../src/emulator";
import { findBrowser } from "./find-browser";
import { EXAMPLE_CONFIG_ID, ROOT, deploy, freePort, loadExamples, packPackage, prepareUserDir, startNodeRed, type FlowNode, type RunningNodeRed } from "./sandbox";

const DEMO_DIR = join(ROOT, ".demo");

function emulatorLines(emulator: Emulator, browser: string | undefined): string {
  return [
    `MoreLogin emulator: Local API ${emulator.localUrl}, Open API ${emulator.openUrl}`,
    `  Started profiles run ${browser === undefined ? "no browser (a debug port that answers /json/version only)" : `a headless ${browser}`}`,
    `  Demo page for them to open: ${emulator.demoUrl}`,
  ].join("\n");
}

/** The address of each Dashboard 2 page among the examples: its ui-base's path, then its own. */
function dashboardPages(editorUrl: string, flows: FlowNode[]): string[] {
  const bases = new Map(flows.filter((node) => node.type === "ui-base").map((node) => [node.id, String(node.path)]));
  return flows.filter((node) => node.type === "ui-page" && bases.has(String(node.ui))).map((page) => `${editorUrl}${bases.get(String(page.ui))}${String(page.path)}`);
}

async function main(): Promise<void> {
  let emulator: Emulator | undefined;
  let nodeRed: RunningNodeRed | undefined;
  const stop = async (): Promise<void> => {
    await nodeRed?.stop();
    await emulator?.close();
  };
  let stopping = false;
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      console.log("\nStopping Node-RED and the emulator…");
      stop().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    });
  }

  console.log("Packing the package and installing it into .demo/node-red (as a user's Node-RED gets it)…");
  const tarball = await packPackage(join(DEMO_DIR, "pack"));
  const userDir = join(DEMO_DIR, "node-red");
  await prepareUserDir(userDir, tarball, { fresh: true });

  const realLocalUrl = process.env.MORELOGIN_LOCAL_URL;
  let config: Record<string, unknown>;
  let browser: string | undefined;
  let credentials: Record<string, string>;
  if (realLocalUrl) {
    config = { name: "MoreLogin", localUrl: realLocalUrl, openUrl: process.env.MORELOGIN_OPEN_URL || "https://api.morelogin.com" };
    credentials = {
      localToken: process.env.MORELOGIN_LOCAL_TOKEN ?? "",
      apiId: process.env.MORELOGIN_API_ID ?? "",
      apiKey: process.env.MORELOGIN_API_KEY ?? "",
    };
  } else {
    browser = findBrowser();
    if (browser === undefined) {
      console.log("Started profiles get no real browser: install Chromium (sudo apt-get install -y chromium) or set MORELOGIN_BROWSER=<path of a Chromium>.");
    }
    emulator = await startEmulator({ localPort: await freePort(40100), openPort: await freePort(40101), browser });
    config = { name: "MoreLogin emulator", localUrl: emulator.localUrl, openUrl: emulator.openUrl };
    credentials = { apiId: emulator.credentials.apiId, apiKey: emulator.credentials.apiKey };
  }

  const port = await freePort(Number(process.env.PORT) || 1880);
  nodeRed = await startNodeRed({ userDir, port });
  const examples = loadExamples(config);
  const flows = examples.flows.map((node) => (node.id === EXAMPLE_CONFIG_ID ? { ...node, credentials } : node));
  await deploy(nodeRed.url, flows);

  const pages = dashboardPages(nodeRed.url, flows);
  console.log(`
  Node-RED with node-red-contrib-morelogin is running: ${nodeRed.url}/
  Control panel (Dashboard 2, example 14): ${pages.join(", ")}
  ${emulator ? emulatorLines(emulator, browser) : `MoreLogin desktop client: ${realLocalUrl}`}

  Open the editor, pick the tab "01 List profiles" and click the inject node's button:
  the profiles appear in the Debug sidebar (the bug icon, top right). Every example is on its own tab.
  The MoreLogin nodes are in the palette's "MoreLogin" category.

  Ctrl-C stops Node-RED${emulator ? " and the emulator" : ""}.`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
