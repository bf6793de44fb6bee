/**
 * `npm test`: every test suite, in groups sized to the machine (docs/DEVELOPMENT.md).
 *
 * Each group is its own mocha process with its own log in test-results/logs/; the terminal shows the
 * plan (groups at once, workers, limits, and why), one line as each group starts and ends, the failures
 * of a failed group, and a closing "N passed, N failed". `npm test -- main soak` runs only the named groups.
 */
import { spawn } from "node:child_process";
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { availableParallelism, freemem, tmpdir } from "node:os";
import { basename, join, relative, resolve } from "node:path";
import { commandLineOf, isRunning, killAll, processesIn } from "./processes";
import { mochaArgs } from "./mocha";
import { type SteeringFigures, type SteeringRange, steerFileSlots } from "./file-slot-steering";
import { ROOT, packOnce } from "./sandbox";
import { cpuSecondsWithChildren, machineBusySeconds } from "./cpu-seconds";

const LOGS = join(ROOT, "test-results", "logs");
const COMPAT = join(ROOT, ".compat");

/** What a group runs, and the Node-RED under test when it is not the project's own. */
interface Group {
  name: string;
  specs: string[];
  /** Mocha workers of the group; 1 = serial. */
  jobs: number;
  timeoutMs: number;
  /** The node binary and Node-RED 5 folder of a compatibility run, prepared first. */
  compat?: number;
  extraArgs?: string[];
}

/**
 * A group's test files, longest first so that no long file starts last: mocha hands files to its
 * workers in the order given. Folders that start Node-RED or Chromium come first; within a folder the
 * larger file first, a good enough guess of its length.
 */
function testFiles(...folders: string[]): string[] {
  return folders.flatMap((folder) =>
    readdirSync(join(ROOT, folder), { recursive: true, encoding: "utf8" })
      .filter((file) => file.endsWith(".test.ts"))
      .map((file) => join(folder, file))
      .sort((a, b) => statSync(join(ROOT, b)).size - statSync(join(ROOT, a)).size),
  );
}

const RUNTIME_FOLDERS = ["test/package", "test/e2e", "test/nodes"];
/** The folders whose suites install the packed package into a Node-RED's user folder (tools/sandbox.ts, packOnce). */
const PACKAGE_FOLDERS = ["test/package", "test/e2e"];

/** How this machine runs the groups, and the words that say why. */
interface Plan {
  groupsAtOnce: number;
  jobs: number;
  /** Test processes that may run Node-RED or Chromium at the same time, over every group (tools/test-limits.ts). */
  heavySlots: number;
  /** Test files that may run at the same time over every group: steered within this range as the CPU allows (tools/file-slot-steering.ts). */
  fileSlots: SteeringRange;
  slowdown: number;
  why: string[];
}

const MB = 1024 * 1024;
/** What one test process with its Node-RED, emulator and Chromium takes, as seen here (a generous guess). */
const HEAVY_MB = 800;
/** What one group's mocha process and workers take besides. */
const GROUP_MB = 1200;

const envNumber = (name: string): number | undefined => (Number(process.env[name]) > 0 ? Number(process.env[name]) : undefined);

/**
 * The suites wait on timers (polls, pacing windows, phone state machines) far more than they compute,
 * so groups and workers can outnumber the cores; what loads a machine is Node-RED and Chromium, and
 * those run in at most one test process more than the cores at a time, across every group. On 2 cores with four
 * groups of three workers each starting its own, the load average reached 50 and what waits timed out.
 */
