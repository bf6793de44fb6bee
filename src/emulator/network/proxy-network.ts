import { markLoopbackStandIn } from "../proxy-data";
import type { CloudPhone, EmulatedProxy, ProxyCondition, ProxyExit, ProxyInfo, ProxyProtocol } from "../types";
import { PROXY_HOST, RowProxy } from "./row-proxy";

/** The list's `proxyType` (shared spec: 0 http, 1 https, 2 socks5, 3 ssh); SSH is not emulated. */
const PROTOCOLS: Readonly<Record<number, ProxyProtocol>> = { 0: "http", 1: "https", 2: "socks5" };

function viewOf(proxy: RowProxy): EmulatedProxy {
  return { id: proxy.row.id, proxyName: proxy.row.proxyName, protocol: proxy.protocol, port: proxy.port, credentials: proxy.credentials() ?? null, exit: proxy.exit(), condition: proxy.condition };
}

const PLATFORM = 1;

/** Platform proxies (bought from MoreLogin, category 1) ask for credentials; the team's own take anyone (assumed, docs/EMULATOR.md). */
function passwordOf(row: ProxyInfo): string | undefined {
  return row.proxyCategoryType === PLATFORM && row.username !== "" ? `pw-${row.id.slice(-6)}` : undefined;
}

/** Points the row, and each cloud phone's copy of it, at its listener. */
function pointAt(row: ProxyInfo, port: number, phones: readonly CloudPhone[]): void {
  for (const phone of phones) {
    if (phone.proxy?.id !== row.id) continue;
    phone.proxy.proxyIp = PROXY_HOST;
    phone.proxy.proxyPort = port;
  }
  row.proxyIp = PROXY_HOST;
  row.proxyPort = port;
}

/** A real loopback proxy for each seeded row with an address and a protocol the emulator speaks. */
export class ProxyNetwork {
  private readonly byId = new Map<string, RowProxy>();

  static async start(rows: readonly ProxyInfo[], phones: readonly CloudPhone[], conditions: Readonly<Record<string, ProxyCondition>>): Promise<ProxyNetwork> {
    const network = new ProxyNetwork();
    try {
      for (const row of rows) {
        const protocol = PROTOCOLS[row.proxyType];
        if (row.proxyIp === "" || protocol === undefined) continue;
        const proxy = new RowProxy(row, protocol, passwordOf(row));
        await proxy.start();
        network.byId.set(row.id, proxy);
        markLoopbackStandIn(row);
        pointAt(row, proxy.port, phones);
      }
      for (const [key, condition] of Object.entries(conditions)) {
        if (!(await network.setCondition(key, condition))) throw new RangeError(`emulator option proxyConditions names no emulated proxy: "${key}"`);
      }
    } catch (error) {
      await network.close();
      throw error;
    }
    return network;
  }

  list(): EmulatedProxy[] {
    return [...this.byId.values()].map(viewOf);
  }

  /** By proxy ID or name; undefined when no emulated proxy has it. */
  find(key: string): EmulatedProxy | undefined {
    const proxy = this.lookUp(key);
    return proxy && viewOf(proxy);
  }

  /** Replaces the proxy's condition (by ID or name); false when no emulated proxy has it. */
  async setCondition(key: string, condition: ProxyCondition): Promise<boolean> {
    const proxy = this.lookUp(key);
    if (proxy === undefined) return false;
    await proxy.setCondition(condition);
    return true;
  }

  /** Where a profile's Chromium reaches the proxy with this ID (RowProxy.entrance); undefined when it is not emulated. */
  entranceOf(id: string): Promise<string | undefined> {
    return this.byId.get(id)?.entrance() ?? Promise.resolve(undefined);
  }

  /** The exit of the proxy with this ID, as its echo reports it; undefined when it is not emulated. */
  exitOf(id: string): ProxyExit | undefined {
    return this.byId.get(id)?.exit();
  }

  async close(): Promise<void> {
    await Promise.all([...this.byId.values()].map((proxy) => proxy.close()));
  }

  private lookUp(key: string): RowProxy | undefined {
    return this.byId.get(key) ?? [...this.byId.values()].find((proxy) => proxy.row.proxyName === key);
  }
}
