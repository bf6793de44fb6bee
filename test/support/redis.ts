/**
 * A real Redis for the tests of the queue (issue 41): Debian's `redis-server` on a free loopback port, in a
 * folder of its own under os.tmpdir() (where tools/test-all.ts's sweep finds whatever a crashed run left).
 */
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { type Socket, connect as connectTcp } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connect as connectTls } from "node:tls";
import { promisify } from "node:util";
import { freePort } from "../../tools/sandbox";
import { fileNow, keepUntilFileEnds, scaled, seconds } from "../../tools/test-limits";

export const REDIS_SERVER = "/usr/bin/redis-server";
const HOST = "127.0.0.1";
const run = promisify(execFile);

export interface RedisOptions {
  /** Keep the data across a stop and a restart: `appendonly yes`, each write on disk before it is answered. */
  persist?: boolean;
  /** `requirepass`, or, with `username`, the password of an ACL user (the default user then off). */
  password?: string;
  username?: string;
  /** TLS only (`rediss://`), with a throw-away CA and server certificate for 127.0.0.1 and localhost. */
  tls?: boolean;
}

export interface RunningRedis {
  /** `redis://127.0.0.1:<port>/0` (`rediss://` with tls); never with the password. */
  url: string;
  port: number;
  /** With tls: the CA certificate's path, for NODE_EXTRA_CA_CERTS or a client's `ca`. */
  ca?: string;
  /** Redis's folder (its data, its certificates). */
  folder: string;
  /** What redis-server printed, over every start. */
  output: () => string;
  /** Ends the process (SIGTERM: an AOF is written out) and keeps the folder, for `restart`. */
  shutdown: () => Promise<void>;
  /** Ends the process at once (SIGKILL) and keeps the folder, for `restart`. */
  kill: () => Promise<void>;
  /** Starts it again (after `shutdown` or `kill`) on the same port, in the same folder; resolves when it answers. */
  restart: () => Promise<void>;
  /** Ends the process and removes the folder: for `after` hooks; safe to call twice. */
  stop: () => Promise<void>;
}

/** Throws, naming the Debian package, when the machine has no redis-server: a test that needs it must fail, not skip. */
export function requireRedisServer(): void {
  if (!existsSync(REDIS_SERVER)) throw new Error(`${REDIS_SERVER} is missing: these tests need a real Redis; install it with \`apt-get install -y redis-server\``);
}

