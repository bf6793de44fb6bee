/** The emulator's command line, run as a child process from the sources. */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { join } from "node:path";

const root = join(__dirname, "..", "..");
const cli = join(root, "src", "emulator", "cli.ts");

export function runCli(args: string[]): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, ["--import", "tsx", cli, ...args], { cwd: root });
}

export function exitOf(child: ChildProcessWithoutNullStreams): Promise<{ code: number | null; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr })));
}

/** Resolves with stdout once it contains `pattern`. */
export function waitFor(child: ChildProcessWithoutNullStreams, pattern: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = "";
    const onData = (chunk: Buffer): void => {
      out += chunk.toString();
      if (pattern.test(out)) {
        child.stdout.off("data", onData);
        resolve(out);
      }
    };
    child.stdout.on("data", onData);
    child.once("close", (code) => reject(new Error(`exited with ${code} before printing ${pattern}: ${out}`)));
  });
}

/**
 * The exit of a child that should stop by itself (a usage error). A CLI that wrongly starts would run
 * forever: once it prints `started`, it is killed and `started` is true, so the test fails instead of
 * hanging. No timer: a slow start on a busy machine is only slow, never a wrong exit code.
 */
export async function exitUnlessStarted(child: ChildProcessWithoutNullStreams, started: RegExp = /Press Ctrl\+C/): Promise<{ code: number | null; stdout: string; stderr: string; started: boolean }> {
  let out = "";
  let sawStart = false;
  const onData = (chunk: Buffer): void => {
    out += chunk.toString();
    if (!sawStart && started.test(out)) {
      sawStart = true;
      child.kill("SIGKILL");
    }
  };
  child.stdout.on("data", onData);
  const exit = await exitOf(child);
  child.stdout.off("data", onData);
  return { ...exit, started: sawStart };
}
