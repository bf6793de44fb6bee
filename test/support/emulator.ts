import assert from "node:assert/strict";
import { startEmulator, type Emulator, type EmulatorOptions } from "../../src/emulator";
import { MoreLoginClient, type ClientSettings } from "../../src/client";
import { heavySlot } from "../../tools/test-limits";
import { shiftClock, type ShiftedClock } from "./clock";
import { call, dataOf } from "./http";

/**
 * Starts an emulator on OS-chosen ports for one suite, and closes it after the suite. A test that
 * closes it (the desktop client going away) calls `startAgain` for a new one with the same options:
 * on the same ports with `samePorts` (the client coming back where it was), otherwise on new ones.
 */
export function useEmulator(options: EmulatorOptions = {}): { emulator: () => Emulator; startAgain: (samePorts?: boolean) => Promise<Emulator> } {
  let current: Emulator | undefined;
  // An emulator with a real Chromium behind each started profile takes a heavy slot (tools/test-limits.ts) for the suite.
  let release: (() => void) | undefined;
  before(async () => {
    if (options.browser) release = await heavySlot(`an emulator with ${options.browser}`);
    current = await startEmulator(options);
  });
  after(async () => {
    await current?.close();
    release?.();
  });
  const emulator = (): Emulator => {
    assert.ok(current, "emulator not started");
    return current;
  };
  const startAgain = async (samePorts = false): Promise<Emulator> => {
    const old = emulator();
    const ports = samePorts ? { localPort: Number(new URL(old.localUrl).port), openPort: Number(new URL(old.openUrl).port) } : {};
    current = await startEmulator({ ...options, ...ports });
    return current;
  };
  return { emulator, startAgain };
}

/**
 * npm start's emulator boots a phone (and provisions a cloud browser) in 3 s and steps an automation run every
 * 3 s, and a node's wait polls from 1 s, half as long again each time: its waits took ~5 and ~8 s. A suite that
 * runs examples as a user does but checks no such timing (test/nodes and test/emulator do) takes these: each
 * boot, step or transfer is over before the node's first poll.
 */
export const QUICK_TIMINGS = { phoneBootMs: 250, automationStepMs: 250, appInstallMs: 100 } as const;

/** A suite's own reset of the emulator before each test, after its counters are reset. */
export type EmulatorReset = (emulator: Emulator) => void;

/** Clears the fault rates a test set, so the next test starts with none. */
export const clearFaults: EmulatorReset = (emulator) => emulator.setFaults({});

/** Before each test of the suite: the emulator's counters reset, then the suite's own `reset`. */
export function resetBeforeEach(emulator: () => Emulator, reset?: EmulatorReset): void {
  beforeEach(() => {
    emulator().resetStats();
    reset?.(emulator());
  });
}

export function clientFor(emulator: Emulator, settings: ClientSettings = {}): MoreLoginClient {
  return new MoreLoginClient({
    localUrl: emulator.localUrl,
    openUrl: emulator.openUrl,
    apiId: emulator.credentials.apiId,
    apiKey: emulator.credentials.apiKey,
    localToken: emulator.credentials.localToken,
    retry: { baseDelayMs: 5, maxDelayMs: 20 },
    ...settings,
  });
}

/**
 * For a suite: makes clients of the emulator (the suite's defaults under `settings`) and closes every
 * one of them after each test.
 */
export function useClients(emulator: () => Emulator): (settings?: ClientSettings) => MoreLoginClient {
  const made: MoreLoginClient[] = [];
  afterEach(async () => {
    await Promise.all(made.splice(0).map((client) => client.close()));
  });
  return (settings = {}) => {
    const client = clientFor(emulator(), settings);
    made.push(client);
    return client;
  };
}

/**
 * For a pacing suite: `paced(pacing, shifted)` makes the test's client of the emulator with that pacing;
 * with `shifted`, on a clock the test moves through `clock()` (see support/clock). After each test the
 * client is closed and the real clock put back.
 */
export function usePacedClient(emulator: () => Emulator): {
  paced: (pacing: ClientSettings["pacing"], shifted?: boolean) => MoreLoginClient;
  clock: () => ShiftedClock | undefined;
} {
  let client: MoreLoginClient | undefined;
  let clock: ShiftedClock | undefined;
  afterEach(async () => {
    await client?.close();
    client = undefined;
    clock?.restore();
    clock = undefined;
  });
  const paced = (pacing: ClientSettings["pacing"], shifted = false): MoreLoginClient => {
    if (shifted) clock = shiftClock();
    client = clientFor(emulator(), { pacing });
    return client;
  };
  return { paced, clock: () => clock };
}

/** Counts the requests the emulator saw for one route, e.g. "local POST /api/env/page". */
export function requests(emulator: Emulator, route: string): number {
  return emulator.stats.requests[route] ?? 0;
}

/** The `Authorization` header of a freshly granted Open API token, fetched over raw HTTP. */
export async function bearer(emulator: Emulator): Promise<Record<string, string>> {
  const { apiId, apiKey } = emulator.credentials;
  const answer = await call(emulator.openUrl, "/oauth2/token", {
    body: { client_id: apiId, client_secret: apiKey, grant_type: "client_credentials" },
  });
  const data = dataOf<{ access_token: string }>(answer);
  return { Authorization: `Bearer ${data.access_token}` };
}

/**
 * A profile list named `envName`, sent over raw HTTP and answered: an event that comes after every
 * request already on its way to the emulator, so a test can check the log for what must not be
 * there without waiting a guessed time.
 */
export async function marker(emulator: Emulator, envName: string): Promise<void> {
  const { localToken } = emulator.credentials;
  dataOf(await call(emulator.localUrl, "/api/env/page", { body: { envName }, ...(localToken ? { headers: { Authorization: localToken } } : {}) }));
}

export async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof Error) return error;
    throw new Error(`rejected with a non-Error: ${String(error)}`);
  }
  throw new Error("expected the promise to reject, but it resolved");
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
