/** A throwaway redis-server for the queue phases: a free loopback port, no persistence, a temporary folder removed after. */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import { freePort } from "../tools/sandbox";

/** Debian's redis-server, or the one MORELOGIN_REDIS_SERVER names. */
export const REDIS_SERVER = process.env.MORELOGIN_REDIS_SERVER || "/usr/bin/redis-server";

/** Why the queue phases cannot run here, or undefined. */
export function missingRedis(): string | undefined {
  return existsSync(REDIS_SERVER) ? undefined : `no redis-server at ${REDIS_SERVER} (install it with \`apt-get install -y redis-server\`, or name one with MORELOGIN_REDIS_SERVER)`;
}

export interface RunningRedis {
  /** `redis://127.0.0.1:<port>/0`. */
  url: string;
  stop(): Promise<void>;
}

const ANSWERS_MS = 20_000;

export async function startRedis(): Promise<RunningRedis> {
  const folder = mkdtempSync(join(tmpdir(), "morelogin-bench-redis-"));
  const port = await freePort();
  const child = spawn(REDIS_SERVER, ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", folder], { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  const url = `redis://127.0.0.1:${port}/0`;
  const stop = async (): Promise<void> => {
    await stopProcess(child);
    rmSync(folder, { recursive: true, force: true });
  };
  try {
    await answers(url, child, () => output);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, stop };
}

/** Resolves once the server answers PING. */
async function answers(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  // A refused connection while it starts is expected: the loop asks again.
  client.on("error", () => undefined);
  const deadline = Date.now() + ANSWERS_MS;
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`redis-server exited with code ${child.exitCode}: ${output()}`);
      if (Date.now() > deadline) throw new Error(`redis-server did not answer within ${ANSWERS_MS / 1000} s: ${output()}`);
      try {
        if (client.status === "wait" || client.status === "end") await client.connect();
        if ((await client.ping()) === "PONG") return;
      } catch {
        // not listening yet
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } finally {
    client.disconnect();
  }
}

function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill("SIGKILL"), 5000);
    child.once("exit", () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill("SIGTERM");
  });
}
