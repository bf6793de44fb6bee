#!/usr/bin/env node
import { createServer } from "node:net";
import { parseArgs } from "node:util";
import { messageOf } from "../client/errors";
import { notExecutable } from "./executable";
import { startEmulator } from "./index";
import { PROXIES_PATH } from "./network/control-route";
import { resolveOptions } from "./options";
import { SERVED_PATH } from "./served";
import { servedReport } from "./served-table";
import type { EmulatorOptions } from "./types";

const USAGE = `Usage: morelogin-emulator [options]

Runs an emulator of the MoreLogin Local API and Open API for building and testing flows.

Options:
  --host <address>        address to listen on (default 127.0.0.1)
  --local-port <port>     Local API port (default 40100; 0 = any free port)
  --open-port <port>      Open API port (default 40101; 0 = any free port)
  --echo-port <port>      IP-echo route's port (GET /ip; default: the Local API port + 2,
                          40102, when free, else any free port)
  --local-token <token>   require "Authorization: <token>" on Local API requests
  --login                 act as MoreLogin's server edition: refuse every Local API call
                          (code 35001) until POST /api/user/login {"apiId","apiKey"}
                          with the API ID and key below succeeds
  --api-id <id>           Open API client_id (default 1690000000000001)
  --api-key <key>         Open API client_secret (default emulator-api-key)
  --token-lifetime <s>    Open API token lifetime in seconds (default 3600)
  --profiles <n>          number of seeded browser profiles (default 25)
  --seed <n>              seed for the generated data (default 1)
  --phones-on <n>         how many seeded cloud phones are on at start: the first n
                          (Phone 001 onwards), the others off (default: as the seed drew
                          them, about half on)
  --rate-limit <n>        requests accepted per API in any 60 s (default 0 = unlimited);
                          past it: HTTP 429 {"code":429,"msg":"Rate limit exceeded"}
  --rate-limit-retry-after
                          add Retry-After to those 429s (the published reply has none)
  --latency <min,max>     random extra latency per answer, in milliseconds
  --phone-boot-ms <ms>    how long a cloud phone boots, restarts, resets or is provisioned,
                          a cloud runtime or live stream starts, and a stopped cloud
                          runtime archives (default 3000)
  --automation-step-ms <ms>
                          how long an automation run waits, then runs (default 3000 each)
  --app-install-ms <ms>   how long a cloud-phone app install takes (default 1000)
  --browser <path>        start a real headless Chromium for each started profile and
                          cloud runtime, e.g. /usr/bin/chromium (without it a profile's
                          debug port only answers /json/version and /json/list)
  --help                  show this help

GET /emulator/served (on either port) answers how often each profile was started and
closed and each cloud phone powered on, off and deleted; the same is printed when it stops.
`;

class UsageError extends Error {}

function integer(flag: string, text: string | undefined, min: number, max = Number.MAX_SAFE_INTEGER): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < min || value > max) throw new UsageError(`--${flag} must be an integer from ${min} to ${max}, got "${text}"`);
  return value;
}

function latency(text: string | undefined): [number, number] | undefined {
  if (text === undefined) return undefined;
  const match = /^(\d+),(\d+)$/.exec(text.replace(/\s/g, ""));
  const [min, max] = [Number(match?.[1]), Number(match?.[2])];
  if (!match || min > max) throw new UsageError(`--latency must be "min,max" in milliseconds with min <= max, got "${text}"`);
  return [min, max];
}

function browser(path: string | undefined): string | undefined {
  const problem = path === undefined ? undefined : notExecutable(path);
  if (problem !== undefined) throw new UsageError(`--browser must be the path of a Chromium binary: ${problem}`);
  return path;
}

