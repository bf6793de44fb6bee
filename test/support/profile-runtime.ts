import type { Emulator } from "../../src/emulator";
import { call } from "./http";
import { helper } from "./node-red";

/**
 * For a suite that counts running profiles: a Node-RED runtime started before its tests and stopped
 * after them, and before each test no profile running and the emulator's counters at zero. The suite
 * unloads its flows itself (after each test, with whatever else it must clear). Returns `ids`: the
 * IDs of `count` of the emulator's profiles from index `from`.
 */
export function useProfileRuntime(emulator: () => Emulator): (from: number, count: number) => string[] {
  before((done) => {
    helper.startServer(done);
  });
  after((done) => {
    helper.stopServer(done);
  });
  beforeEach(async () => {
    await call(emulator().localUrl, "/api/env/closeAll", { body: {} });
    emulator().resetStats();
  });
  return (from, count) =>
    emulator()
      .data.profiles.slice(from, from + count)
      .map((profile) => profile.id);
}
