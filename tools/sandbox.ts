/**
 * A Node-RED of our own for `npm start` and the package tests: the package packed and installed from
 * its tarball into a user folder, exactly as a user's Node-RED gets it, on loopback and offline.
 */
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { promisify } from "node:util";
import { sourceFiles } from "./source-files";
import { fileNow, heavySlot, keepUntilFileEnds, loadAverage, scaled, seconds, waitingOnTheMachine } from "./test-limits";

const run = promisify(execFile);
export const ROOT = resolve(__dirname, "..");

export interface FlowNode {
  id: string;
  type: string;
  z?: string;
  wires?: string[][];
  [property: string]: unknown;
}

interface Packed {
  /** The tarball's path. */
  tarball: string;
  /** The files inside it, relative to the package root, sorted. */
  files: string[];
}

/**
 * How long an `npm pack` (with its prepack build) or an install of the tarball may take on a quiet machine:
 * under the 120 s of the tests that pack, so that this error, with npm's output, comes first.
 */
const PACK_MS = 100_000;

const tail = (text: string, lines = 40): string => text.trimEnd().split("\n").slice(-lines).join("\n");

/**
 * An npm command's stdout; when it fails or runs out of time, an error with how long it ran, the end of
 * what it printed and the end of npm's own debug log (which says how far it got when it printed nothing).
 */
async function npm(args: string[], cwd: string, timeoutMs: number): Promise<string> {
  const started = Date.now();
  const logs = mkdtempSync(join(tmpdir(), "morelogin-npm-logs-"));
  try {
    return (await run("npm", [...args, "--logs-dir", logs], { cwd, maxBuffer: 16 * 1024 * 1024, timeout: timeoutMs })).stdout;
  } catch (error) {
    const failure = error as { killed?: boolean; code?: number | string; stdout?: string; stderr?: string };
    const how = failure.killed ? `did not finish within ${seconds(timeoutMs)}` : `failed (exit ${failure.code}) after ${seconds(Date.now() - started)}`;
    throw new Error(
      `npm ${args.join(" ")} in ${cwd} ${how} (load average ${loadAverage()}); it printed:\n${tail(`${failure.stdout ?? ""}\n${failure.stderr ?? ""}`)}\nnpm's debug logs end with:\n${debugLogs(logs)}`,
    );
  } finally {
    try {
      rmSync(logs, { recursive: true, force: true, maxRetries: 3 });
    } catch {
      // a child npm still writing: the run's sweep removes the folder
    }
  }
}

/** The end of each debug log npm (and any npm a script of it ran) wrote in `folder`, or why there is none. */
function debugLogs(folder: string): string {
  try {
    const files = readdirSync(folder).sort();
    if (files.length === 0) return "(none: npm never got as far as opening one)";
    return files.map((file) => `${file}:\n${tail(readFileSync(join(folder, file), "utf8"), 15)}`).join("\n");
  } catch (error) {
    return `(could not read them: ${(error as Error).message})`;
  }
}

