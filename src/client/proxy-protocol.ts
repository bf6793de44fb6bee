/** A proxy as MoreLogin's rows and `proxyInfo/add` name its fields. */
export interface ProxyToCheck {
  proxyIp: string;
  proxyPort: number | string | null;
  /** 0 HTTP, 1 HTTPS, 2 SOCKS5, 3 SSH, 4 and up named providers (MoreLogin's spec). */
  proxyProvider?: number | string;
  /** 0 http, 1 https, 2 socks5, 3 ssh: the protocol of a named provider's proxy. */
  proxyType?: number | string;
  username?: string | null;
  password?: string | null;
}

export type CheckedProtocol = "http" | "https" | "socks5";

const PROTOCOLS: readonly CheckedProtocol[] = ["http", "https", "socks5"];
const NAMES = ["HTTP", "HTTPS", "SOCKS5", "SSH"];

function code(value: number | string | undefined): number | undefined {
  if (value === undefined || value === "") return undefined;
  const number = Number(value);
  return Number.isInteger(number) ? number : Number.NaN;
}

/**
 * The protocol to speak: providers 0 to 2 are the protocol itself; a named provider's (Luminati and the
 * others) is its `proxyType`. Throws an Error saying why none can be spoken (SSH, or nothing given).
 */
export function protocolOf(proxy: ProxyToCheck): CheckedProtocol {
  const provider = code(proxy.proxyProvider);
  const type = code(proxy.proxyType);
  const chosen = provider !== undefined && provider >= 0 && provider <= 2 ? provider : type;
  const protocol = chosen === undefined ? undefined : PROTOCOLS[chosen];
  if (protocol !== undefined) return protocol;
  if (chosen === undefined) throw new Error("the proxy names no protocol (proxyProvider 0 HTTP, 1 HTTPS, 2 SOCKS5, or proxyType)");
  throw new Error(`this proxy's protocol (${NAMES[chosen] ?? `type ${String(chosen)}`}) cannot be checked: HTTP, HTTPS and SOCKS5 can`);
}

/** The port as a number from 1 to 65535; throws an Error otherwise. */
export function portOf(proxy: ProxyToCheck): number {
  const port = Number(proxy.proxyPort);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error("proxyPort must be from 1 to 65535");
  return port;
}
