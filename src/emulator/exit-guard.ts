import { readdirSync, readFileSync, rmSync } from "node:fs";

/** A child process this process must not leave behind, and the folder it owns. */
export interface Guarded {
  pid: number;
  folder: string;
}

const live = new Set<Guarded>();
let installed = false;
/** How long the exit handler waits for the killed processes to die before it removes their folders. */
const DEATH_WAIT_MS = 3_000;

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

/** Runs inside the "exit" event, so everything here is synchronous. */
function killAll(): void {
  const left = [...live];
  live.clear();
  // Chromium's helper processes name the folder on their command lines; they are killed too, so that
  // none still writes into the folder while it is removed.
  const pids = new Set(left.map(({ pid }) => pid));
  const running = commandLines();
  for (const { folder } of left) {
    for (const [pid, line] of running) if (line.includes(`--user-data-dir=${folder}`)) pids.add(pid);
  }
  for (const pid of pids) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
  const deadline = Date.now() + DEATH_WAIT_MS;
  while ([...pids].some(alive) && Date.now() < deadline) pause(10);
  for (const { folder } of left) {
    try {
      rmSync(folder, { recursive: true, force: true, maxRetries: 3 });
    } catch {
      // a leftover temporary folder is the lesser harm
    }
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
