/**
 * `npm start -- [options]`: `--fresh` and `--help` are npm start's own; every other option is the
 * emulator CLI's (src/emulator/cli.ts), handed to it as given. A few of those npm start reads as well:
 * the ports it would otherwise choose, the credentials the examples' config node needs, the browser.
 */
export interface StartArgs {
  fresh: boolean;
  help: boolean;
  /** The emulator's options as given, minus those npm start sets itself (ports, credentials, browser). */
  emulatorArgs: string[];
  localPort?: number;
  openPort?: number;
  apiId?: string;
  apiKey?: string;
  localToken?: string;
  browser?: string;
}

/** The emulator options npm start sets itself, from what it was given or its own defaults. */
const OWN_VALUES = ["--local-port", "--open-port", "--api-id", "--api-key", "--local-token", "--browser"] as const;
type OwnValue = (typeof OWN_VALUES)[number];

/**
 * The demo's data, which npm start asks of the emulator unless told otherwise: every seeded cloud phone
 * off at start. The examples that power phones on then have their phones to themselves, and a config
 * node's cap on phones (maxPhones), which counts every phone on in the account, counts only what they
 * power on. The package tests start their emulator with the same.
 */
export const DEMO_EMULATOR_OPTIONS = { phonesOn: 0 } as const;

/** The emulator options npm start adds to those it was given: the demo's data, where the user chose none. */
export function demoEmulatorArgs(given: readonly string[]): string[] {
  const chosen = (flag: string): boolean => given.some((arg) => arg === flag || arg.startsWith(`${flag}=`));
  return chosen("--phones-on") ? [] : ["--phones-on", String(DEMO_EMULATOR_OPTIONS.phonesOn)];
}

export class StartUsageError extends Error {}

function port(flag: string, text: string): number {
  const value = Number(text);
  if (!/^\d+$/.test(text) || value > 65535) throw new StartUsageError(`${flag} must be a port from 0 to 65535, got "${text}"`);
  return value;
}

export function parseStartArgs(argv: readonly string[]): StartArgs {
  const args: StartArgs = { fresh: false, help: false, emulatorArgs: [] };
  const own = new Map<OwnValue, string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? "";
    if (arg === "--fresh") args.fresh = true;
    else if (arg === "--help" || arg === "-h") args.help = true;
    else {
      const [flag, inline] = arg.includes("=") ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)] : [arg, undefined];
      if ((OWN_VALUES as readonly string[]).includes(flag)) {
        const value = inline ?? argv[++i];
        if (value === undefined || value.startsWith("--")) throw new StartUsageError(`${flag} needs a value`);
        own.set(flag as OwnValue, value);
      } else args.emulatorArgs.push(arg);
    }
  }
  const localPort = own.get("--local-port");
  const openPort = own.get("--open-port");
  if (localPort !== undefined) args.localPort = port("--local-port", localPort);
  if (openPort !== undefined) args.openPort = port("--open-port", openPort);
  args.apiId = own.get("--api-id");
  args.apiKey = own.get("--api-key");
  args.localToken = own.get("--local-token");
  args.browser = own.get("--browser");
  return args;
}

export const START_USAGE = `Usage: npm start -- [--fresh] [emulator options]

Builds and packs the package, installs it into a Node-RED user folder (.demo/node-red, or
MORELOGIN_DEMO_DIR/node-red) and starts that Node-RED with the example flows, against the emulator.

  --fresh     start over: delete the user folder (your flows, credentials and context) and
              deploy the example flows again. Without it, what you built is kept.
  --help      show this help

Every other option goes to the emulator (npx morelogin-emulator --help lists them), e.g.
  npm start -- --profiles 500 --rate-limit 120
npm start adds --phones-on 0 (every cloud phone off at start, so that the examples that
power phones have them to themselves) unless given --phones-on.
With MORELOGIN_LOCAL_URL set (your own MoreLogin) no emulator runs and they are ignored.
`;