function planFor(groupCount: number): Plan {
  const cores = availableParallelism();
  const freeMb = Math.floor(freemem() / MB);
  const why = [`${cores} cores`, `${(freeMb / 1024).toFixed(1)} GB free memory`];
  // One more than the cores: a slot's holder also waits (on a page, a port, npm's cache), and Node-RED starts hold one briefly.
  const heavySlots = envNumber("MORELOGIN_TEST_SLOT_LIMIT") ?? Math.max(1, Math.min(cores + 1, Math.floor(freeMb / HEAVY_MB)));
  // From one a core up to four a core (eight at once on 2 cores kept them busy, and the load average at 15-30).
  const fixedFiles = envNumber("MORELOGIN_TEST_FILE_SLOT_LIMIT");
  const fileSlots = fixedFiles ? { min: fixedFiles, max: fixedFiles } : { min: cores, max: cores * 4 };
  const groupsAtOnce = Math.min(groupCount, envNumber("MORELOGIN_TEST_GROUPS") ?? Math.max(1, Math.floor((freeMb - heavySlots * HEAVY_MB) / GROUP_MB)));
  // Enough workers that the groups together can fill the most file slots; beyond that they would only wait.
  const jobs = envNumber("MORELOGIN_TEST_JOBS") ?? Math.max(2, Math.min(Math.ceil(fileSlots.max / groupCount) + 1, 6));
  // Fewer than 4 cores: the processes that do run still share them with the mocha workers.
  const slowdown = envNumber("MORELOGIN_TEST_SLOWDOWN") ?? (cores < 4 ? 1.5 : 1);
  for (const name of ["MORELOGIN_TEST_GROUPS", "MORELOGIN_TEST_SLOT_LIMIT", "MORELOGIN_TEST_FILE_SLOT_LIMIT", "MORELOGIN_TEST_JOBS", "MORELOGIN_TEST_SLOWDOWN"]) if (process.env[name]) why.push(name);
  return { groupsAtOnce, jobs, heavySlots, fileSlots, slowdown, why };
}

const GROUPS: Group[] = [
  { name: "main", specs: testFiles(...RUNTIME_FOLDERS, "test/emulator", "test/client", "test/browser", "test/journal", "test/batch", "test/tools"), jobs: 0, timeoutMs: 90_000 },
  { name: "node22", specs: testFiles(...RUNTIME_FOLDERS), jobs: 0, timeoutMs: 90_000, compat: 22 },
  { name: "node24", specs: testFiles(...RUNTIME_FOLDERS), jobs: 0, timeoutMs: 90_000, compat: 24 },
  { name: "soak", specs: testFiles("test/reliability"), jobs: 2, timeoutMs: 300_000 },
];

/** Where a group's test files write how long each ran (MORELOGIN_TEST_TIMES). */
const timesFileOf = (group: string): string => join(LOGS, `${group}-files.txt`);

/** The run's temporary root (a folder per group, the slots folder) and what every group's processes get in their environment. */
interface RunFolders {
  root: string;
  env: NodeJS.ProcessEnv;
}

interface Outcome {
  group: string;
  passed: number;
  failed: number;
  pending: number;
  seconds: number;
  code: number;
  label: string;
  log: string;
}

function log(line: string): void {
  process.stdout.write(`${new Date().toISOString().slice(11, 19)} ${line}\n`);
}

function run(command: string, args: string[], options: { env?: NodeJS.ProcessEnv; logFile: string }): Promise<number> {
  return new Promise((resolveRun) => {
    const out = createWriteStream(options.logFile);
    const child = spawn(command, args, { cwd: ROOT, env: options.env ?? process.env, stdio: ["ignore", "pipe", "pipe"] });
    child.stdout.pipe(out, { end: false });
    child.stderr.pipe(out, { end: false });
    child.on("error", (error) => {
      out.end(`\n${String(error)}\n`);
      resolveRun(127);
    });
    child.on("close", (code, signal) => {
      out.end(signal ? `\nended by ${signal}\n` : "");
      resolveRun(code ?? 1);
    });
  });
}

/** An npm install into a folder of its own under .compat/, outside the project's lock file. */
async function installInto(folder: string, packages: string[]): Promise<string> {
  const dir = join(COMPAT, folder);
  mkdirSync(dir, { recursive: true });
  const manifest = join(dir, "package.json");
  if (!existsSync(manifest)) writeFileSync(manifest, JSON.stringify({ name: `morelogin-compat-${folder}`, private: true }));
  const logFile = join(LOGS, `${folder}-install.log`);
  // npm itself runs on the project's Node here, so node-red@5's engines check is relaxed for this install only.
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  const code = await run(npm, ["install", "--prefix", dir, "--no-audit", "--no-fund", "--engine-strict=false", ...packages], { logFile });
  if (code !== 0) throw new Error(`installing ${packages.join(" ")} failed (exit ${code}): see ${logFile}`);
  return dir;
}

/** Node-RED 5, installed once for both compatibility groups (its code does not depend on the Node that runs it). */
let nodeRed5: Promise<string> | undefined;

