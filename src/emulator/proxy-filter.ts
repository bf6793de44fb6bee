import { matchingAll, whenSent } from "./list-filter";
import { usableByCloudPhones } from "./proxy-data";
import { containsIgnoringCase, readBoolean, readId, readInteger, readIntegerList, readText, type Body } from "./request-fields";
import type { ProxyInfo } from "./types";

/** The filters of /api/proxyInfo/page as the shared spec defines them; a proxy must match all that are sent. */
export function proxyFilter(body: Body): (proxy: ProxyInfo) => boolean {
  return matchingAll<ProxyInfo>([
    whenSent(readId(body, "id"), (proxy, id) => proxy.id === id),
    readBoolean(body, "isCloudPhoneProxy") === true ? usableByCloudPhones : undefined,
    whenSent(readInteger(body, "proxyCategoryType"), (proxy, category) => proxy.proxyCategoryType === category),
    whenSent(readText(body, "proxyIp"), (proxy, ip) => proxy.proxyIp.includes(ip)),
    whenSent(readText(body, "proxyName"), (proxy, name) => containsIgnoringCase(proxy.proxyName, name)),
    whenSent(readIntegerList(body, "proxyProviders"), (proxy, providers) => providers.includes(proxy.proxyProvider)),
    whenSent(readInteger(body, "proxyStatus"), (proxy, status) => proxy.proxyStatus === status),
    whenSent(readInteger(body, "proxyCheckStatus"), (proxy, check) => proxy.proxyCheckStatus === check),
    whenSent(readIntegerList(body, "proxyTypes"), (proxy, types) => types.includes(proxy.proxyType)),
  ]);
}