async function pack(cwd: string, destination: string, scripts: "run-prepack" | "ignore-scripts"): Promise<Packed> {
  mkdirSync(destination, { recursive: true });
  const args = ["pack", "--json", "--pack-destination", destination, ...(scripts === "ignore-scripts" ? ["--ignore-scripts"] : [])];
  const stdout = await npm(args, cwd, scaled(PACK_MS));
  // npm prints the prepack build's output before its JSON.
  const [packed] = JSON.parse(stdout.slice(stdout.search(/^\[/m))) as Array<{ filename: string; files: Array<{ path: string }> }>;
  if (!packed) throw new Error("npm pack printed no file name");
  return { tarball: join(destination, basename(packed.filename)), files: packed.files.map((file) => file.path).sort() };
}

/**
 * `npm pack` of this working tree into `destination`; returns the tarball's path. Every caller has
 * just run `npm run build` (npm test, npm start, npm run bench), so the prepack build is skipped: it
 * would empty dist/ under the suites that are running from it.
 */
export async function packPackage(destination: string): Promise<string> {
  const shared = sharedPackage();
  if (shared) return shared.tarball;
  return (await pack(ROOT, destination, "ignore-scripts")).tarball;
}

/**
 * Under `npm test` the package is packed once for the whole run, and installed once into a folder of
 * its own, by `packOnce` (tools/test-all.ts): every package and editor suite of every group gets the same
 * tarball, and a user folder gets a copy of that install, the same files npm would lay out again.
 */
const SHARED_PACKAGE_VARIABLE = "MORELOGIN_TEST_PACKAGE";

interface SharedPackage {
  tarball: string;
  /** The files inside the tarball, as packPackage's `npm pack` listed them. */
  files: string[];
  /** A folder with package.json, package-lock.json and node_modules after `npm install <tarball>`. */
  installed: string;
}

function sharedPackage(): SharedPackage | undefined {
  const folder = process.env[SHARED_PACKAGE_VARIABLE];
  if (!folder) return undefined;
  return JSON.parse(readFileSync(join(folder, "shared-package.json"), "utf8")) as SharedPackage;
}

/** Packs this working tree (built already) into `folder` and installs the tarball there once; returns the variables that hand it to the test processes. */
export async function packOnce(folder: string): Promise<Record<string, string>> {
  const { tarball, files } = await pack(ROOT, join(folder, "pack"), "ignore-scripts");
  const installed = join(folder, "installed");
  await installTarball(installed, tarball);
  writeFileSync(join(folder, "shared-package.json"), JSON.stringify({ tarball, files, installed } satisfies SharedPackage));
  return { [SHARED_PACKAGE_VARIABLE]: folder };
}

/**
 * What a release ships: the repository's files as a fresh clone or an unpacked source archive has them
 * (everything .gitignore keeps; no dist/), with these sources' node_modules as `npm ci` would lay them, packed by a plain
 * `npm pack`, which runs the prepack build as `npm publish` does.
 */
export async function packFreshCopy(work: string): Promise<Packed> {
  const copy = join(work, "repository");
  for (const file of sourceFiles(ROOT)) {
    mkdirSync(dirname(join(copy, file)), { recursive: true });
    copyFileSync(join(ROOT, file), join(copy, file));
  }
  symlinkSync(join(ROOT, "node_modules"), join(copy, "node_modules"), "dir");
  // The prepack build compiles everything: as heavy as a Node-RED start.
  const release = await heavySlot(`a release build in ${copy}`);
  try {
    return await pack(copy, join(work, "out"), "run-prepack");
  } finally {
    release();
  }
}

/**
 * The files `npm pack` would ship from this working tree (built already, as for packPackage), relative to
 * the package root: under `npm test` those of the tarball packOnce packed from it (a dry run costs npm's
 * start and a walk of the tree, ~7 s of a busy machine).
 */
export async function packedFiles(): Promise<string[]> {
  const shared = sharedPackage();
  if (shared) return shared.files;
  const stdout = await npm(["pack", "--dry-run", "--json", "--ignore-scripts"], ROOT, scaled(PACK_MS));
  const [packed] = JSON.parse(stdout) as Array<{ files: Array<{ path: string }> }>;
  return (packed?.files ?? []).map((file) => file.path).sort();
}

/**
 * A fresh (or reused) user folder with the tarball installed as a user would install it. In a reused
 * folder the package installed before is removed first, so this tarball's files replace it even when
 * its version is the same. Under `npm test` the run's install of the same tarball is copied in instead,
 * in place of a reused folder's node_modules (npm start's kept folder): the files npm would lay out
 * for the package.json written here, which names this package alone.
 */
export async function prepareUserDir(userDir: string, tarball: string, options: { fresh?: boolean } = {}): Promise<void> {
  if (options.fresh) rmSync(userDir, { recursive: true, force: true });
  rmSync(join(userDir, "node_modules", PACKAGE_NAME), { recursive: true, force: true });
  const shared = sharedPackage();
  if (shared && shared.tarball === tarball) {
    mkdirSync(userDir, { recursive: true });
    // Not copied over the old one: Node 22's cpSync fails on a folder that exists (EEXIST on node_modules/.bin).
    rmSync(join(userDir, "node_modules"), { recursive: true, force: true });
    cpSync(join(shared.installed, "node_modules"), join(userDir, "node_modules"), { recursive: true, verbatimSymlinks: true });
    // npm wrote the tarball's path relative to the folder it installed into: here it is named whole, so a later npm install in this folder finds it.
    writeFileSync(join(userDir, "package.json"), JSON.stringify({ name: "morelogin-sandbox", private: true, dependencies: { [PACKAGE_NAME]: `file:${tarball}` } }, null, 2));
  } else {
    await installTarball(userDir, tarball);
  }
  linkDashboard(userDir);
}

async function installTarball(userDir: string, tarball: string): Promise<void> {
  mkdirSync(userDir, { recursive: true });
  const manifest = join(userDir, "package.json");
  if (!existsSync(manifest)) writeFileSync(manifest, JSON.stringify({ name: "morelogin-sandbox", private: true, dependencies: {} }, null, 2));
  const release = await heavySlot(`npm install in ${userDir}`);
  try {
    await npm(["install", "--no-audit", "--no-fund", "--prefer-offline", "--engine-strict=false", tarball], userDir, scaled(PACK_MS));
  } finally {
    release();
  }
}

const PACKAGE_NAME = "node-red-contrib-morelogin";
const DASHBOARD_MODULE = "@flowfuse/node-red-dashboard";

/**
 * Dashboard 2, which the control-panel example needs, as the user would have installed it from the
 * palette: this repository's pinned devDependency, linked into the user folder (no download). After
 * the npm install, which would remove a link it did not make. (Node-RED also looks in the
 * node_modules folders above its own, which here hold this repository's; the link does not rely on it.)
 */
function linkDashboard(userDir: string): void {
  const source = join(ROOT, "node_modules", DASHBOARD_MODULE);
  if (!existsSync(source)) throw new Error(`${DASHBOARD_MODULE} is missing from node_modules: run npm ci`);
  const target = join(userDir, "node_modules", DASHBOARD_MODULE);
  rmSync(target, { recursive: true, force: true });
  mkdirSync(dirname(target), { recursive: true });
  symlinkSync(source, target, "dir");
}

export interface AdminUser {
  username: string;
  password: string;
  permissions: string | string[];
}

export function writeSettings(userDir: string, port: number, adminUsers: AdminUser[] = [], redJs?: string, extra: Record<string, unknown> = {}): string {
  const file = join(userDir, "settings.js");
  const settings: Record<string, unknown> = {
    uiHost: "127.0.0.1",
    uiPort: port,
    flowFile: "flows.json",
    credentialSecret: false,
    editorTheme: { tours: false, palette: { catalogues: [] }, projects: { enabled: false } },
    telemetry: { enabled: false, updateNotification: false },
    diagnostics: { enabled: false },
    externalModules: { palette: { allowInstall: false } },
    logging: { console: { level: "info", metrics: false, audit: false } },
    ...extra,
  };
  if (adminUsers.length > 0) {
    const bcrypt = require(require.resolve("bcryptjs", { paths: [dirname(redJs ?? require.resolve("node-red/red.js"))] })) as { hashSync: (text: string, rounds: number) => string };
    settings.adminAuth = {
      type: "credentials",
      users: adminUsers.map((user) => ({ username: user.username, password: bcrypt.hashSync(user.password, 8), permissions: user.permissions })),
    };
  }
  writeFileSync(file, `module.exports = ${JSON.stringify(settings, null, 2)};\n`);
  return file;
}

/** A free loopback port: the preferred one when it is free, else one outside the ephemeral range, else one the OS chooses. */
export async function freePort(preferred = 0): Promise<number> {
  const tryPort = (port: number): Promise<number | undefined> =>
    new Promise((resolvePort) => {
      const server = createServer();
      server.once("error", () => resolvePort(undefined));
      server.listen(port, "127.0.0.1", () => {
        const address = server.address();
        const chosen = typeof address === "object" && address ? address.port : undefined;
        server.close(() => resolvePort(chosen));
      });
    });
  if (preferred) {
    const chosen = await tryPort(preferred);
    if (chosen) return chosen;
  }
  // Below Linux's ephemeral range (32768-60999): a port the system hands out for listen(0) and for every
  // outgoing connection can be taken by another process the moment it is free, so a Node-RED or a Redis
  // restarted on its port found it in use (seen under load).
  for (let attempt = 0; attempt < 50; attempt++) {
    const chosen = await tryPort(STABLE_PORTS.from + Math.floor(Math.random() * (STABLE_PORTS.to - STABLE_PORTS.from)));
    if (chosen) return chosen;
  }
  return (await tryPort(0)) ?? 0;
}

/** Where freePort looks first: registered ports no service of this machine uses, outside the ephemeral range. */
const STABLE_PORTS = { from: 20_000, to: 32_000 };

export interface RunningNodeRed {
  url: string;
  output: () => string;
  stop: () => Promise<void>;
  /** Kills the process at once (SIGKILL: a crash, a power cut as far as Node-RED knows); resolves when it has exited. */
  kill: () => Promise<void>;
  /** Freezes the process for `ms` (SIGSTOP, then SIGCONT): a long GC pause, a starved CPU or a VM snapshot as far as Node-RED knows. */
  freeze: (ms: number) => Promise<void>;
  /** Resolves when the Node-RED process has exited, however it ended: how it ended, in words. */
  exited: Promise<string>;
}

export interface StartOptions {
  userDir: string;
  /**
   * Omitted: a free port, and another one if some other process takes it before Node-RED listens
   * (on a busy machine a port the OS handed out and took back is soon handed out again).
   */
  port?: number;
  /** The node binary (default: this one); another for the Node-RED 5 runs on Node 22 and 24. */
  node?: string;
  /** Node-RED's red.js (default: this project's Node-RED 4). */
  redJs?: string;
  echo?: boolean;
  /** Gets Node-RED's output (its log) as it comes, e.g. to show it prefixed and keep it in a file. */
  onOutput?: (text: string) => void;
  adminUsers?: AdminUser[];
  /** Variables added to Node-RED's environment. */
  env?: Record<string, string>;
  /** More settings.js entries, e.g. envVarExcludes. */
  settings?: Record<string, unknown>;
}

/** Node-RED ended because its port was taken ("Unable to listen on …: port in use"). */
class PortInUseError extends Error {}

const PORT_ATTEMPTS = 3;

/**
 * Starts Node-RED and waits until it has started its flows. Under `npm test` the start waits for a heavy
 * slot (tools/test-limits.ts) and gives it back once the flows run: loading Node-RED and the nodes is
 * what loads the machine, a started Node-RED mostly waits. Held for its whole life, the slots kept the
 * package suites' Node-REDs waiting up to 10 minutes for each other.
 */
export async function startNodeRed(options: StartOptions): Promise<RunningNodeRed> {
  const since = fileNow();
  const release = await heavySlot(`a Node-RED start in ${options.userDir}`);
  try {
    const running = await startOnSomePort(options);
    const forget = keepUntilFileEnds(`Node-RED at ${running.url} (${options.userDir})`, running.stop, since);
    void running.exited.then(forget);
    return running;
  } finally {
    release();
  }
}

async function startOnSomePort(options: StartOptions): Promise<RunningNodeRed> {
  if (options.port !== undefined) return startOn(options, options.port);
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOn(options, await freePort());
    } catch (error) {
      if (!(error instanceof PortInUseError) || attempt >= PORT_ATTEMPTS) throw error;
    }
  }
}

