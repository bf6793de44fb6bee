import { idSequence, pick, randomInt, type Random } from "./prng";
import { dateText, numbered } from "./seed-parts";
import type { ProxyInfo } from "./types";

const PLACES: readonly [string, string, string][] = [
  ["US", "California", "Los Angeles"],
  ["US", "New York", "New York"],
  ["GB", "England", "London"],
  ["DE", "Berlin", "Berlin"],
  ["JP", "Tokyo", "Tokyo"],
  ["SG", "Singapore", "Singapore"],
];

/** Where a proxy listens: a public address, a LAN address, or none (PiaProxy may leave it empty). */
type Host = "public" | "private" | "none";

interface ProxyKind {
  proxyCategoryType: 1 | 2;
  proxyProvider: number;
  proxyType: number;
  proxyStatus: number;
  proxyCheckStatus: number;
  host: Host;
}

/**
 * Proxies cycle through these, so every filter of /api/proxyInfo/page selects some and leaves some
 * out. Enumerations as in the shared spec: category 1 platform, 2 own; providers 0 HTTP, 1 HTTPS,
 * 2 SOCKS5, 3 SSH, 7 Luminati, 16 PiaProxy; status 0 normal, 1 unassigned (always for own proxies),
 * 3 expired, 4 expiring soon; check 0 pending, 1 ok, 2 failed, 3 unknown error.
 */
const KINDS: readonly ProxyKind[] = [
  { proxyCategoryType: 2, proxyProvider: 0, proxyType: 0, proxyStatus: 1, proxyCheckStatus: 1, host: "public" },
  { proxyCategoryType: 1, proxyProvider: 2, proxyType: 2, proxyStatus: 0, proxyCheckStatus: 1, host: "public" },
  { proxyCategoryType: 2, proxyProvider: 2, proxyType: 2, proxyStatus: 1, proxyCheckStatus: 2, host: "public" },
  { proxyCategoryType: 1, proxyProvider: 0, proxyType: 0, proxyStatus: 4, proxyCheckStatus: 1, host: "public" },
  { proxyCategoryType: 2, proxyProvider: 7, proxyType: 1, proxyStatus: 1, proxyCheckStatus: 0, host: "public" },
  { proxyCategoryType: 1, proxyProvider: 1, proxyType: 1, proxyStatus: 3, proxyCheckStatus: 3, host: "public" },
  { proxyCategoryType: 2, proxyProvider: 3, proxyType: 3, proxyStatus: 1, proxyCheckStatus: 1, host: "private" },
  { proxyCategoryType: 2, proxyProvider: 16, proxyType: 2, proxyStatus: 1, proxyCheckStatus: 0, host: "none" },
];

const PIA_PROXY = 16;
const PROXY_360 = 18;

function kindAt(index: number): ProxyKind {
  const kind = KINDS[index % KINDS.length];
  if (kind === undefined) throw new Error("no proxy kinds");
  return kind;
}

function ipOf(host: Host, index: number): string {
  const last = (index % 254) + 1;
  if (host === "public") return `203.0.113.${last}`;
  return host === "private" ? `192.168.1.${last}` : "";
}

/** Platform proxies expire; an expired one already has. */
function expiryOf(kind: ProxyKind, random: Random): string | null {
  if (kind.proxyCategoryType !== 1) return null;
  return dateText(random, kind.proxyStatus === 3 ? 2025 : 2027);
}

export function makeProxies(random: Random, count: number): ProxyInfo[] {
  const nextId = idSequence(random, 1_600_000_000_000_000_000n, 1_000_000);
  return Array.from({ length: count }, (_, i) => {
    const kind = kindAt(i);
    const [countryCode, state, city] = pick(random, PLACES);
    const proxyIp = ipOf(kind.host, i);
    return {
      id: nextId(),
      proxyName: numbered("Proxy", i),
      proxyType: kind.proxyType,
      proxyProvider: kind.proxyProvider,
      proxyCategoryType: kind.proxyCategoryType,
      proxyCheckStatus: kind.proxyCheckStatus,
      proxyStatus: kind.proxyStatus,
      state,
      city,
      proxyPort: proxyIp === "" ? null : randomInt(random, 1024, 65535),
      proxyIp,
      exportIp: `198.51.100.${randomInt(random, 1, 254)}`,
      countryCode,
      expiryTime: expiryOf(kind, random),
      username: `user${String(i + 1).padStart(3, "0")}`,
      password: null,
      refreshUrl: null,
    };
  });
}

function isPrivateAddress(ip: string): boolean {
  return /^(127\.|10\.|192\.168\.|172\.(1[6-9]|2\d|3[01])\.)/.test(ip);
}

/** Rows the emulator's proxy network points at its loopback listeners: they stand in for public proxies. */
const loopbackStandIns = new WeakSet<ProxyInfo>();

export function markLoopbackStandIn(proxy: ProxyInfo): void {
  loopbackStandIns.add(proxy);
}

/** What `isCloudPhoneProxy: true` keeps: the spec leaves out local and private IPs, 360 and Pia proxies. */
export function usableByCloudPhones(proxy: ProxyInfo): boolean {
  const publicAddress = loopbackStandIns.has(proxy) || !isPrivateAddress(proxy.proxyIp);
  return publicAddress && proxy.proxyProvider !== PIA_PROXY && proxy.proxyProvider !== PROXY_360;
}
