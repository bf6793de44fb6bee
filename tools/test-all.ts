/**
 * `npm test`: every test suite, the groups that mostly wait side by side (docs/DEVELOPMENT.md).
 *
 * Each group is its own mocha process with its own log in test-results/logs/; the terminal shows one line
 * as each group starts and ends, the failures of a failed group, and a closing "N passed, N failed".
 * `npm test -- main soak` runs only the named groups.
 */
import { spawn } from "node:child_process";
import { createWriteStream, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { join } from "node:path";
import { mochaArgs } from "./mocha";
import { ROOT } from "./sandbox";

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

/**
 * Workers per group: the suites wait on timers (polls, pacing windows, phone state machines,
 * Node-RED starts) far more than they compute, so more workers than cores pays, up to a point: with
 * 2 × cores the main group finished 5 minutes before the others and only added to the load, at which
 * timing races surface. MORELOGIN_TEST_JOBS overrides it for a slower machine.
 */
const JOBS = Number(process.env.MORELOGIN_TEST_JOBS) || Math.max(2, Math.round(cpus().length * 1.5));

const GROUPS: Group[] = [
  { name: "main", specs: testFiles(...RUNTIME_FOLDERS, "test/emulator", "test/client", "test/journal"), jobs: JOBS, timeoutMs: 90_000 },
  { name: "node22", specs: testFiles(...RUNTIME_FOLDERS), jobs: JOBS, timeoutMs: 90_000, compat: 22 },
  { name: "node24", specs: testFiles(...RUNTIME_FOLDERS), jobs: JOBS, timeoutMs: 90_000, compat: 24 },
  { name: "soak", specs: testFiles("test/reliability"), jobs: 2, timeoutMs: 300_000 },
];

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

async function runGroup(group: Group): Promise<Outcome> {
  const started = Date.now();
  const logFile = join(LOGS, `${group.name}.log`);
  let nodeBinary = process.execPath;
  let label = `Node-RED ${(JSON.parse(readFileSync(join(ROOT, "node_modules", "node-red", "package.json"), "utf8")) as { version: string }).version} on Node ${process.version}`;
  const env: NodeJS.ProcessEnv = { ...process.env };
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
  const args = [...mochaArgs(group.timeoutMs), "--reporter", "spec", ...(group.jobs > 1 ? ["--parallel", "--jobs", String(group.jobs)] : []), ...(group.extraArgs ?? []), ...group.specs];
  const code = await run(nodeBinary, args, { env, logFile });
  const text = readFileSync(logFile, "utf8");
  const counts = countsOf(text);
  const failed = code !== 0 && counts.failed === 0 ? 1 : counts.failed;
  return { group: group.name, ...counts, failed, seconds: (Date.now() - started) / 1000, code, label, log: logFile };
}

/** The failures section of a mocha log: from "N failing" to the end. */
function failuresOf(file: string): string {
  const text = readFileSync(file, "utf8");
  const at = text.search(/^\s*\d+ failing\b/m);
  return at >= 0 ? text.slice(at) : text.slice(-4000);
}

async function main(): Promise<void> {
  const wanted = process.argv.slice(2);
  const unknown = wanted.filter((name) => !GROUPS.some((group) => group.name === name));
  if (unknown.length) {
    process.stderr.write(`unknown test group: ${unknown.join(", ")}; the groups are ${GROUPS.map((group) => group.name).join(", ")}\n`);
    process.exit(2);
  }
  const groups = wanted.length ? GROUPS.filter((group) => wanted.includes(group.name)) : GROUPS;
  mkdirSync(LOGS, { recursive: true });
  log(`running ${groups.map((group) => group.name).join(", ")} side by side; logs in ${LOGS}`);
  const outcomes = await Promise.all(
    groups.map(async (group) => {
      const outcome = await runGroup(group);
      const verdict = outcome.code === 0 ? "passed" : "FAILED";
      log(`${outcome.group}: ${verdict} in ${Math.round(outcome.seconds)} s: ${outcome.passed} passing, ${outcome.failed} failing, ${outcome.pending} pending (${outcome.label})`);
      if (outcome.code !== 0) process.stdout.write(`\n--- ${outcome.group} (${outcome.log}) ---\n${failuresOf(outcome.log)}\n`);
      return outcome;
    }),
  );
  const passed = outcomes.reduce((sum, outcome) => sum + outcome.passed, 0);
  const failed = outcomes.reduce((sum, outcome) => sum + outcome.failed, 0);
  for (const outcome of outcomes) {
    process.stdout.write(`  ${outcome.group.padEnd(7)} ${String(Math.round(outcome.seconds)).padStart(5)} s  ${outcome.passed} passing, ${outcome.failed} failing  ${outcome.label}\n`);
  }
  process.stdout.write(`tests: ${passed} passed, ${failed} failed\n`);
  process.exit(outcomes.every((outcome) => outcome.code === 0) ? 0 : 1);
}

void main();