/** How long a Node-RED may take to answer on its port, and then to start its flows, on a quiet machine. */
// 120 s: a CI run saw a Node-RED 5 on Node 22 take 90 s from its spawn to its first log line, the start after a stop in
// one test, while the machine's one-minute load was below 1 (not reproduced; its cause is not known).
const NODE_RED_ANSWERS_MS = 120_000;
const FLOWS_START_MS = 30_000;

async function startOn(options: StartOptions, port: number): Promise<RunningNodeRed> {
  const redJs = options.redJs ?? require.resolve("node-red/red.js");
  const settings = writeSettings(options.userDir, port, options.adminUsers, redJs, options.settings);
  const child = spawn(options.node ?? process.execPath, [redJs, "-u", options.userDir, "-s", settings], {
    cwd: options.userDir,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, ...options.env, NODE_OPTIONS: "" },
  });
  let output = "";
  const record = (chunk: Buffer): void => {
    output += chunk.toString();
    if (options.echo) process.stdout.write(chunk);
    options.onOutput?.(chunk.toString());
  };
  child.stdout?.on("data", record);
  child.stderr?.on("data", record);
  const exited = new Promise<string>((resolveExit) => child.once("exit", (code, signal) => resolveExit(signal ? `was killed (${signal})` : `exited with code ${code}`)));
  const url = `http://127.0.0.1:${port}`;
  const kill = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    await exited;
  };
  const freeze = async (ms: number): Promise<void> => {
    child.kill("SIGSTOP");
    try {
      // The length of the freeze is what is simulated: a fixed wait on purpose.
      await new Promise((resolveFreeze) => setTimeout(resolveFreeze, ms));
    } finally {
      child.kill("SIGCONT");
    }
  };
  const running: RunningNodeRed = { url, output: () => output, stop: () => stopChild(child), kill, freeze, exited };
  try {
    await waitForHttp(`${url}/auth/login`, child, () => output, scaled(NODE_RED_ANSWERS_MS));
    // The editor answers before the first flows have started; their "Started flows" must not be
    // taken later for that of a deploy.
    await waitForOutput("Started flows", () => output, scaled(FLOWS_START_MS));
  } catch (error) {
    await running.stop();
    throw error;
  }
  return running;
}

