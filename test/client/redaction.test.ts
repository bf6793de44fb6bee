import assert from "node:assert/strict";
import { MoreLoginApiError, type MoreLoginClient } from "../../src/client";
import { clientFor, rejection, useEmulator } from "../support/emulator";

const LOCAL_TOKEN = "redaction-local-token-5519";
const API_KEY = "redaction-api-key-8830";
/** A bearer credential that is neither one of the client's secrets nor shaped like a JWT. */
const OPAQUE_BEARER = "opaque-credential-4471";
/** A JWT (header {"alg":"HS256"}, claims {"sub":"someone"}) that this client never had. */
const FOREIGN_JWT = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJzb21lb25lIn0.c2lnbmF0dXJlLW9mLXNvbWVvbmU";

/**
 * The emulator's echo fault answers with an error whose `msg` repeats the request as it arrived,
 * headers and body: what the client shows of that msg must not give a credential away.
 */
describe("client: secrets the API repeats in its msg", () => {
  const { emulator } = useEmulator({ localToken: LOCAL_TOKEN, apiKey: API_KEY });
  let client: MoreLoginClient;
  beforeEach(() => {
    emulator().resetStats();
    client = clientFor(emulator());
  });
  afterEach(() => client.close());

  /** The error of a call the emulator answered with the echo fault, checked to carry the echo. */
  async function echoed(promise: Promise<unknown>, path: string): Promise<MoreLoginApiError> {
    const error = await rejection(promise);
    assert.ok(error instanceof MoreLoginApiError, String(error));
    assert.ok(error.message.includes(`echo of POST ${path}: headers `), error.message);
    assert.equal(error.apiMsg && error.message.startsWith(error.apiMsg), true, "the error text starts with the API's msg");
    return error;
  }

  const shown = (error: MoreLoginApiError): string => `${error.message}\n${error.apiMsg}\n${error.stack}\n${JSON.stringify(error)}`;

  it("masks the Local token", async () => {
    emulator().script({ kind: "echo", api: "local", path: "/api/env/page" });
    const error = await echoed(client.call("listProfiles", { pageNo: 1 }), "/api/env/page");
    assert.ok(error.message.includes('"authorization":"***"'), error.message);
    assert.equal(shown(error).includes(LOCAL_TOKEN), false);
  });

  it("masks the API key of a token request", async () => {
    emulator().script({ kind: "echo", api: "open", path: "/oauth2/token" });
    // A failed token request was not the call itself: the call would be retried with a new token.
    const once = clientFor(emulator(), { retry: { attempts: 1 } });
    const error = await rejection(once.call("listApps", { pageNum: 1 })).finally(() => once.close());
    assert.ok(error.message.startsWith("Open API token request failed: echo of POST /oauth2/token: headers "), error.message);
    assert.ok(error.message.includes('"client_secret":"***"'), error.message);
    assert.ok(error.message.includes(`"client_id":"${emulator().credentials.apiId}"`), "the API ID is not a secret");
    assert.equal(`${error.message}\n${error.stack}\n${JSON.stringify(error)}`.includes(API_KEY), false);
  });

  it("masks the bearer token the client sent", async () => {
    await client.call("listApps", { pageNum: 1 });
    const token = emulator().requestLog.at(-1)?.headers.authorization;
    assert.match(String(token), /^Bearer \S+$/);
    emulator().script({ kind: "echo", api: "open", path: "/cloudphone/app/page" });
    const error = await echoed(client.call("listApps", { pageNum: 1 }), "/cloudphone/app/page");
    assert.ok(error.message.includes('"authorization":"Bearer ***"'), error.message);
    assert.equal(shown(error).includes(String(token).slice("Bearer ".length)), false);
  });

  it("masks any bearer value, not only the client's own token", async () => {
    emulator().script({ kind: "echo", api: "local", path: "/api/env/page" });
    const body = { note: `forwarded Authorization: Bearer ${OPAQUE_BEARER}` };
    const error = await echoed(client.request({ api: "local", method: "POST", path: "/api/env/page", body }), "/api/env/page");
    assert.ok(error.message.includes("forwarded Authorization: Bearer ***"), error.message);
    assert.equal(shown(error).includes(OPAQUE_BEARER), false);
  });

  it("masks JWT-like strings, whoever they belong to", async () => {
    emulator().script({ kind: "echo", api: "local", path: "/api/env/page" });
    const body = { note: `session ${FOREIGN_JWT} end` };
    const error = await echoed(client.request({ api: "local", method: "POST", path: "/api/env/page", body }), "/api/env/page");
    assert.ok(error.message.includes("session *** end"), error.message);
    assert.equal(shown(error).includes(FOREIGN_JWT.split(".")[1] ?? FOREIGN_JWT), false);
  });
});
