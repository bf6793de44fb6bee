import { socksDispatcher } from "fetch-socks";
import { ProxyAgent, type Dispatcher } from "undici";
import { portOf, protocolOf, type ProxyToCheck } from "./proxy-protocol";

function credentialsOf(proxy: ProxyToCheck): { username: string; password: string } | undefined {
  const username = proxy.username ?? "";
  const password = proxy.password ?? "";
  return username === "" && password === "" ? undefined : { username, password };
}

/** An IPv6 address goes in brackets in a URL. */
function urlHost(host: string): string {
  return host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
}

/**
 * A dispatcher that sends through the proxy. HTTP and HTTPS proxies are reached over plain TCP and
 * tunnel with CONNECT (the target's scheme decides TLS to the target): MoreLogin's HTTPS type is read as
 * an HTTP proxy that carries HTTPS (docs/EMULATOR.md). Credentials travel as Proxy-Authorization or
 * RFC 1929, never in a URL. `connectTimeoutMs` bounds the connection and the proxy's handshake.
 */
export function proxyDispatcher(proxy: ProxyToCheck, connectTimeoutMs: number): Dispatcher {
  const protocol = protocolOf(proxy);
  const port = portOf(proxy);
  const host = proxy.proxyIp.trim();
  if (host === "") throw new Error("proxyIp is empty");
  const credentials = credentialsOf(proxy);
  if (protocol === "socks5") {
    const auth = credentials === undefined ? {} : { userId: credentials.username, password: credentials.password };
    return socksDispatcher({ type: 5, host, port, ...auth }, { connect: { timeout: connectTimeoutMs } });
  }
  const token = credentials === undefined ? undefined : `Basic ${Buffer.from(`${credentials.username}:${credentials.password}`).toString("base64")}`;
  return new ProxyAgent({ uri: `http://${urlHost(host)}:${port}`, token, proxyTls: { timeout: connectTimeoutMs }, requestTls: { timeout: connectTimeoutMs }, connect: { timeout: connectTimeoutMs } });
}
