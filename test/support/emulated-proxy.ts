import assert from "node:assert/strict";
import type { EmulatedProxy, Emulator } from "../../src/emulator";

/** The emulator's first proxy of `protocol` that asks for credentials (or takes anyone); fails the test when it has none. */
export function emulatedProxy(emulator: Emulator, protocol: EmulatedProxy["protocol"], withCredentials: boolean): EmulatedProxy {
  const found = emulator.emulatedProxies().find((proxy) => proxy.protocol === protocol && (proxy.credentials !== null) === withCredentials);
  assert.ok(found, `an emulated ${protocol} proxy ${withCredentials ? "with" : "without"} credentials`);
  return found;
}
