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