async function waitForHttp(url: string, child: ChildProcess, output: () => string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      const text = `Node-RED exited with code ${child.exitCode}:\n${output()}`;
      throw /Unable to listen on|port in use|EADDRINUSE/.test(output()) ? new PortInUseError(text) : new Error(text);
    }
    try {
      // Bounded: a Node-RED that took the connection but does not answer yet is asked again, within the deadline.
      const response = await fetch(url, { signal: AbortSignal.timeout(5_000) });
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    waitingOnTheMachine();
    await new Promise((resolveWait) => setTimeout(resolveWait, 200));
  }
  throw new Error(`Node-RED did not answer at ${url} within ${seconds(timeoutMs)} (load average ${loadAverage()}); the end of its log:\n${tail(output()) || "(nothing)"}`);
}

/** SIGINT, then SIGKILL if the process has not exited within 10 s. */
export function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolveStop) => {
    const kill = setTimeout(() => child.kill("SIGKILL"), 10_000);
    child.once("exit", () => {
      clearTimeout(kill);
      resolveStop();
    });
    child.kill("SIGINT");
  });
}

export const EXAMPLE_CONFIG_ID = "morelogin-emulator-config";
/** The config node of the examples that work through many profiles or phones a few at a time (maxProfiles, maxPhones). */
export const CAPPED_CONFIG_ID = "morelogin-emulator-capped";

