import { ok, type Reply } from "./replies";
import { pageOf, readPageRequest } from "./paging";
import { proxyFilter } from "./proxy-filter";
import { containsIgnoringCase, readText, requireFields, type Body } from "./request-fields";
import type { EmulatorState } from "./state";
import type { CloudPhone } from "./types";

/** List endpoints that the Local API (under /api) and the Open API both serve with the same shapes. */

function cloudPhoneMatches(phone: CloudPhone, keyword: string): boolean {
  return containsIgnoringCase(phone.envName, keyword) || containsIgnoringCase(phone.groupName, keyword) || phone.tagInfos.some((tag) => containsIgnoringCase(tag.tagName, keyword));
}

export function cloudPhonePage(state: EmulatorState, body: Body): Reply {
  const page = readPageRequest(body, state.options.maxPageSize);
  const keyword = readText(body, "keyword");
  const phones = keyword === undefined ? state.data.cloudPhones : state.data.cloudPhones.filter((p) => cloudPhoneMatches(p, keyword));
  return ok(pageOf(phones, page));
}

export function proxyPage(state: EmulatorState, body: Body): Reply {
  const page = readPageRequest(body, state.options.maxPageSize);
  return ok(pageOf(state.data.proxies.filter(proxyFilter(body)), page));
}

/** The spec marks all three fields required; the official CLI always sends them (`groupName: ""` for all). */
export function groupPage(state: EmulatorState, body: Body): Reply {
  requireFields(body, ["groupName", "pageNo", "pageSize"]);
  const page = readPageRequest(body, state.options.maxPageSize);
  const name = readText(body, "groupName");
  const groups = name === undefined ? state.data.groups : state.data.groups.filter((g) => containsIgnoringCase(g.groupName, name));
  return ok(pageOf(groups, page));
}

export function allTags(state: EmulatorState): Reply {
  return ok(state.data.tags);
}

/** Uses `pageNum`, and (like the real API) reports in `total` only the rows on this page. */
export function appPage(state: EmulatorState, body: Body): Reply {
  const page = readPageRequest(body, state.options.maxPageSize, "pageNum");
  const name = readText(body, "appName");
  const apps = name === undefined ? state.data.apps : state.data.apps.filter((a) => containsIgnoringCase(a.appName, name));
  const result = pageOf(apps, page);
  return ok({ ...result, total: String(result.dataList.length) });
}
