/**
 * `npm start`: the package as a user gets it, in a Node-RED on loopback with the example flows
 * deployed, against the emulator — or against a real desktop client when MORELOGIN_LOCAL_URL is set.
 * The emulator and Node-RED are two processes this one supervises: Node-RED's log is shown here
 * (prefixed) and kept in a file, and the emulator can be stopped and started again on its own.
 */
import { appendFileSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { EmulatorProcess } from "./emulator-process";
import { findBrowser } from "./find-browser";
import { PrefixedLines } from "./prefixed";
import { hasSavedFlows, rememberTarget, retargetSavedFlows, startOver } from "./demo-folder";
import { EXAMPLE_CONFIG_ID, ROOT, deploy, freePort, loadExamples, packPackage, prepareUserDir, startNodeRed, type ExampleSet, type FlowNode, type RunningNodeRed } from "./sandbox";
import { demoEmulatorArgs, parseStartArgs, START_USAGE, StartUsageError, type StartArgs } from "./start-args";

/** Where the packed package, Node-RED's user folder and its log go (MORELOGIN_DEMO_DIR for a second demo, or a test). */
const DEMO_DIR = process.env.MORELOGIN_DEMO_DIR || join(ROOT, ".demo");
/** MORELOGIN_DEMO_PORTS=any: every port chosen by the OS, not 1880, 40100 and 40101 when free. */
const ANY_PORT = process.env.MORELOGIN_DEMO_PORTS === "any";
/** The emulator's defaults, which the examples' config node is given. */
const EMULATOR_CREDENTIALS = { apiId: "1690000000000001", apiKey: "emulator-api-key" };

const say = (text: string): void => {
  process.stdout.write(text);
};

/** Each Dashboard 2 page in `flows`, named by the example it comes from, with its address: its ui-base's path, then its own. */
function dashboardPages(editorUrl: string, flows: FlowNode[], examples: ExampleSet): string[] {
  const bases = new Map(flows.filter((node) => node.type === "ui-base").map((node) => [node.id, String(node.path)]));
  return flows
    .filter((node) => node.type === "ui-page" && bases.has(String(node.ui)))
    .map((page) => {
      const example = examples.configExample.get(page.id);
      const name = example === undefined ? `"${String(page.name)}"` : `example ${example.replace(/^(\d+) (.*)$/, '$1, "$2"')}`;
      return `Dashboard 2 page (${name}): ${editorUrl}${bases.get(String(page.ui))}${String(page.path)}`;
    });
}

function emulatorLines(emulator: EmulatorProcess, browser: string | undefined, options: readonly string[], demo: readonly string[]): string {
  return [
    `MoreLogin emulator (its own process, pid ${emulator.pid}): Local API ${emulator.localUrl}, Open API ${emulator.openUrl}`,
    `  Options: ${options.length > 0 ? options.join(" ") : "its defaults (npm start -- --profiles 500, say, passes options to it; npm start -- --help)"}`,
    ...(demo.length > 0 ? [`  The demo's data: ${demo.join(" ")} (every cloud phone off at start: the examples that power phones have them to themselves)`] : []),
    `  What it served, by profile and phone: ${emulator.localUrl}/emulator/served (and printed when it stops)`,
    `  Started profiles run ${browser === undefined ? "no browser (a debug port that answers /json/version only)" : `a headless ${browser}`}`,
    "  Type s and Enter to stop it (an outage: see how your flows behave), r and Enter to start it again",
    "  (its data starts afresh). If it stops by itself, it stays down until you type r.",
  ].join("\n");
}

/** Node-RED's output: to the terminal, each line prefixed, and whole into `logFile`. */
function nodeRedLog(logFile: string): { write: (text: string) => void; flush: () => void } {
  writeFileSync(logFile, "");
  const lines = new PrefixedLines("[node-red] ", say);
  return {
    write: (text) => {
      appendFileSync(logFile, text);
      lines.push(text);
    },
    flush: () => lines.flush(),
  };
}

/** r restarts the emulator, s stops it; typed lines on stdin. */
function listenForCommands(emulator: EmulatorProcess): void {
  const commands = createInterface({ input: process.stdin });
  let busy = false;
  commands.on("line", (line) => {
    const command = line.trim().toLowerCase();
    if (command === "" || busy) return;
    busy = true;
    const done = (): void => {
      busy = false;
    };
    if (command === "r") {
      emulator.restart().then(done, (error: unknown) => {
        say(`[emulator] could not be started again: ${error instanceof Error ? error.message : String(error)}\n`);
        done();
      });
    } else if (command === "s") {
      if (!emulator.running) say("[emulator] is not running: type r and Enter to start it\n");
      emulator.stop().then(() => {
        if (!emulator.running) say("[emulator] stopped: the flows now see an outage. Type r and Enter to start it again.\n");
        done();
      }, done);
    } else {
      say("Commands: r and Enter restarts the emulator, s and Enter stops it; Ctrl-C stops everything.\n");
      done();
    }
  });
}

/** The running parts of the demo, and how to stop them. */
class Demo {
  emulator: EmulatorProcess | undefined;
  nodeRed: RunningNodeRed | undefined;
  stopping = false;

  async stop(): Promise<void> {
    this.stopping = true;
    await this.nodeRed?.stop();
    await this.emulator?.stop();
  }

  /** Stops everything, then exits with `code`. */
  exit(code: number): void {
    this.stop().then(
      () => process.exit(code),
      () => process.exit(1),
    );
  }
}

/** What the examples' config node points at. */
interface Target {
  config: { name: string; localUrl: string; openUrl: string };
  credentials: Record<string, string>;
  /** True for the emulator this process runs. */
  emulator: boolean;
  /** The IP echo the identity example asks: the emulator's, or "" (the node's default service) for MoreLogin itself. */
  echoUrl: string;
  /** The banner's lines about it. */
  describe: () => string;
}

function desktopClient(localUrl: string): Target {
  return {
    config: { name: "MoreLogin", localUrl, openUrl: process.env.MORELOGIN_OPEN_URL || "https://api.morelogin.com" },
    credentials: {
      localToken: process.env.MORELOGIN_LOCAL_TOKEN ?? "",
      apiId: process.env.MORELOGIN_API_ID ?? "",
      apiKey: process.env.MORELOGIN_API_KEY ?? "",
    },
    emulator: false,
    echoUrl: "",
    describe: () => `MoreLogin desktop client: ${localUrl}`,
  };
}

/** Starts the emulator's process, supervised by `demo`, with the options npm start was given. */
async function emulatorTarget(demo: Demo, args: StartArgs): Promise<Target> {
  const browser = args.browser ?? findBrowser();
  if (browser === undefined) {
    say("Started profiles get no real browser: install Chromium (sudo apt-get install -y chromium) or set MORELOGIN_BROWSER=<path of a Chromium>.\n");
  }
  const localPort = args.localPort ?? (await freePort(ANY_PORT ? 0 : 40100));
  const openPort = args.openPort ?? (await freePort(ANY_PORT ? 0 : 40101));
  const echoPort = await freePort(ANY_PORT ? 0 : 40102);
  const credentials = { apiId: args.apiId ?? EMULATOR_CREDENTIALS.apiId, apiKey: args.apiKey ?? EMULATOR_CREDENTIALS.apiKey };
  const demoData = demoEmulatorArgs(args.emulatorArgs);
  const settings = { localPort, openPort, ...credentials, localToken: args.localToken, browser, extraArgs: ["--echo-port", String(echoPort), ...args.emulatorArgs, ...demoData] };
  const emulator = new EmulatorProcess(settings, say, (how) => {
    if (!demo.stopping) say(`[emulator] ${how}: the flows now see an outage (Node-RED runs on). Type r and Enter to start it again.\n`);
  });
  demo.emulator = emulator;
  // However this process ends, the emulator (a process group of its own) does not outlive it.
  process.on("exit", () => emulator.killNow());
  await emulator.start();
  return {
    config: { name: "MoreLogin emulator", localUrl: emulator.localUrl, openUrl: emulator.openUrl },
    credentials: { ...credentials, ...(args.localToken ? { localToken: args.localToken } : {}) },
    emulator: true,
    echoUrl: `http://127.0.0.1:${echoPort}/ip`,
    describe: () => emulatorLines(emulator, browser, args.emulatorArgs, demoData),
  };
}

/** How the user folder was come by, for the banner. */
type FolderState = "kept" | "new" | "fresh";

function folderLines(state: FolderState, userDir: string): string {
  switch (state) {
    case "kept":
      return [
        `Kept your flows, credentials and context from the last npm start (user folder ${userDir}); the package is the one just built.`,
        "  npm start -- --fresh starts over with the example flows (and deletes what you built).",
      ].join("\n  ");
    case "new":
      return [`A new user folder ${userDir}, with the example flows deployed.`, "  What you build here is kept for the next npm start; npm start -- --fresh starts over."].join("\n  ");
    case "fresh":
      return [`Started over (--fresh): a new user folder ${userDir}, with the example flows deployed.`, "  What you build here is kept for the next npm start."].join("\n  ");
  }
}

/** The flows Node-RED runs (the user's, saved), as its admin API gives them. */
async function runningFlows(url: string): Promise<FlowNode[]> {
  const response = await fetch(`${url}/flows`, { headers: { "Node-RED-API-Version": "v1" } });
  if (!response.ok) throw new Error(`reading the flows failed: HTTP ${response.status}`);
  return (await response.json()) as FlowNode[];
}

/**
 * Node-RED on the user folder, its log shown and kept; stops the demo if Node-RED dies. A new folder
 * gets the examples deployed against `target`; a kept one runs the flows saved in it.
 */
async function runNodeRed(demo: Demo, userDir: string, target: Target, folder: FolderState): Promise<void> {
  const logFile = join(DEMO_DIR, "node-red.log");
  const log = nodeRedLog(logFile);
  const port = await freePort(ANY_PORT ? 0 : Number(process.env.PORT) || 1880);
  // Context in files (Node-RED's localfilesystem store): a batch's place and the leases survive a restart, as the folder does.
  const nodeRed = await startNodeRed({ userDir, port, onOutput: log.write, settings: { contextStorage: { default: { module: "localfilesystem" } } } });
  demo.nodeRed = nodeRed;
  nodeRed.exited.then((how) => {
    log.flush();
    if (demo.stopping) return;
    say(`\nNode-RED ${how}; its log is in ${logFile}. Stopping the emulator.\n`);
    demo.exit(1);
  });
  const examples = loadExamples(target.config, target.echoUrl);
  if (folder !== "kept") {
    await deploy(
      nodeRed.url,
      examples.flows.map((node) => (node.id === EXAMPLE_CONFIG_ID ? { ...node, credentials: target.credentials } : node)),
    );
  }
  rememberTarget(DEMO_DIR, { ...target.config, credentials: target.credentials, emulator: target.emulator });
  const pages = dashboardPages(nodeRed.url, await runningFlows(nodeRed.url), examples);

  say(`
  Node-RED with node-red-contrib-morelogin is running: ${nodeRed.url}/
  ${folderLines(folder, userDir)}
  ${pages.length > 0 ? pages.join("\n  ") : "No Dashboard 2 page in the flows."}
  Node-RED's log: below, each line starting with [node-red], and kept in ${logFile}
  ${target.describe()}

  Open the editor, pick the tab "01 List profiles" and click the inject node's button:
  the profiles appear in the Debug sidebar (the bug icon, top right). Every example is on its own tab.
  The MoreLogin nodes are in the palette's "MoreLogin" category.

  Ctrl-C stops Node-RED${demo.emulator ? " and the emulator" : ""}.
`);
}

async function main(): Promise<void> {
  let args: StartArgs;
  try {
    args = parseStartArgs(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof StartUsageError)) throw error;
    process.stderr.write(`npm start: ${error.message}\n\n${START_USAGE}`);
    process.exit(2);
  }
  if (args.help) {
    say(START_USAGE);
    return;
  }
  const demo = new Demo();
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.on(signal, () => {
      if (demo.stopping) return;
      say("\nStopping Node-RED and the emulator…\n");
      demo.exit(0);
    });
  }

  const userDir = join(DEMO_DIR, "node-red");
  mkdirSync(DEMO_DIR, { recursive: true });
  if (args.fresh) startOver(DEMO_DIR, userDir);
  const folder: FolderState = args.fresh ? "fresh" : hasSavedFlows(userDir) ? "kept" : "new";
  const realLocalUrl = process.env.MORELOGIN_LOCAL_URL;
  if (realLocalUrl && (args.emulatorArgs.length > 0 || args.localPort !== undefined || args.openPort !== undefined)) {
    say("MORELOGIN_LOCAL_URL is set: no emulator runs, so its options are ignored.\n");
  }
  say(`Packing the package and installing it into ${userDir} (as a user's Node-RED gets it)…\n`);
  // The emulator starts while the package is installed: each takes seconds, and neither needs the other.
  const targeting = realLocalUrl ? Promise.resolve(desktopClient(realLocalUrl)) : emulatorTarget(demo, args);
  try {
    const installing = packPackage(join(DEMO_DIR, "pack")).then((tarball) => prepareUserDir(userDir, tarball));
    const [target] = await Promise.all([targeting, installing]);
    if (folder === "kept") retargetSavedFlows(DEMO_DIR, userDir, { ...target.config, credentials: target.credentials, emulator: target.emulator });
    await runNodeRed(demo, userDir, target, folder);
  } catch (error) {
    await demo.stop();
    throw error;
  }
  if (demo.emulator) listenForCommands(demo.emulator);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
