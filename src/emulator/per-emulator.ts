import type { EmulatorState } from "./state";

/** State one group of routes keeps for each running emulator, made on first use and dropped with it. */
export function perEmulator<T>(create: (state: EmulatorState) => T): (state: EmulatorState) => T {
  const stores = new WeakMap<EmulatorState, T>();
  return (state) => {
    let store = stores.get(state);
    if (store === undefined) {
      store = create(state);
      stores.set(state, store);
    }
    return store;
  };
}

/** The base URL a client reached this server by (its Host header), for URLs the emulator hands out. */
export function ownBaseUrl(host: string | undefined): string {
  return `http://${host ?? "127.0.0.1"}`;
}
