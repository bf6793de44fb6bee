/**
 * What the test processes share on one machine (tools/test-all.ts sets it up from its plan):
 *
 * - a slowdown factor for every bound a test waits under (MORELOGIN_TEST_SLOWDOWN, default 1);
 * - "heavy slots" (MORELOGIN_TEST_SLOTS=<folder>, MORELOGIN_TEST_SLOT_LIMIT=<n>): at most n test
 *   processes at once, across every group and mocha worker, may run Node-RED processes and Chromiums;
 * - "file slots" (in <folder>/files): how many test files run at once across every group, whichever
 *   group's worker has the next one (tools/mocha-hooks.ts takes one before a file's first hook and gives
 *   it back after its last). test-all steers the number in <folder>/files/limit as the CPU has time to
 *   spare; MORELOGIN_TEST_FILE_SLOT_LIMIT=<m> is the number when there is no such file. The two cannot
 *   deadlock: a file waits for a heavy slot only while it holds a file slot, and a process that still
 *   holds a heavy slot starts its next file without waiting for a file slot, so every heavy slot is
 *   held by a file that runs and ends.
 *
 * A slot belongs to a process, not to one Node-RED or one Chromium: a process that holds one starts
 * more without waiting, so a test that needs a Node-RED and a Chromium at once can never wait for
 * itself. Holding is a file `<pid>` in the slots folder; a process may hold only while at most n
 * such files of live processes exist. It writes its file first and then counts, and backs off when
 * there are too many: of two that came at once, each sees the other, so the limit is never passed.
 * Files of processes that are gone are removed by whoever counts next.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";

/** How much slower than a quiet machine this one is, by test-all's plan or the person's say-so. */
export const SLOWDOWN = Math.max(1, Number(process.env.MORELOGIN_TEST_SLOWDOWN) || 1);

/** A bound of a wait (ms), stretched by the machine's slowdown factor. */
export function scaled(ms: number): number {
  return Math.round(ms * SLOWDOWN);
}

/** "…after 12 s", for an error that says how long a wait went. */
export function seconds(ms: number): string {
  return `${Math.round(ms / 1000)} s`;
}

const SLOTS = process.env.MORELOGIN_TEST_SLOTS;
const LIMIT = Math.max(1, Number(process.env.MORELOGIN_TEST_SLOT_LIMIT) || 1);
const FILE_SLOTS = SLOTS && process.env.MORELOGIN_TEST_FILE_SLOT_LIMIT ? join(SLOTS, "files") : undefined;
/** Where test-all writes how many files may run now. */
export const FILE_LIMIT_NAME = "limit";

function fileLimit(folder: string): number {
  let steered: number | undefined;
  try {
    steered = Number(readFileSync(join(folder, FILE_LIMIT_NAME), "utf8"));
  } catch {
    // not steered: the number test-all started with
  }
  return Math.max(1, steered || Number(process.env.MORELOGIN_TEST_FILE_SLOT_LIMIT) || 1);
}

/** What this process runs under its slot, by description; the slot is given back when none is left. */
const holding = new Map<number, string>();
let nextHold = 1;
let mine: Promise<void> | undefined;

/**
 * Called every few hundred ms while a process waits for a slot: the mocha hooks (tools/mocha-hooks.ts)
 * restart the running test's or hook's timeout with it, so the wait does not count against it.
 */
let onWaiting: () => void = () => undefined;
export function whileWaitingForSlot(heartbeat: () => void): void {
  onWaiting = heartbeat;
}

/**
 * Said while a process waits on the machine rather than on what a test checks (a Node-RED still starting):
 * like a slot wait, it does not count against the running test's timeout; the wait keeps a bound of its own.
 */
