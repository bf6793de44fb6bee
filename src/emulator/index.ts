import type { IncomingMessage, ServerResponse } from "node:http";
import type { Server } from "node:http";
import { DEMO_PAGE, DEMO_PATH } from "./demo-page";
import { DEMO_TABLE_PAGE, DEMO_TABLE_PATH } from "./demo-table";
import { listen, type Listener } from "./http-listener";
import { localRoutes } from "./local-routes";
import { answerProxyControl } from "./network/control-route";
import { createEchoServer, ECHO_PATH } from "./network/echo-server";
import { ProxyNetwork } from "./network/proxy-network";
import { openRoutes } from "./open-routes";
import { readCondition } from "./network/condition";
import { executable, resolveOptions, type ResolvedOptions } from "./options";
import { createApiServer } from "./server";
import { EmulatorState } from "./state";
import { resetStats } from "./stats";
import type { Emulator, EmulatorOptions } from "./types";

export * from "./types";

function urlOf(host: string, port: number): string {
  const shown = host.includes(":") ? `[${host}]` : host;
  return `http://${shown}:${port}`;
}

async function listenOrClose(server: Server, host: string, port: number, started: Listener[]): Promise<Listener> {
  try {
    const listener = await listen(server, host, port);
    started.push(listener);
    return listener;
  } catch (error) {
    await Promise.all(started.map((listener) => listener.close()));
    throw error;
  }
}

/** Changes no API request made (see Emulator.happen). */
function happenings(state: EmulatorState): Emulator["happen"] {
  return {
    profileStarts: async (envId) => {
      if (!state.profilesById.has(envId) || state.sessions.isOpen(envId)) return false;
      await state.sessions.start(envId);
      return true;
    },
    profileExits: async (envId) => {
      if (!state.sessions.isOpen(envId)) return false;
      await state.sessions.stop(envId);
      return true;
    },
    phoneShutsDown: (id) => state.phones.powerOff(id) === "ok",
    profileLocks: (envId) => {
      if (!state.profilesById.has(envId) || state.lockedProfiles.has(envId)) return false;
      state.lockedProfiles.add(envId);
      return true;
    },
    profileUnlocks: (envId) => state.lockedProfiles.delete(envId),
  };
}

/** The listeners of a started emulator: its network of proxies, the IP echo and both APIs. */
interface Listening {
  network: ProxyNetwork;
  echo: Listener;
  local: Listener;
  open: Listener;
}

/** Starts the proxies, the echo and both API servers; what started is closed again when one fails. */
async function listenAll(state: EmulatorState, resolved: ResolvedOptions): Promise<Listening> {
  const network = await ProxyNetwork.start(state.data.proxies, state.data.cloudPhones, resolved.proxyConditions);
  state.proxies = network;
  // The network counts as started: a listener that then fails to start closes it with the others.
  const started: Listener[] = [{ port: 0, close: () => network.close() }];
  const control = (req: IncomingMessage, res: ServerResponse): boolean => answerProxyControl(network, req, res);
  const echo = await listenOrClose(createEchoServer(), resolved.host, resolved.echoPort, started);
  const pages = new Map([
    [DEMO_PATH, DEMO_PAGE],
    [DEMO_TABLE_PATH, DEMO_TABLE_PAGE],
  ]);
  const local = await listenOrClose(createApiServer("local", localRoutes(state), state, pages, control), resolved.host, resolved.localPort, started);
  const open = await listenOrClose(createApiServer("open", openRoutes(state), state, new Map(), control), resolved.host, resolved.openPort, started);
  return { network, echo, local, open };
}

/** Starts both API servers; resolves once they listen. */
export async function startEmulator(options?: EmulatorOptions): Promise<Emulator> {
  const resolved = resolveOptions(options);
  const state = new EmulatorState(resolved);
  const { network, echo, local, open } = await listenAll(state, resolved);

  let closing: Promise<void> | undefined;
  return {
    localUrl: urlOf(resolved.host, local.port),
    openUrl: urlOf(resolved.host, open.port),
    demoUrl: `${urlOf(resolved.host, local.port)}${DEMO_PATH}`,
    echoUrl: `${urlOf(resolved.host, echo.port)}${ECHO_PATH}`,
    get credentials() {
      const { apiId, apiKey } = resolved;
      return state.localToken === undefined ? { apiId, apiKey } : { apiId, apiKey, localToken: state.localToken };
    },
    data: state.data,
    stats: state.stats,
    requestLog: state.log.entries,
    running: () => state.sessions.running().map(({ envId, debugPort }) => ({ envId, debugPort })),
    resetStats: () => {
      resetStats(state.stats);
      state.notePeaks();
      state.log.clear();
      state.served.clear();
    },
    served: () => state.served.snapshot(),
    revokeAllTokens: () => state.tokens.revokeAll(),
    stepAutomationRun: (id) => state.automation.stepNow(id),
    advanceClock: (ms) => state.timers.advance(ms),
    setFaults: (rates) => state.faults.setRates(rates),
    script: (fault) => state.faults.script(fault),
    forgetLogin: () => {
      state.loggedIn = false;
    },
    setLocalToken: (token) => {
      state.localToken = token === "" ? undefined : token;
    },
    setBrowser: (path) => {
      const binary = executable("browser", path);
      state.sessions.useBinary(binary);
      state.cloudRuntimes.useBinary(binary);
    },
    setRateLimit: (perMinute, limitOptions) => {
      state.limiters.local.setLimit(perMinute);
      state.limiters.open.setLimit(perMinute);
      if (limitOptions?.retryAfter !== undefined) state.rateLimitRetryAfter = limitOptions.retryAfter;
    },
    happen: happenings(state),
    emulatedProxies: () => network.list(),
    setProxyCondition: (idOrName, condition) => network.setCondition(idOrName, readCondition(condition)),
    close: () => {
      closing ??= (async () => {
        state.timers.clearAll();
        await Promise.all([local.close(), open.close(), echo.close(), network.close(), state.sessions.close(), state.cloudRuntimes.close()]);
        state.timers.clearAll();
      })();
      return closing;
    },
  };
}
