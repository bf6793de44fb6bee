import { rmSync } from "node:fs";

/** A child process this process must not leave behind, and the folder it owns. */
export interface Guarded {
  pid: number;
  folder: string;
}

const live = new Set<Guarded>();
let installed = false;

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
  for (const { pid, folder } of live) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
    try {
      rmSync(folder, { recursive: true, force: true, maxRetries: 3 });
    } catch {
      // the dying browser may still be writing into it; a leftover temporary folder is the lesser harm
    }
  }
  live.clear();
}
