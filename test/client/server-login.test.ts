import assert from "node:assert/strict";
import { MoreLoginError } from "../../src/client";
import { resetBeforeEach, useClients, useEmulator } from "../support/emulator";

describe("client: the server login (localLogin)", () => {
  const { emulator } = useEmulator({ login: true, profiles: 3 });
  resetBeforeEach(emulator, (e) => e.forgetLogin());
  const client = useClients(emulator);
  const logins = (): number => emulator().stats.requests["local POST /api/user/login"] ?? 0;

  it("renews a forgotten login once for a generic request that takes the whole reply, and the reply is the answer", async () => {
    const server = client({ localLogin: true });
    const request = { api: "local", method: "POST", path: "/api/env/page", body: {}, wholeReply: true } as const;
    assert.equal(((await server.request(request)).data as { code: number }).code, 0);
    emulator().forgetLogin();
    const renewed = (await server.request(request)).data as { code: number; data: { total: string } };
    assert.equal(renewed.code, 0);
    assert.equal(renewed.data.total, "3");
    assert.equal(logins(), 2);
  });

  it("sends nothing without an API ID and API Key, with an auth error that says what is missing", async () => {
    const server = client({ localLogin: true, apiKey: "" });
    const error = await server.call("listProfiles", {}).then(
      () => assert.fail("the call should fail"),
      (failure: unknown) => failure,
    );
    assert.ok(error instanceof MoreLoginError);
    assert.equal(error.kind, "auth");
    assert.match(error.message, /needs the API ID and API Key/);
    assert.deepEqual(emulator().requestLog, []);
  });

  it("without localLogin, sends no login and gets the server's refusal as it is", async () => {
    const error = await client()
      .call("listProfiles", {})
      .then(
        () => assert.fail("the call should fail"),
        (failure: unknown) => failure,
      );
    assert.ok(error instanceof MoreLoginError);
    assert.equal(error.code, 35001);
    assert.match(error.message, /server edition, tick Server login/);
    assert.equal(logins(), 0);
  });
});