/** Node `major` in .compat/node<major>, and the shared Node-RED 5 in .compat/node-red5. */
async function prepareCompat(major: number): Promise<{ node: string; red: string; label: string }> {
  nodeRed5 ??= installInto("node-red5", ["node-red@5"]);
  const [dir, redDir] = await Promise.all([installInto(`node${major}`, [`node@${major}`]), nodeRed5]);
  const node = join(dir, "node_modules", ".bin", "node");
  const red = join(redDir, "node_modules", "node-red");
  const redVersion = (JSON.parse(readFileSync(join(red, "package.json"), "utf8")) as { version: string }).version;
  const nodeVersion = await new Promise<string>((resolveVersion) => {
    const child = spawn(node, ["--version"], { stdio: ["ignore", "pipe", "ignore"] });
    let text = "";
    child.stdout.on("data", (chunk: Buffer) => {
      text += chunk.toString();
    });
    child.on("close", () => resolveVersion(text.trim()));
  });
  return { node, red, label: `Node-RED ${redVersion} on Node ${nodeVersion}` };
}

/** The counts in mocha's closing lines ("840 passing (11m)", "2 failing", "3 pending"). */
function countsOf(text: string): { passed: number; failed: number; pending: number } {
  const count = (word: string): number => {
    const matches = [...text.matchAll(new RegExp(`^\\s*(\\d+) ${word}\\b`, "gm"))];
    return matches.length ? Number(matches[matches.length - 1]?.[1]) : 0;
  };
  return { passed: count("passing"), failed: count("failing"), pending: count("pending") };
}

/** tsx keeps its compiled files in os.tmpdir(): the group's temporary folder links to the usual cache, so no group compiles cold. */
const TSX_CACHE = `tsx-${process.getuid?.() ?? 0}`;
function linkTsxCache(temp: string): void {
  const cache = join(tmpdir(), TSX_CACHE);
  mkdirSync(cache, { recursive: true });
  symlinkSync(cache, join(temp, TSX_CACHE), "dir");
}

/**
 * What the runtimes themselves leave in the temporary folder, whoever started them, not a test's leak:
 * Chromium's files with --disable-dev-shm-usage, and Node 22's and 24's module compile cache.
 */
const RUNTIMES_OWN = /^(org\.chromium\.Chromium\.|node-compile-cache$)/;

/**
 * Ends every process still working in a group's temporary folder (Node-RED, Chromium and their helpers)
 * and removes the folder; returns what it found, for the log: a leak a test should fix.
 */
