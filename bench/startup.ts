/**
 * Phase 6, the time the package adds to Node-RED's start: a real Node-RED process (node-red/red.js,
 * the project's 4.x) started in two user folders, one with the package installed from its `npm pack`
 * tarball (as a user gets it) and one without, in turns. Each start is timed from spawn until
 * Node-RED logs "Started flows" (nodes loaded and registered, admin server listening, flows running).
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort, packPackage, prepareUserDir, stopChild, writeSettings } from "../tools/sandbox";
import { median } from "./measure";

export interface StartupResult {
  samples: number;
  withoutMs: number;
  withMs: number;
  addedMs: number;
  withoutRuns: number[];
  withRuns: number[];
}

const READY = /Started flows/;

async function timeStart(userDir: string): Promise<number> {
  const settings = writeSettings(userDir, await freePort());
  const redJs = require.resolve("node-red/red.js");
  const begin = performance.now();
  const child = spawn(process.execPath, [redJs, "-u", userDir, "-s", settings], { cwd: userDir, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, NODE_OPTIONS: "" } });
  let output = "";
  try {
    return await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`Node-RED did not start within 60 s:\n${output}`)), 60_000);
      const onData = (chunk: Buffer): void => {
        output += chunk.toString();
        if (READY.test(output)) {
          clearTimeout(timer);
          resolve(performance.now() - begin);
        }
      };
      child.stdout.on("data", onData);
      child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
      child.once("exit", (code) => {
        clearTimeout(timer);
        reject(new Error(`Node-RED exited with ${String(code)}:\n${output}`));
      });
    });
  } finally {
    await stopChild(child);
  }
}

export async function startup(samples = 5): Promise<StartupResult> {
  const work = mkdtempSync(join(tmpdir(), "morelogin-bench-"));
  try {
    const tarball = await packPackage(join(work, "pack"));
    const withDir = join(work, "with");
    const withoutDir = join(work, "without");
    await prepareUserDir(withDir, tarball, { fresh: true });
    mkdirSync(withoutDir, { recursive: true });
    // One start each first (not counted): creates the flow and config files, warms the file cache.
    await timeStart(withoutDir);
    await timeStart(withDir);
    const withoutRuns: number[] = [];
    const withRuns: number[] = [];
    for (let i = 0; i < samples; i++) {
      withoutRuns.push(Math.round(await timeStart(withoutDir)));
      withRuns.push(Math.round(await timeStart(withDir)));
    }
    const withoutMs = Math.round(median(withoutRuns));
    const withMs = Math.round(median(withRuns));
    return { samples, withoutMs, withMs, addedMs: withMs - withoutMs, withoutRuns, withRuns };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
