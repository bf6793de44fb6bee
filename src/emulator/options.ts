import { notExecutable } from "./executable";
import { readCondition } from "./network/condition";
import type { EmulatorOptions, FaultRates, ProxyCondition } from "./types";

export interface ResolvedOptions {
  host: string;
  localPort: number;
  openPort: number;
  echoPort: number;
  proxyConditions: Record<string, ProxyCondition>;
  localToken: string | undefined;
  apiId: string;
  apiKey: string;
  tokenLifetimeSeconds: number;
  seed: number;
  profiles: number;
  cloudPhones: number;
  phonesOn: number | undefined;
  proxies: number;
  groups: number;
  tags: number;
  apps: number;
  maxPageSize: number;
  rateLimitPerMinute: number;
  rateLimitRetryAfter: boolean;
  faults: FaultRates;
  startDelayMs: number;
  phoneBootMs: number;
  automationStepMs: number;
  appInstallMs: number;
  requestLogSize: number;
  browser: string | undefined;
  login: boolean;
  manualClock: boolean;
}

function count(name: string, value: number | undefined, fallback: number): number {
  const chosen = value ?? fallback;
  if (!Number.isInteger(chosen) || chosen < 0) throw new RangeError(`emulator option ${name} must be a non-negative integer`);
  return chosen;
}

function positive(name: string, value: number | undefined, fallback: number): number {
  const chosen = value ?? fallback;
  if (!Number.isFinite(chosen) || chosen <= 0) throw new RangeError(`emulator option ${name} must be a positive number`);
  return chosen;
}

export function executable(name: string, path: string | undefined): string | undefined {
  const problem = path === undefined ? undefined : notExecutable(path);
  if (problem !== undefined) throw new RangeError(`emulator option ${name} must be the path of an executable file: ${problem}`);
  return path;
}

function conditions(given: Record<string, ProxyCondition> | undefined): Record<string, ProxyCondition> {
  const checked: Record<string, ProxyCondition> = {};
  for (const [key, condition] of Object.entries(given ?? {})) {
    try {
      checked[key] = readCondition(condition);
    } catch (error) {
      throw new RangeError(`emulator option proxyConditions["${key}"]: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return checked;
}

export function resolveOptions(options: EmulatorOptions = {}): ResolvedOptions {
  return {
    host: options.host ?? "127.0.0.1",
    localPort: count("localPort", options.localPort, 0),
    openPort: count("openPort", options.openPort, 0),
    echoPort: count("echoPort", options.echoPort, 0),
    proxyConditions: conditions(options.proxyConditions),
    localToken: options.localToken === "" ? undefined : options.localToken,
    apiId: options.apiId ?? "1690000000000001",
    apiKey: options.apiKey ?? "emulator-api-key",
    tokenLifetimeSeconds: positive("tokenLifetimeSeconds", options.tokenLifetimeSeconds, 3600),
    seed: count("seed", options.seed, 1),
    profiles: count("profiles", options.profiles, 25),
    cloudPhones: count("cloudPhones", options.cloudPhones, 12),
    phonesOn: options.phonesOn === undefined ? undefined : count("phonesOn", options.phonesOn, 0),
    proxies: count("proxies", options.proxies, 8),
    groups: count("groups", options.groups, 5),
    tags: count("tags", options.tags, 6),
    apps: count("apps", options.apps, 30),
    maxPageSize: positive("maxPageSize", options.maxPageSize, 100),
    rateLimitPerMinute: count("rateLimitPerMinute", options.rateLimitPerMinute, 0),
    rateLimitRetryAfter: options.rateLimitRetryAfter ?? false,
    faults: options.faults ?? {},
    startDelayMs: count("startDelayMs", options.startDelayMs, 0),
    phoneBootMs: count("phoneBootMs", options.phoneBootMs, 3000),
    automationStepMs: count("automationStepMs", options.automationStepMs, 3000),
    appInstallMs: count("appInstallMs", options.appInstallMs, 1000),
    requestLogSize: count("requestLogSize", options.requestLogSize, 1000),
    browser: executable("browser", options.browser),
    login: options.login ?? false,
    manualClock: options.manualClock ?? false,
  };
}