/** Starts a Redis and waits until it answers PING. */
export async function startRedis(options: RedisOptions = {}): Promise<RunningRedis> {
  requireRedisServer();
  const since = fileNow();
  const folder = mkdtempSync(join(tmpdir(), "morelogin-redis-"));
  try {
    const ca = options.tls ? await makeCertificates(folder) : undefined;
    const port = await freePort();
    const args = argsFor(options, folder, port);
    let output = "";
    let child: ChildProcess | undefined;
    const killNow = (): void => {
      if (child && child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    };
    // A test process that ends without its `after` hooks (an uncaught error, process.exit) takes Redis with it.
    process.on("exit", killNow);

    const launch = async (): Promise<void> => {
      const started = spawn(REDIS_SERVER, args, { cwd: folder, stdio: ["ignore", "pipe", "pipe"] });
      child = started;
      const exited = new Promise<void>((resolveExit) => started.once("exit", () => resolveExit()));
      const record = (chunk: Buffer): void => {
        output += chunk.toString();
      };
      started.stdout?.on("data", record);
      started.stderr?.on("data", record);
      started.once("error", (error) => record(Buffer.from(`\n${String(error)}\n`)));
      await waitForPong(port, options, ca, started, () => output).catch(async (error: unknown) => {
        killNow();
        await exited;
        throw error;
      });
    };
    const end = async (signal: NodeJS.Signals): Promise<void> => {
      const current = child;
      if (!current || current.exitCode !== null || current.signalCode !== null) return;
      const exited = new Promise<void>((resolveExit) => current.once("exit", () => resolveExit()));
      current.kill(signal);
      // A SIGTERM that Redis does not act on within 10 s (a stuck save): end it anyway.
      const force = setTimeout(() => current.kill("SIGKILL"), 10_000);
      await exited;
      clearTimeout(force);
    };
    let stopped = false;
    const stop = async (): Promise<void> => {
      if (stopped) return;
      stopped = true;
      await end("SIGKILL");
      process.off("exit", killNow);
      rmSync(folder, { recursive: true, force: true });
    };
    await launch();
    const forget = keepUntilFileEnds(`redis-server on port ${port} (${folder})`, stop, since);
    const scheme = options.tls ? "rediss" : "redis";
    return {
      url: `${scheme}://${HOST}:${port}/0`,
      port,
      ca,
      folder,
      output: () => output,
      shutdown: () => end("SIGTERM"),
      kill: () => end("SIGKILL"),
      restart: async () => {
        if (stopped) throw new Error("this Redis was stopped for good: start another");
        await end("SIGKILL");
        await launch();
      },
      stop: async () => {
        forget();
        await stop();
      },
    };
  } catch (error) {
    rmSync(folder, { recursive: true, force: true });
    throw error;
  }
}

function argsFor(options: RedisOptions, folder: string, port: number): string[] {
  const args = ["--bind", HOST, "--dir", folder, "--daemonize", "no", "--logfile", "", "--save", ""];
  args.push(...(options.persist ? ["--appendonly", "yes", "--appendfsync", "always"] : ["--appendonly", "no"]));
  if (options.tls) {
    args.push("--port", "0", "--tls-port", String(port), "--tls-cert-file", join(folder, "server.crt"), "--tls-key-file", join(folder, "server.key"));
    args.push("--tls-ca-cert-file", join(folder, "ca.crt"), "--tls-auth-clients", "no");
  } else {
    args.push("--port", String(port));
  }
  if (options.password !== undefined) {
    if (options.username !== undefined) args.push("--user", "default", "off", "--user", options.username, "on", `>${options.password}`, "~*", "&*", "+@all");
    else args.push("--requirepass", options.password);
  }
  return args;
}

/** A CA and a server certificate it signed, for 127.0.0.1 and localhost, valid a day; returns the CA's path. */
async function makeCertificates(folder: string): Promise<string> {
  const file = (name: string): string => join(folder, name);
  const key = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"];
  const openssl = (args: string[]): Promise<unknown> => run("openssl", args, { cwd: folder });
  await openssl(["req", "-x509", ...key, "-keyout", file("ca.key"), "-out", file("ca.crt"), "-days", "1", "-subj", "/CN=morelogin test CA"]);
  await openssl(["req", "-new", ...key, "-keyout", file("server.key"), "-out", file("server.csr"), "-subj", "/CN=localhost"]);
  writeFileSync(file("server.ext"), "subjectAltName=IP:127.0.0.1,DNS:localhost\nbasicConstraints=CA:FALSE\n");
  const sign = ["-CA", file("ca.crt"), "-CAkey", file("ca.key"), "-CAcreateserial", "-days", "1", "-extfile", file("server.ext")];
  await openssl(["x509", "-req", "-in", file("server.csr"), ...sign, "-out", file("server.crt")]);
  return file("ca.crt");
}

/** How long a redis-server may take to answer after its spawn, on a quiet machine (an AOF to load included). */
const ANSWERS_MS = 20_000;

/**
 * Polls with PING until Redis answers it (PONG, or NOAUTH when it wants a password: it is up either way;
 * LOADING is not yet); fails with Redis's output when the process ends or the bound passes.
 */
async function waitForPong(port: number, options: RedisOptions, ca: string | undefined, child: ChildProcess, output: () => string): Promise<void> {
  const bound = scaled(ANSWERS_MS);
  const deadline = Date.now() + bound;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`redis-server ended (${child.exitCode ?? child.signalCode}) before it answered on port ${port}:\n${output()}`);
    const reply = await ping(port, options.tls ? ca : undefined).catch(() => "");
    if (reply.startsWith("+PONG") || reply.startsWith("-NOAUTH")) return;
    if (Date.now() > deadline) throw new Error(`redis-server did not answer PING on port ${port} within ${seconds(bound)}; its output:\n${output()}`);
    await new Promise((resolveWait) => setTimeout(resolveWait, 50));
  }
}

/** One PING over a fresh connection (TLS when `ca` is given); the first line of the reply. */
function ping(port: number, ca: string | undefined): Promise<string> {
  return new Promise((resolvePing, rejectPing) => {
    const socket: Socket = ca ? connectTls({ host: HOST, port, ca: readFileSync(ca), servername: "localhost" }) : connectTcp({ host: HOST, port });
    let reply = "";
    const finish = (error?: Error): void => {
      socket.destroy();
      if (error) rejectPing(error);
      else resolvePing(reply);
    };
    socket.setTimeout(2_000, () => finish(new Error("no reply")));
    socket.once(ca ? "secureConnect" : "connect", () => socket.write("*1\r\n$4\r\nPING\r\n"));
    socket.on("data", (chunk: Buffer) => {
      reply += chunk.toString();
      if (reply.includes("\r\n")) finish();
    });
    socket.once("error", finish);
    socket.once("close", () => finish(new Error("closed")));
  });
}