function optionsFrom(argv: string[]): EmulatorOptions | "help" {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    allowPositionals: false,
    options: {
      host: { type: "string" },
      "local-port": { type: "string" },
      "open-port": { type: "string" },
      "echo-port": { type: "string" },
      "local-token": { type: "string" },
      login: { type: "boolean" },
      "api-id": { type: "string" },
      "api-key": { type: "string" },
      "token-lifetime": { type: "string" },
      profiles: { type: "string" },
      seed: { type: "string" },
      "phones-on": { type: "string" },
      "rate-limit": { type: "string" },
      "rate-limit-retry-after": { type: "boolean" },
      latency: { type: "string" },
      "phone-boot-ms": { type: "string" },
      "automation-step-ms": { type: "string" },
      "app-install-ms": { type: "string" },
      browser: { type: "string" },
      help: { type: "boolean" },
    },
  });
  if (values.help) return "help";
  const latencyMs = latency(values.latency);
  const localPort = integer("local-port", values["local-port"], 0, 65535) ?? 40100;
  const options: EmulatorOptions = {
    host: values.host,
    localPort,
    echoPort: integer("echo-port", values["echo-port"], 0, 65535),
    openPort: integer("open-port", values["open-port"], 0, 65535) ?? 40101,
    localToken: values["local-token"],
    login: values.login,
    apiId: values["api-id"],
    apiKey: values["api-key"],
    tokenLifetimeSeconds: integer("token-lifetime", values["token-lifetime"], 1),
    profiles: integer("profiles", values.profiles, 0, 1_000_000),
    seed: integer("seed", values.seed, 0, 0xffffffff),
    phonesOn: integer("phones-on", values["phones-on"], 0),
    rateLimitPerMinute: integer("rate-limit", values["rate-limit"], 0),
    rateLimitRetryAfter: values["rate-limit-retry-after"],
    phoneBootMs: integer("phone-boot-ms", values["phone-boot-ms"], 0),
    automationStepMs: integer("automation-step-ms", values["automation-step-ms"], 0),
    appInstallMs: integer("app-install-ms", values["app-install-ms"], 0),
    browser: browser(values.browser),
    ...(latencyMs ? { faults: { latencyMs } } : {}),
  };
  if (options.apiId === "" || options.apiKey === "") throw new UsageError("--api-id and --api-key must not be empty");
  return options;
}

/** The Local port + 2 (40102 beside the defaults) when it is free; else, and beside a Local port 0, any free port. */
async function defaultEchoPort(host: string, localPort: number): Promise<number> {
  const wanted = localPort + 2;
  if (localPort === 0 || wanted > 65535) return 0;
  const probe = createServer();
  const free = await new Promise<boolean>((resolve) => {
    probe.once("error", () => resolve(false));
    probe.listen(wanted, host, () => resolve(true));
  });
  if (free) await new Promise<void>((resolve) => probe.close(() => resolve()));
  return free ? wanted : 0;
}

async function main(): Promise<void> {
  let options: EmulatorOptions | "help";
  try {
    options = optionsFrom(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`morelogin-emulator: ${messageOf(error)}\nRun "morelogin-emulator --help" for the options.\n`);
    process.exit(2);
  }
  if (options === "help") {
    process.stdout.write(USAGE);
    return;
  }

  const emulator = await startEmulator({ ...options, echoPort: options.echoPort ?? (await defaultEchoPort(options.host ?? "127.0.0.1", options.localPort ?? 0)) });
  // Listen for signals before printing: whoever reads the output may signal at once.
  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(servedReport(emulator.served()));
    emulator.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  const { apiId, apiKey, localToken } = emulator.credentials;
  const { phoneBootMs, automationStepMs, appInstallMs } = resolveOptions(options);
  const auth = localToken === undefined ? "" : ` -H 'Authorization: ${localToken}'`;
  process.stdout.write(
    [
      "MoreLogin emulator (test double; the credentials below are fake)",
      `  Local API:   ${emulator.localUrl}`,
      `  Open API:    ${emulator.openUrl}`,
      `  API ID:      ${apiId}`,
      `  API key:     ${apiKey}`,
      `  Local token: ${localToken ?? "(none: Local API authentication is off)"}`,
      `  Login:       ${options.login ? "required (server edition): POST /api/user/login with the API ID and key above" : "(none: see --login)"}`,
      `  Browser:     ${options.browser ?? "(none: started profiles get a debug port without a browser; see --browser)"}`,
      `  Demo page:   ${emulator.demoUrl}`,
      `  IP echo:     ${emulator.echoUrl} (through one of the proxies below: that proxy's exit IP, country and time zone)`,
      `  Proxies:     ${emulator.emulatedProxies().length} on 127.0.0.1 behind the seeded proxy rows; ${emulator.localUrl}${PROXIES_PATH} lists them with their credentials and sets their condition`,
      `  Timings:     phone boot ${phoneBootMs} ms, automation step ${automationStepMs} ms, app install ${appInstallMs} ms`,
      `  Served:      ${emulator.localUrl}${SERVED_PATH} (how often each profile was started and closed, each cloud phone powered on, off and deleted; also printed at exit)`,
      "Try:",
      ...(options.login ? [`  curl -s -X POST ${emulator.localUrl}/api/user/login -H 'Content-Type: application/json' -d '{"apiId":"${apiId}","apiKey":"${apiKey}"}'`] : []),
      `  curl -s -X POST ${emulator.localUrl}/api/env/page -H 'Content-Type: application/json'${auth} -d '{"pageNo":1,"pageSize":10}'`,
      "Press Ctrl+C to stop.",
      "",
    ].join("\n"),
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`morelogin-emulator: ${messageOf(error)}\n`);
  process.exit(1);
});
