import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startNodeRed, type AdminUser, type RunningNodeRed } from "../../tools/sandbox";
import { nodeBinary, redJs } from "../support/runtime";
import { linkedUserDir } from "../support/user-dir";
import { adminToken } from "../support/admin-token";

const USERS: AdminUser[] = [
  { username: "reader", password: "reader-password", permissions: "read" },
  { username: "nobody", password: "nobody-password", permissions: "flows.read" },
];

/**
 * The metrics route in real Node-RED processes with adminAuth: under the admin auth (whoever may read
 * config nodes), and on the http node root without a token only when settings.js asks
 * (`morelogin.metricsOnHttpNode`).
 */
describe("nodes: the metrics route under Node-RED's admin auth", function () {
  this.timeout(120_000);
  let work: string;
  let guarded: RunningNodeRed | undefined;
  let open: RunningNodeRed | undefined;

  before(async () => {
    work = mkdtempSync(join(tmpdir(), "morelogin-metrics-auth-"));
    const userDir = (name: string): string => {
      mkdirSync(join(work, name));
      return linkedUserDir(join(work, name), `metrics-${name}`);
    };
    [guarded, open] = await Promise.all([
      // The http node root apart from the admin root: no metrics there without the setting.
      startNodeRed({ userDir: userDir("guarded"), node: nodeBinary, redJs, adminUsers: USERS, settings: { httpNodeRoot: "/nodes" } }),
      // Both roots at "/", as Node-RED's default: the request without a token reaches the http node's route.
      startNodeRed({ userDir: userDir("open"), node: nodeBinary, redJs, adminUsers: USERS, settings: { morelogin: { metricsOnHttpNode: true } } }),
    ]);
  });

  after(async () => {
    await Promise.all([guarded?.stop(), open?.stop()]);
    rmSync(work, { recursive: true, force: true });
  });

  const running = (nodeRed: RunningNodeRed | undefined): RunningNodeRed => {
    assert.ok(nodeRed, "Node-RED runs");
    return nodeRed;
  };

  const tokenFor = (nodeRed: RunningNodeRed, username: string, password: string, scope: string): Promise<string> => adminToken(nodeRed.url, username, password, scope);

  const scrape = async (url: string, token?: string): Promise<{ status: number; text: string }> => {
    const response = await fetch(url, token ? { headers: { authorization: `Bearer ${token}` } } : {});
    return { status: response.status, text: await response.text() };
  };

  it("without the setting: a token that may read config nodes is needed, and the http node root has no metrics", async () => {
    const nodeRed = running(guarded);
    const admin = nodeRed.url;
    assert.equal((await scrape(`${admin}/morelogin/metrics`)).status, 401, "no token: refused");
    const nobody = await tokenFor(nodeRed, "nobody", "nobody-password", "flows.read");
    assert.equal((await scrape(`${admin}/morelogin/metrics`, nobody)).status, 401, "a user who may not read config nodes: refused");
    const reader = await tokenFor(nodeRed, "reader", "reader-password", "read");
    const read = await scrape(`${admin}/morelogin/metrics`, reader);
    assert.equal(read.status, 200);
    assert.match(read.text, /^# HELP morelogin_/m);
    const httpNode = await scrape(`${nodeRed.url}/nodes/morelogin/metrics`);
    assert.notEqual(httpNode.status, 200, "not on the http node root");
    assert.doesNotMatch(httpNode.text, /morelogin_/);
  });

  it("with morelogin.metricsOnHttpNode: a scraper without a token gets them on the http node root", async () => {
    const nodeRed = running(open);
    const read = await scrape(`${nodeRed.url}/morelogin/metrics`);
    assert.equal(read.status, 200);
    assert.match(read.text, /^# TYPE morelogin_requests_total counter$/m);
    assert.equal((await scrape(`${nodeRed.url}/settings`)).status, 401, "the rest of the admin API still needs a token");
  });
});
