import assert from "node:assert/strict";
import { call, dataOf, expectError, type PageShape } from "../support/http";
import { bearer, useEmulator } from "../support/emulator";

/** Fields the 2026-09-05 specs mark required answer 99001 "request parameter error" when missing. */
describe("emulator: required request fields", () => {
  const { emulator } = useEmulator({ profiles: 3 });
  const missing = (field: string): string => `Request parameter error: ${field} is required`;
  const profileId = (): string => {
    const id = emulator().data.profiles[0]?.id;
    assert.ok(id);
    return id;
  };

  it("/api/env/status and /api/env/detail need envId; a uniqueId does not stand in for it", async () => {
    for (const path of ["/api/env/status", "/api/env/detail"]) {
      for (const body of [{}, { envId: "" }, { envId: null }, { uniqueId: 1 }]) {
        expectError(await call(emulator().localUrl, path, { body }), 200, 99001, missing("envId"));
      }
      dataOf(await call(emulator().localUrl, path, { body: { envId: profileId() } }));
    }
  });

  it("/api/env/start and /api/env/close need envId or uniqueId", async () => {
    for (const path of ["/api/env/start", "/api/env/close"]) {
      for (const body of [{}, { envId: "" }, { envId: "", uniqueId: "" }, { uniqueId: null }]) {
        expectError(await call(emulator().localUrl, path, { body }), 200, 99001, missing("envId or uniqueId"));
      }
    }
    assert.deepEqual(emulator().running(), []);
  });

  it("/api/envgroup/page needs groupName, pageNo and pageSize, on both APIs; an empty groupName lists all", async () => {
    const full = { groupName: "", pageNo: 1, pageSize: 10 };
    const auth = await bearer(emulator());
    for (const [url, path, headers] of [
      [emulator().localUrl, "/api/envgroup/page", {}],
      [emulator().openUrl, "/envgroup/page", auth],
    ] as const) {
      for (const field of ["groupName", "pageNo", "pageSize"] as const) {
        const { [field]: _, ...body } = full;
        expectError(await call(url, path, { body, headers }), 200, 99001, missing(field));
        expectError(await call(url, path, { body: { ...full, [field]: null }, headers }), 200, 99001, missing(field));
      }
      const page = dataOf<PageShape<unknown>>(await call(url, path, { body: full, headers }));
      assert.deepEqual(page.dataList, emulator().data.groups);
    }
  });

  it("/oauth2/token needs client_id, client_secret and grant_type", async () => {
    const { apiId, apiKey } = emulator().credentials;
    const full = { client_id: apiId, client_secret: apiKey, grant_type: "client_credentials" };
    for (const field of ["client_id", "client_secret", "grant_type"] as const) {
      const { [field]: _, ...body } = full;
      expectError(await call(emulator().openUrl, "/oauth2/token", { body }), 200, 99001, missing(field));
    }
    expectError(await call(emulator().openUrl, "/oauth2/token", { body: {} }), 200, 99001, missing("client_id"));
    dataOf(await call(emulator().openUrl, "/oauth2/token", { body: full }));
  });
});
