import assert from "node:assert/strict";
import { call, dataOf, expectError } from "../support/http";
import { useEmulator } from "../support/emulator";

const prototypeIsClean = (): void => {
  const probe: Record<string, unknown> = {};
  assert.equal(probe.polluted, undefined);
  assert.equal(probe.isAdmin, undefined);
  assert.deepEqual(Object.keys(Object.prototype), []);
};

describe("emulator: hostile input", () => {
  const { emulator } = useEmulator();

  afterEach(async () => {
    prototypeIsClean();
    dataOf(await call(emulator().localUrl, "/api/env/page", { body: { pageNo: 1 } }));
  });

  it("survives deeply nested JSON", async () => {
    const depth = 200_000;
    const deep = `{"pageNo":1,"x":${"[".repeat(depth)}${"]".repeat(depth)}}`;
    const answer = await call(emulator().localUrl, "/api/env/page", { body: deep });
    assert.equal(answer.status, 200);
    const objects = `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;
    assert.equal((await call(emulator().localUrl, "/api/proxyInfo/page", { body: objects })).status, 200);
  });

  it("keeps __proto__ and constructor keys as plain data", async () => {
    const body = '{"__proto__":{"polluted":true,"isAdmin":true},"constructor":{"prototype":{"polluted":true}},"pageNo":{"__proto__":{"x":1}}}';
    expectError(await call(emulator().localUrl, "/api/env/page", { body }), 200, 99001);
    const token = '{"__proto__":{"grant_type":"client_credentials"},"client_id":"1690000000000001","client_secret":"emulator-api-key"}';
    expectError(await call(emulator().openUrl, "/oauth2/token", { body: token }), 200, 99001, "Request parameter error: grant_type is required");
    dataOf(await call(emulator().localUrl, "/api/env/page", { body: '{"__proto__":{"pageSize":1}}' }));
  });

  it("treats a body that is valid JSON but not an object as a parameter error", async () => {
    for (const body of ["[1,2]", "null", "42", '"text"']) {
      expectError(await call(emulator().localUrl, "/api/env/page", { body }), 200, 99001);
    }
  });

  it("handles 1 MB strings in fields", async () => {
    const big = "x".repeat(1_000_000);
    const page = await call(emulator().localUrl, "/api/env/page", { body: { envName: big } });
    assert.deepEqual(dataOf(page).dataList, []);
    expectError(await call(emulator().localUrl, "/api/env/start", { body: { envId: big } }), 200, 99001);
    expectError(await call(emulator().openUrl, "/oauth2/token", { body: { client_id: "1", client_secret: big, grant_type: "client_credentials" } }), 401, 401);
  });

  it("answers 99004 for bodies over 1 MiB", async () => {
    const answer = await call(emulator().localUrl, "/api/env/page", { body: { envName: "y".repeat(2 * 1024 * 1024) } });
    expectError(answer, 200, 99004, "Request too large");
  });

  it("rejects wrong field types with 99001", async () => {
    const cases: [string, Record<string, unknown>][] = [
      ["/api/env/page", { envName: 5 }],
      ["/api/env/page", { groupId: "abc" }],
      ["/api/env/start", { envId: true }],
      ["/api/env/start", { envId: "123", isHeadless: "yes" }],
      ["/api/cloudphone/page", { keyword: ["a"] }],
      ["/api/env/page", { pageSize: 1e300 }],
    ];
    for (const [path, body] of cases) expectError(await call(emulator().localUrl, path, { body }), 200, 99001);
  });

  it("survives odd methods and paths", async () => {
    expectError(await call(emulator().localUrl, "/api/env/page", { method: "GET" }), 404, 404);
    const weird = await fetch(`${emulator().localUrl}/%00/../__proto__?x=${"q".repeat(4000)}`, { method: "DELETE" });
    assert.equal(weird.status, 404);
    await weird.text();
  });
});
