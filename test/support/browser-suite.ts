import type { Emulator, EmulatorOptions } from "../../src/emulator";
import { CHROMIUM, browserSkipReason } from "./chromium";
import { useEmulator } from "./emulator";
import { useNodeRed } from "./node-red";

/**
 * For a suite of the browser node: an emulator whose started profiles each run a real Chromium, and a
 * Node-RED runtime. The whole suite is skipped when the browser tests are skipped on purpose (checked
 * before the emulator's own hook, which would start it with the Chromium).
 */
export function useChromiumProfiles(profiles: number, options: Pick<EmulatorOptions, "phoneBootMs"> = {}): () => Emulator {
  before(function () {
    const skipped = browserSkipReason();
    if (skipped) {
      console.log(`    browser tests skipped on purpose (${skipped}): the browser node was not tested`);
      this.skip();
    }
  });
  const { emulator } = useEmulator({ ...options, profiles, browser: CHROMIUM });
  useNodeRed();
  return emulator;
}