export interface ExampleSet {
  flows: FlowNode[];
  /** Example file name (without .json) → the ids of its nodes, as deployed. */
  byExample: Map<string, FlowNode[]>;
  /** A global config node's id (a Dashboard page, say) → the first example file (without .json) that has it. */
  configExample: Map<string, string>;
}

/**
 * `value` with its leading `from` (a base URL) changed to `to`, when it starts with that URL followed by
 * a path or nothing; otherwise unchanged.
 */
export function rebase(value: unknown, from: unknown, to: unknown): unknown {
  if (typeof value !== "string" || typeof from !== "string" || typeof to !== "string" || from === "" || !value.startsWith(from)) return value;
  const rest = value.slice(from.length);
  return rest === "" || /^[/?#]/.test(rest) ? `${to}${rest}` : value;
}

/** The IP echo the examples name: npm start's emulator's (`--echo-port`, its Local port + 2). */
export const EXAMPLE_ECHO_URL = "http://127.0.0.1:40102/ip";

/**
 * Every file of examples/ on a tab of its own, node ids prefixed per file so files can share ids,
 * one config node for all of them pointing where `config` says. A node's setting that starts with the
 * example config node's Local API URL (such as the emulator's demo page) follows `config.localUrl`;
 * one that is the examples' IP echo becomes `echoUrl` when given ("" for the node's default service).
 */
export function loadExamples(config: Record<string, unknown>, echoUrl?: string): ExampleSet {
  const dir = join(ROOT, "examples");
  const files = readdirSync(dir)
    .filter((file) => file.endsWith(".json"))
    .sort();
  const flows: FlowNode[] = [];
  const byExample = new Map<string, FlowNode[]>();
  const configs = new Map<string, FlowNode>();
  const configExample = new Map<string, string>();
  files.forEach((file, index) => {
    const nodes = JSON.parse(readFileSync(join(dir, file), "utf8")) as FlowNode[];
    const tab = `example-tab-${index + 1}`;
    const isConfig = (node: FlowNode): boolean => node.type === "morelogin-config";
    // Other config nodes (Dashboard 2's ui-base, ui-page, ui-group, ui-theme, the global-config naming
    // the modules) have no place on the canvas: they stay global, with their ids, as an import keeps them.
    const isOtherConfig = (node: FlowNode): boolean => !isConfig(node) && node.type !== "tab" && node.x === undefined;
    const idMap = new Map(nodes.filter((node) => !isConfig(node) && !isOtherConfig(node) && node.type !== "tab").map((node) => [node.id, `ex${index + 1}-${node.id}`]));
    const exampleLocalUrl = nodes.find(isConfig)?.localUrl;
    const mapped: FlowNode[] = [];
    for (const node of nodes) {
      if (node.type === "tab") continue;
      if (isConfig(node)) {
        // Only the examples' main config node takes the caller's name: the others keep what sets them apart.
        configs.set(node.id, { ...node, ...config, ...(node.id === EXAMPLE_CONFIG_ID ? {} : { name: node.name }) });
        continue;
      }
      if (isOtherConfig(node)) {
        configs.set(node.id, node);
        if (!configExample.has(node.id)) configExample.set(node.id, file.replace(/\.json$/, ""));
        continue;
      }
      const copy: FlowNode = { ...node, id: idMap.get(node.id) ?? node.id, z: tab };
      for (const [key, value] of Object.entries(copy)) copy[key] = value === EXAMPLE_ECHO_URL && echoUrl !== undefined ? echoUrl : rebase(value, exampleLocalUrl, config.localUrl);
      if (copy.wires) copy.wires = copy.wires.map((port) => port.map((target) => idMap.get(target) ?? target));
      if (Array.isArray(copy.scope)) copy.scope = (copy.scope as string[]).map((target) => idMap.get(target) ?? target);
      if (Array.isArray(copy.links)) copy.links = (copy.links as string[]).map((target) => idMap.get(target) ?? target);
      if (copy.g && typeof copy.g === "string") copy.g = idMap.get(copy.g) ?? copy.g;
      mapped.push(copy);
    }
    flows.push({ id: tab, type: "tab", label: file.replace(/\.json$/, ""), disabled: false, info: "" }, ...mapped);
    byExample.set(file.replace(/\.json$/, ""), mapped);
  });
  return { flows: [...flows, ...configs.values()], byExample, configExample };
}

/** Deploys flows (credentials included on the nodes that have them) through the admin API, as `token`'s user when given. */
export async function deploy(url: string, flows: FlowNode[], token?: string): Promise<void> {
  const response = await fetch(`${url}/flows`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "Node-RED-Deployment-Type": "full",
      "Node-RED-API-Version": "v2",
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify({ flows }),
  });
  if (!response.ok) throw new Error(`deploy failed: HTTP ${response.status} ${await response.text()}`);
}

/**
 * Deploys and waits until Node-RED has started the new flows: it answers the deploy before its
 * nodes exist, so a request made at once would find none of them.
 */
export async function deployAndStart(nodeRed: RunningNodeRed, flows: FlowNode[], token?: string): Promise<void> {
  const from = nodeRed.output().length;
  await deploy(nodeRed.url, flows, token);
  // A bound, not a race: a Node-RED child that writes coverage, on a busy machine, can take long to start flows.
  await waitForOutput("Started flows", () => nodeRed.output().slice(from), scaled(60_000));
}

async function waitForOutput(line: string, output: () => string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!output().includes(line)) {
    if (Date.now() > deadline) throw new Error(`Node-RED did not log "${line}" within ${seconds(timeoutMs)} (load average ${loadAverage()}); the end of its log:\n${tail(output()) || "(nothing)"}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
