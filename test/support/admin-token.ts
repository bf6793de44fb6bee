import assert from "node:assert/strict";

/** A Node-RED admin token for `username` with `scope` (read, *), as the editor's login gets one. */
export async function adminToken(nodeRedUrl: string, username: string, password: string, scope: string): Promise<string> {
  const response = await fetch(`${nodeRedUrl}/auth/token`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ client_id: "node-red-admin", grant_type: "password", scope, username, password }),
  });
  assert.equal(response.status, 200);
  return ((await response.json()) as { access_token: string }).access_token;
}