export function waitingOnTheMachine(): void {
  onWaiting();
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The pids holding a slot now, this one's included if it has written its file; dead holders' files removed. */
export function holders(folder: string): number[] {
  const pids: number[] = [];
  for (const name of readdirSync(folder)) {
    const pid = Number(name);
    if (!Number.isInteger(pid)) continue;
    if (alive(pid)) pids.push(pid);
    else rmSync(join(folder, name), { force: true });
  }
  return pids;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function takeSlot(folder: string, limit: () => number, what: string, kind: string): Promise<void> {
  const file = join(folder, String(process.pid));
  const started = Date.now();
  for (;;) {
    writeFileSync(file, what);
    if (holders(folder).length <= limit()) break;
    rmSync(file, { force: true });
    onWaiting();
    // Random, so that two processes that keep arriving together do not keep backing off together.
    await sleep(200 + Math.random() * 500);
  }
  const waited = Date.now() - started;
  if (waited >= 5_000 && kind === "heavy") process.stderr.write(`[test-limits] ${what} waited ${seconds(waited)} for one of ${limit()} heavy slots\n`);
  onWaiting();
}

function giveBack(): void {
  if (SLOTS) rmSync(join(SLOTS, String(process.pid)), { force: true });
}

process.once("exit", giveBack);

/**
 * Waits until this process may run `what` (a Node-RED, a Chromium), and returns the function that says
 * it has ended. Without MORELOGIN_TEST_SLOTS (a test run by hand, `npm start`) it never waits.
 */
export async function heavySlot(what: string): Promise<() => void> {
  const id = nextHold++;
  holding.set(id, what);
  if (SLOTS) {
    mine ??= takeSlot(SLOTS, () => LIMIT, what, "heavy");
    try {
      await mine;
    } catch (error) {
      holding.delete(id);
      mine = undefined;
      throw error;
    }
  }
  let released = false;
  return () => {
    if (released) return;
    released = true;
    holding.delete(id);
    if (holding.size === 0 && mine) {
      mine = undefined;
      giveBack();
    }
  };
}

/**
 * Waits until one more test file may run (MORELOGIN_TEST_FILE_SLOT_LIMIT over every group), and returns
 * the function that gives the slot back. Never waits without it, nor in a process that holds a heavy
 * slot still (it already counts among those that load the machine).
 */
export async function fileSlot(what: string): Promise<() => void> {
  const folder = FILE_SLOTS;
  if (!folder || mine) return () => undefined;
  mkdirSync(folder, { recursive: true });
  await takeSlot(folder, () => fileLimit(folder), what, "file");
  const file = join(folder, String(process.pid));
  const giveFileBack = (): void => rmSync(file, { force: true });
  process.once("exit", giveFileBack);
  return () => {
    process.removeListener("exit", giveFileBack);
    giveFileBack();
  };
}

/** What this process runs under its slot now (for a report of what a test left running). */
export function heldFor(): string[] {
  return [...holding.values()];
}

/**
 * What a test file started and has not ended yet (a Node-RED, an editor session), ended when the file
 * ends (tools/mocha-hooks.ts): a test or hook that failed or timed out half way, or a session that
 * opened after its hook had timed out, must not keep running, and holding a slot, under the next files.
 */
let file = 0;
const open = new Map<number, { what: string; close: () => Promise<void> }>();
let nextOpen = 1;

/** Which test file is running, as a number: pass it to keepUntilFileEnds for a thing that takes long to start. */
export function fileNow(): number {
  return file;
}

/**
 * Registers `close` to end `what` when the test file that started it (at `since`) ends; returns the
 * function that unregisters it once the test has ended it itself. A thing that finished starting after
 * its file ended is ended at once.
 */
export function keepUntilFileEnds(what: string, close: () => Promise<void>, since = file): () => void {
  if (since !== file) {
    process.stderr.write(`[test-limits] ${what} started after its test file ended: ended at once\n`);
    void close().catch(() => undefined);
    return () => undefined;
  }
  const id = nextOpen++;
  open.set(id, { what, close });
  return () => {
    open.delete(id);
  };
}

/** Ends everything the file left running; returns what that was. */
export async function endFile(): Promise<string[]> {
  file++;
  const left = [...open.values()];
  open.clear();
  await Promise.all(left.map((thing) => thing.close().catch(() => undefined)));
  return left.map((thing) => thing.what);
}

/** The machine's load average over 1, 5 and 15 minutes, as a wait that ran out says it: "3.2 2.9 2.1". */
export function loadAverage(): string {
  return loadavg()
    .map((value) => value.toFixed(1))
    .join(" ");
}
