import { startEmulator, type Emulator, type EmulatorOptions } from "../../src/emulator";
import { MoreLoginClient, type ClientSettings } from "../../src/client";

/** Starts an emulator on OS-chosen ports for one suite, and a client pointed at it. */
export function useEmulator(options: EmulatorOptions = {}): { emulator: () => Emulator } {
  let emulator: Emulator | undefined;
  before(async () => {
    emulator = await startEmulator(options);
  });
  after(async () => {
    await emulator?.close();
  });
  return {
    emulator: () => {
      if (!emulator) throw new Error("emulator not started");
      return emulator;
    },
  };
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

/** Counts the requests the emulator saw for one route, e.g. "local POST /api/env/page". */
export function requests(emulator: Emulator, route: string): number {
  return emulator.stats.requests[route] ?? 0;
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
