import { mulberry32, pick, type Random } from "../../src/emulator/prng";

/** Deterministic hostile inputs: wrong types, huge and deep values, prototype keys, URLs and CR/LF. */
export function hostileValues(canaryUrl: string, valid: readonly unknown[] = []): unknown[] {
  const huge = "x".repeat(1024 * 1024);
  let deep: unknown = "bottom";
  for (let i = 0; i < 500; i++) deep = { nested: deep };
  let deepArray: unknown = [];
  for (let i = 0; i < 500; i++) deepArray = [deepArray];
  return [
    null,
    true,
    0,
    -1,
    1.5,
    Number.NaN,
    Number.POSITIVE_INFINITY,
    2 ** 60,
    // biome-ignore lint/correctness/noPrecisionLoss: a 19-digit ID that has lost digits as a number is one of the hostile values
    1993244721490239488,
    "",
    " ",
    "abc",
    "1\r\nHost: evil.example.com",
    "1%0d%0aX-Evil: 1",
    huge,
    deep,
    deepArray,
    [],
    [1, 2, 3],
    {},
    JSON.parse('{"__proto__": {"polluted": "yes"}, "constructor": {"prototype": {"polluted": "yes"}}}') as unknown,
    `${canaryUrl}/api/env/page`,
    `//${new URL(canaryUrl).host}/api/env/page`,
    "/api/../oauth2/token",
    "/api/%2e%2e/%2e%2e/etc",
    "/api/%2E%2E%2Fx",
    "..",
    "../../../etc/passwd",
    "\\\\evil\\share",
    "/api/env/page#frag",
    "/api/env/\u0000page",
    // A few good values (e.g. a real profile ID), so the normal call is exercised as well.
    ...valid,
  ];
}

const FIELDS = ["envId", "uniqueId", "pageNo", "pageNum", "pageSize", "envName", "groupId", "keyword", "groupName", "appName", "isHeadless", "id", "debugPort", "__proto__", "constructor", "toString"];

/** Paths a request node may legitimately be given, so its normal call is exercised too. */
const VALID_PATHS = ["/api/env/page", "/api/envtag/all", "/cloudphone/app/page", "/api/env/page?pageNo=1", "/api/%252e%252e/x"];

/** A message: the payload is a hostile value or an object of hostile fields; msg.path and msg.page too. */
export function hostileMessage(random: Random, values: readonly unknown[]): Record<string, unknown> {
  const payload: unknown = random() < 0.4 ? pick(random, values) : Object.fromEntries(Array.from({ length: 1 + Math.floor(random() * 4) }, () => [pick(random, FIELDS), pick(random, values)]));
  const path = random() < 0.2 ? pick(random, VALID_PATHS) : pick(random, values);
  return { payload, path, page: pick(random, values) };
}

export { mulberry32 };
