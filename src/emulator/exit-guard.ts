import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { profileFolders } from "./profile-folders";

/** A child process this process must not leave behind, and the folder it owns. */
export interface Guarded {
  pid: number;
  folder: string;
}

const live = new Set<Guarded>();
let installed = false;
/**
 * How long the exit handler may keep killing and removing: on a busy machine a killed Chromium can take
 * seconds to die, and one of its helpers can still write into the folder while it is removed.
 */
const CLEANUP_MS = 10_000;

/** When this process exits with `guarded` still registered, the child is SIGKILLed and its folder removed. */
export function guard(guarded: Guarded): void {
  live.add(guarded);
  if (installed) return;
  installed = true;
  process.on("exit", killAll);
}

export function release(guarded: Guarded): void {
  live.delete(guarded);
}

/**
 * Runs inside the "exit" event, so everything here is synchronous. A Chromium that is still starting
 * forks helpers, and one forked just after a look at the process table escapes it and can create the
 * folder again (its network service does), so this ends only when a look taken after the removal finds
 * no live process naming a folder and every folder is gone, or after CLEANUP_MS.
 */
function killAll(): void {
  const left = [...live];
  live.clear();
  if (left.length === 0) return;
  const deadline = Date.now() + CLEANUP_MS;
  const folders = left.map(({ folder }) => folder);
  let pids = [...new Set([...left.map(({ pid }) => pid), ...naming(folders)])];
  for (;;) {
    for (const pid of pids) kill(pid);
    while (pids.some(alive) && Date.now() < deadline) pause(10);
    for (const owned of folders.flatMap(profileFolders)) remove(owned);
    if (Date.now() >= deadline) return;
    pids = naming(folders).filter(alive);
    if (pids.length > 0) continue;
    if (!folders.some((folder) => existsSync(folder))) return;
    pause(50);
  }
}

/** The processes whose command line names one of the folders as their profile (Chromium's helpers do too). */
function naming(folders: readonly string[]): number[] {
  const pids: number[] = [];
  for (const [pid, line] of commandLines()) if (folders.some((folder) => line.includes(`--user-data-dir=${folder}`))) pids.push(pid);
  return pids;
}

function kill(pid: number): void {
  try {
    process.kill(pid, "SIGKILL");
  } catch {
    // already gone
  }
}

/** Removes the folder if it can (a leftover temporary folder is the lesser harm). */
function remove(folder: string): void {
  try {
    rmSync(folder, { recursive: true, force: true, maxRetries: 3 });
  } catch {
    // tried again while time is left
  }
}

/** Every process's command line, on Linux; empty elsewhere. */
function commandLines(): Map<number, string> {
  const lines = new Map<number, string>();
  let names: string[] = [];
  try {
    names = readdirSync("/proc").filter((name) => /^\d+$/.test(name));
  } catch {
    return lines;
  }
  for (const name of names) {
    try {
      lines.set(Number(name), readFileSync(`/proc/${name}/cmdline`, "utf8"));
    } catch {
      // it ended meanwhile
    }
  }
  return lines;
}

/**
 * Whether the process still runs. A killed child stays a zombie until this process has gone, so on
 * Linux its state is read; elsewhere it counts as dead once signalled.
 */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
