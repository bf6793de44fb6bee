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
import { EXAMPLE_CONFIG_ID, ROOT, deploy, freePort, loadExamples, packPackage, prepareUserDir, startNodeRed, type FlowNode, type RunningNodeRed } from "./sandbox";

/** Where the packed package, Node-RED's user folder and its log go (MORELOGIN_DEMO_DIR for a second demo, or a test). */
const DEMO_DIR = process.env.MORELOGIN_DEMO_DIR || join(ROOT, ".demo");
/** MORELOGIN_DEMO_PORTS=any: every port chosen by the OS, not 1880, 40100 and 40101 when free. */
const ANY_PORT = process.env.MORELOGIN_DEMO_PORTS === "any";
/** The emulator's defaults, which the examples' config node is given. */
const EMULATOR_CREDENTIALS = { apiId: "1690000000000001", apiKey: "emulator-api-key" };

const say = (text: string): void => {
  process.stdout.write(text);
};

/** The address of each Dashboard 2 page among the examples: its ui-base's path, then its own. */
function dashboardPages(editorUrl: string, flows: FlowNode[]): string[] {
  const bases = new Map(flows.filter((node) => node.type === "ui-base").map((node) => [node.id, String(node.path)]));
  return flows.filter((node) => node.type === "ui-page" && bases.has(String(node.ui))).map((page) => `${editorUrl}${bases.get(String(page.ui))}${String(page.path)}`);
}

function emulatorLines(emulator: EmulatorProcess, browser: string | undefined): string {
  return [
    `MoreLogin emulator (its own process, pid ${emulator.pid}): Local API ${emulator.localUrl}, Open API ${emulator.openUrl}`,
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
  config: Record<string, unknown>;
  credentials: Record<string, string>;
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
    describe: () => `MoreLogin desktop client: ${localUrl}`,
  };
}

/** Starts the emulator's process, supervised by `demo`. */
async function emulatorTarget(demo: Demo): Promise<Target> {
  const browser = findBrowser();
  if (browser === undefined) {
    say("Started profiles get no real browser: install Chromium (sudo apt-get install -y chromium) or set MORELOGIN_BROWSER=<path of a Chromium>.\n");
  }
  const localPort = await freePort(ANY_PORT ? 0 : 40100);
  const openPort = await freePort(ANY_PORT ? 0 : 40101);
  const emulator = new EmulatorProcess({ localPort, openPort, ...EMULATOR_CREDENTIALS, browser }, say, (how) => {
    if (!demo.stopping) say(`[emulator] ${how}: the flows now see an outage (Node-RED runs on). Type r and Enter to start it again.\n`);
  });
  demo.emulator = emulator;
  // However this process ends, the emulator (a process group of its own) does not outlive it.
  process.on("exit", () => emulator.killNow());
  await emulator.start();
  return {
    config: { name: "MoreLogin emulator", localUrl: emulator.localUrl, openUrl: emulator.openUrl },
    credentials: { ...EMULATOR_CREDENTIALS },
    describe: () => emulatorLines(emulator, browser),
  };
}

/** Node-RED with the examples deployed against `target`, its log shown and kept; stops the demo if Node-RED dies. */
async function runNodeRed(demo: Demo, userDir: string, target: Target): Promise<void> {
  const logFile = join(DEMO_DIR, "node-red.log");
  const log = nodeRedLog(logFile);
  const port = await freePort(ANY_PORT ? 0 : Number(process.env.PORT) || 1880);
  const nodeRed = await startNodeRed({ userDir, port, onOutput: log.write });
  demo.nodeRed = nodeRed;
  nodeRed.exited.then((how) => {
    log.flush();
    if (demo.stopping) return;
    say(`\nNode-RED ${how}; its log is in ${logFile}. Stopping the emulator.\n`);
    demo.exit(1);
  });
  const examples = loadExamples(target.config);
  const flows = examples.flows.map((node) => (node.id === EXAMPLE_CONFIG_ID ? { ...node, credentials: target.credentials } : node));
  await deploy(nodeRed.url, flows);

  say(`
  Node-RED with node-red-contrib-morelogin is running: ${nodeRed.url}/
  Control panel (Dashboard 2, example 14): ${dashboardPages(nodeRed.url, flows).join(", ")}
  Node-RED's log: below, each line starting with [node-red], and kept in ${logFile}
  ${target.describe()}

  Open the editor, pick the tab "01 List profiles" and click the inject node's button:
  the profiles appear in the Debug sidebar (the bug icon, top right). Every example is on its own tab.
  The MoreLogin nodes are in the palette's "MoreLogin" category.

  Ctrl-C stops Node-RED${demo.emulator ? " and the emulator" : ""}.
`);
}

async function main(): Promise<void> {
  const demo = new Demo();
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.on(signal, () => {
      if (demo.stopping) return;
      say("\nStopping Node-RED and the emulator…\n");
      demo.exit(0);
    });
  }

  const userDir = join(DEMO_DIR, "node-red");
  say(`Packing the package and installing it into ${userDir} (as a user's Node-RED gets it)…\n`);
  mkdirSync(DEMO_DIR, { recursive: true });
  const tarball = await packPackage(join(DEMO_DIR, "pack"));
  await prepareUserDir(userDir, tarball, { fresh: true });

  const realLocalUrl = process.env.MORELOGIN_LOCAL_URL;
  try {
    const target = realLocalUrl ? desktopClient(realLocalUrl) : await emulatorTarget(demo);
    await runNodeRed(demo, userDir, target);
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