async function sweep(folder: string): Promise<string[]> {
  const left: string[] = [];
  const pids = processesIn(folder);
  if (pids.length) {
    left.push(`${pids.length} process${pids.length === 1 ? "" : "es"} still running (${pids.map((pid) => `${pid} ${basename(commandLineOf(pid)[0] ?? "?")}`).join(", ")})`);
    killAll(pids);
    const deadline = Date.now() + 10_000;
    while (pids.some(isRunning) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const entries = existsSync(folder) ? readdirSync(folder).filter((entry) => entry !== TSX_CACHE && !RUNTIMES_OWN.test(entry)) : [];
  if (entries.length) left.push(`${entries.length} temporary folder${entries.length === 1 ? "" : "s"} left (${entries.slice(0, 8).join(", ")}${entries.length > 8 ? ", …" : ""})`);
  rmSync(folder, { recursive: true, force: true });
  return left;
}

async function runGroup(group: Group, folders: RunFolders): Promise<Outcome> {
  const started = Date.now();
  const logFile = join(LOGS, `${group.name}.log`);
  let nodeBinary = process.execPath;
  let label = `Node-RED ${(JSON.parse(readFileSync(join(ROOT, "node_modules", "node-red", "package.json"), "utf8")) as { version: string }).version} on Node ${process.version}`;
  // os.tmpdir() of the group's processes: everything they leave is found there and removed at its end.
  const temp = join(folders.root, group.name);
  mkdirSync(temp, { recursive: true });
  linkTsxCache(temp);
  const times = timesFileOf(group.name);
  rmSync(times, { force: true });
  const env: NodeJS.ProcessEnv = { ...process.env, ...folders.env, TMPDIR: temp, MORELOGIN_TEST_TIMES: times };
  try {
    if (group.compat) {
      const compat = await prepareCompat(group.compat);
      nodeBinary = compat.node;
      label = compat.label;
      env.MORELOGIN_NODE_RED = compat.red;
      env.MORELOGIN_COMPAT_NODE = compat.node;
      env.MORELOGIN_COMPAT_RED = join(compat.red, "red.js");
      // Screenshots of the editor tests go beside the log, not over the main run's.
      env.MORELOGIN_SCREENSHOTS_DIR = join(ROOT, "test-results", group.name);
      mkdirSync(env.MORELOGIN_SCREENSHOTS_DIR, { recursive: true });
    }
  } catch (error) {
    return { group: group.name, passed: 0, failed: 1, pending: 0, seconds: (Date.now() - started) / 1000, code: 1, label: String(error), log: logFile };
  }
  log(`${group.name}: started (${label}, ${group.jobs === 1 ? "serial" : `${group.jobs} workers`})`);
  // --exit: a handle a test left open must not keep the group from ending; the sweep then finds what it left.
  const args = [...mochaArgs(group.timeoutMs), "--exit", "--reporter", "spec", ...(group.jobs > 1 ? ["--parallel", "--jobs", String(group.jobs)] : []), ...(group.extraArgs ?? []), ...group.specs];
  const code = await run(nodeBinary, args, { env, logFile });
  const left = await sweep(temp);
  if (left.length) {
    const line = `${group.name}: cleaned up after the tests: ${left.join("; ")}`;
    log(line);
    writeFileSync(logFile, `\n${line}\n`, { flag: "a" });
  }
  const text = readFileSync(logFile, "utf8");
  const counts = countsOf(text);
  const failed = code !== 0 && counts.failed === 0 ? 1 : counts.failed;
  return { group: group.name, ...counts, failed, seconds: (Date.now() - started) / 1000, code, label, log: logFile };
}

/** How long each test file of a group ran, and the CPU-seconds it took (tools/mocha-hooks.ts writes the lines). */
function fileTimes(group: string): Array<{ group: string; file: string; seconds: number; cpu: number }> {
  const path = timesFileOf(group);
  if (!existsSync(path)) return [];
  return readFileSync(path, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => {
      const [seconds = "0", , cpu = "0", ...file] = line.split(" ");
      return { group, file: file.join(" "), seconds: Number(seconds), cpu: Number(cpu) };
    });
}

/** The failures section of a mocha log: from "N failing" to the end. */
function failuresOf(file: string): string {
  const text = readFileSync(file, "utf8");
  const at = text.search(/^\s*\d+ failing\b/m);
  return at >= 0 ? text.slice(at) : text.slice(-4000);
}

/** The closing lines: each group, the longest and costliest files, the run's CPU, the machine, the counts. */
function printSummary(outcomes: Outcome[], machine: SteeringFigures, cpu: number, busy: number | undefined): void {
  const passed = outcomes.reduce((sum, outcome) => sum + outcome.passed, 0);
  const failed = outcomes.reduce((sum, outcome) => sum + outcome.failed, 0);
  const times = outcomes.flatMap((outcome) => fileTimes(outcome.group));
  for (const outcome of outcomes) {
    const groupCpu = times.filter((entry) => entry.group === outcome.group).reduce((sum, entry) => sum + entry.cpu, 0);
    process.stdout.write(
      `  ${outcome.group.padEnd(7)} ${String(Math.round(outcome.seconds)).padStart(5)} s  ${String(Math.round(groupCpu)).padStart(5)} CPU-s in its files  ${outcome.passed} passing, ${outcome.failed} failing  ${outcome.label}\n`,
    );
  }
  const top = (key: "seconds" | "cpu", unit: string): string =>
    [...times]
      .sort((a, b) => b[key] - a[key])
      .slice(0, 5)
      .map((entry) => `${entry.file} (${entry.group}) ${Math.round(entry[key])} ${unit}`)
      .join(", ");
  if (times.length) process.stdout.write(`longest files: ${top("seconds", "s")}\nmost CPU: ${top("cpu", "CPU-s")}; all in ${LOGS}/<group>-files.txt\n`);
  process.stdout.write(
    `CPU: ${Math.round(cpu)} CPU-seconds in the run's processes (every group's, installs of the compatibility runtimes included)${busy === undefined ? "" : `; the machine was busy for ${Math.round(busy)} CPU-seconds meanwhile, whatever else ran`}\n`,
  );
  process.stdout.write(
    `machine: load average ${machine.loadMean.toFixed(1)} mean, ${machine.loadMax.toFixed(1)} max on ${availableParallelism()} cores; test files at once ${machine.meanRunning.toFixed(1)} mean, limit ${machine.meanLimit.toFixed(1)} mean, ${machine.maxLimit} max\n`,
  );
  process.stdout.write(`tests: ${passed} passed, ${failed} failed\n`);
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  // `npm test -- main test/e2e/editor.test.ts`: only those files, in the groups that run them.
  const files = args.filter((arg) => arg.endsWith(".ts")).map((file) => relative(ROOT, resolve(file)));
  const wanted = args.filter((arg) => !arg.endsWith(".ts"));
  const unknown = [...wanted.filter((name) => !GROUPS.some((group) => group.name === name)), ...files.filter((file) => !GROUPS.some((group) => group.specs.includes(file)))];
  if (unknown.length) {
    process.stderr.write(`unknown test group or file: ${unknown.join(", ")}; the groups are ${GROUPS.map((group) => group.name).join(", ")}\n`);
    process.exit(2);
  }
  const chosen = (wanted.length ? GROUPS.filter((group) => wanted.includes(group.name)) : GROUPS)
    .map((group) => (files.length ? { ...group, specs: group.specs.filter((spec) => files.includes(spec)) } : group))
    .filter((group) => group.specs.length > 0);
  const plan = planFor(chosen.length);
  const groups = chosen.map((group) => ({ ...group, jobs: Math.min(group.jobs || plan.jobs, group.specs.length) }));
  mkdirSync(LOGS, { recursive: true });
  const root = mkdtempSync(join(tmpdir(), "morelogin-test-run-"));
  const slots = join(root, "slots");
  mkdirSync(join(slots, "files"), { recursive: true });
  const folders: RunFolders = {
    root,
    env: {
      MORELOGIN_TEST_SLOTS: slots,
      MORELOGIN_TEST_SLOT_LIMIT: String(plan.heavySlots),
      MORELOGIN_TEST_FILE_SLOT_LIMIT: String(plan.fileSlots.min),
      MORELOGIN_TEST_SLOWDOWN: String(plan.slowdown),
    },
  };
  const interrupted = (): void => {
    killAll(processesIn(root));
    rmSync(root, { recursive: true, force: true });
    process.exit(130);
  };
  process.once("SIGINT", interrupted);
  process.once("SIGTERM", interrupted);
  log(
    `plan (${plan.why.join(", ")}): ${groups.map((group) => `${group.name} (${group.jobs === 1 ? "serial" : `${group.jobs} workers`})`).join(", ")}, ${plan.groupsAtOnce >= groups.length ? "all at once" : `${plan.groupsAtOnce} at a time`}; ${plan.fileSlots.min === plan.fileSlots.max ? plan.fileSlots.min : `${plan.fileSlots.min} to ${plan.fileSlots.max}`} test files at a time (more while the CPU is at least 30% idle), at most ${plan.heavySlots} test process${plan.heavySlots === 1 ? "" : "es"} of them running Node-RED or Chromium; timeouts × ${plan.slowdown}; logs in ${LOGS}`,
  );
  const cpuBefore = cpuSecondsWithChildren();
  const busyBefore = machineBusySeconds();
  if (groups.some((group) => group.specs.some((spec) => PACKAGE_FOLDERS.some((folder) => spec.startsWith(`${folder}/`))))) {
    const packing = Date.now();
    Object.assign(folders.env, await packOnce(join(root, "package")));
    log(`packed the package and installed it once for every group (${Math.round((Date.now() - packing) / 1000)} s)`);
  }
  const queue = [...groups];
  const outcomes: Outcome[] = [];
  const lane = async (): Promise<void> => {
    for (let group = queue.shift(); group; group = queue.shift()) {
      const outcome = await runGroup(group, folders);
      const verdict = outcome.code === 0 ? "passed" : "FAILED";
      log(`${outcome.group}: ${verdict} in ${Math.round(outcome.seconds)} s: ${outcome.passed} passing, ${outcome.failed} failing, ${outcome.pending} pending (${outcome.label})`);
      if (outcome.code !== 0) process.stdout.write(`\n--- ${outcome.group} (${outcome.log}) ---\n${failuresOf(outcome.log)}\n`);
      outcomes.push(outcome);
    }
  };
  const steering = steerFileSlots(join(slots, "files"), plan.fileSlots);
  await Promise.all(Array.from({ length: plan.groupsAtOnce }, lane));
  const machine = steering.stop();
  rmSync(root, { recursive: true, force: true });
  outcomes.sort((a, b) => groups.findIndex((group) => group.name === a.group) - groups.findIndex((group) => group.name === b.group));
  const cpu = cpuSecondsWithChildren() - cpuBefore;
  const busy = busyBefore === undefined ? undefined : (machineBusySeconds() ?? busyBefore) - busyBefore;
  printSummary(outcomes, machine, cpu, busy);
  process.exit(outcomes.every((outcome) => outcome.code === 0) ? 0 : 1);
}

void main();
