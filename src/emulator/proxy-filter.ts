import { usableByCloudPhones } from "./proxy-data";
import { containsIgnoringCase, readBoolean, readId, readInteger, readIntegerList, readText, type Body } from "./request-fields";
import type { ProxyInfo } from "./types";

/** The filters of /api/proxyInfo/page as the shared spec defines them; a proxy must match all that are sent. */
export function proxyFilter(body: Body): (proxy: ProxyInfo) => boolean {
  const id = readId(body, "id");
  const cloudPhonesOnly = readBoolean(body, "isCloudPhoneProxy") === true;
  const category = readInteger(body, "proxyCategoryType");
  const ip = readText(body, "proxyIp");
  const name = readText(body, "proxyName");
  const providers = readIntegerList(body, "proxyProviders");
  const status = readInteger(body, "proxyStatus");
  const check = readInteger(body, "proxyCheckStatus");
  const types = readIntegerList(body, "proxyTypes");
  return (proxy) =>
    (id === undefined || proxy.id === id) &&
    (!cloudPhonesOnly || usableByCloudPhones(proxy)) &&
    (category === undefined || proxy.proxyCategoryType === category) &&
    (ip === undefined || proxy.proxyIp.includes(ip)) &&
    (name === undefined || containsIgnoringCase(proxy.proxyName, name)) &&
    (providers === undefined || providers.includes(proxy.proxyProvider)) &&
    (status === undefined || proxy.proxyStatus === status) &&
    (check === undefined || proxy.proxyCheckStatus === check) &&
    (types === undefined || types.includes(proxy.proxyType));
}
