import assert from "node:assert/strict";
import type { Emulator } from "../../src/emulator";
import { call, dataOf, envelopeOf, expectError, refused, type PageShape } from "../support/http";
import { useEmulator } from "../support/emulator";
import { waitUntil } from "../support/wait-until";

/** Endpoints the official CLI (morelogin-local-api-skill) calls: cloud runtimes, cloud storage, the account. */

/** The provisioning time of the manual-clock emulator: a runtime starts in it, and archives in it (half PENDING, half ARCHIVING). */
const BOOT_MS = 1_000;

interface Runtime {
  id: string;
  proxyId: string | null;
  cloudBrowserStatus: string;
  cloudBrowserArchiveStatus: string | null;
  startDate: string | null;
}

interface StoredFile {
  id: string;
  fileName: string;
  fileExt: string;
  fileSize: string;
  fileType: number;
  tagInfo: ({ id: string; tagName: string } | null)[];
}

function api(emulator: () => Emulator) {
  const post = (path: string, body: unknown) => call(emulator().localUrl, path, { body });
  const get = (path: string) => call(emulator().localUrl, path, { method: "GET" });
  /** A profile that has a proxy (a cloud runtime needs one), each test its own. */
  const taken = new Set<string>();
  const profileWithProxy = (): string => {
    const profile = emulator().data.profiles.find((p) => p.proxy !== null && !taken.has(p.id));
    assert.ok(profile, "a free profile with a proxy");
    taken.add(profile.id);
    return profile.id;
  };
  const runtime = async (envId: string): Promise<Runtime | undefined> => dataOf<PageShape<Runtime>>(await post("/api/cloudbrowser/page", { pageNo: 1, pageSize: 10, envId })).dataList[0];
  return { post, get, profileWithProxy, runtime };
}

describe("emulator: cloud runtimes (/api/cloudbrowser)", () => {
  const { emulator } = useEmulator({ phoneBootMs: 100 });
  const { post } = api(emulator);
  // Its states change only when the test moves its clock: each one can be seen, however slow the machine.
  const { emulator: manual } = useEmulator({ phoneBootMs: BOOT_MS, manualClock: true });
  const clocked = api(manual);

  it("start is accepted and STARTING, then RUNNING with a start date; connect gives its gateway's CDP URL with a token; stop archives, then CLOSED", async () => {
    const starting = clocked.profileWithProxy();
    assert.equal(dataOf(await clocked.post("/api/cloudbrowser/start", { envId: starting })), null);
    const inBetween = await clocked.runtime(starting);
    assert.deepEqual([inBetween?.cloudBrowserStatus, inBetween?.cloudBrowserArchiveStatus, inBetween?.startDate], ["STARTING", null, null]);
    expectError(await clocked.post("/api/cloudbrowser/start", { envId: starting }), 200, 100);
    expectError(await clocked.post("/api/cloudbrowser/connect", { envId: starting }), 200, 99001);
    assert.equal(dataOf(await clocked.post("/api/cloudbrowser/stop", { envId: starting })), null);
    const abandoned = await clocked.runtime(starting);
    assert.deepEqual([abandoned?.cloudBrowserStatus, abandoned?.cloudBrowserArchiveStatus], ["CLOSED", null], "a start stopped before it ran has nothing to archive");

    const envId = clocked.profileWithProxy();
    const before = await clocked.runtime(envId);
    assert.equal(before?.cloudBrowserStatus, "CLOSED");
    assert.equal(before?.cloudBrowserArchiveStatus, null);
    dataOf(await clocked.post("/api/cloudbrowser/start", { envId }));
    manual().advanceClock(BOOT_MS);
    // The gateway and its stand-in debug port open on their own time: RUNNING once they have.
    const running = await waitUntil(
      () => clocked.runtime(envId),
      (item) => item?.cloudBrowserStatus === "RUNNING",
      "the runtime runs",
    );
    assert.equal(running?.cloudBrowserArchiveStatus, null);
    assert.match(running?.startDate ?? "", /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    const { cdpUrl, accessUrl } = dataOf<{ cdpUrl: string; accessUrl: string }>(await clocked.post("/api/cloudbrowser/connect", { envId }));
    const [, port, token] = /^http:\/\/127\.0\.0\.1:(\d+)\?token=([0-9a-f]{32})$/.exec(cdpUrl) ?? [];
    assert.ok(port && token, cdpUrl);
    assert.match(accessUrl, new RegExp(`^http://127\\.0\\.0\\.1:${port}/browser-remote\\?token=[0-9a-f]{32}&envName=[^&]+&lang=en-US$`));
    assert.equal(dataOf<{ cdpUrl: string }>(await clocked.post("/api/cloudbrowser/connect", { envId })).cdpUrl, cdpUrl, "the same cdpUrl for every connect");
    // Without --browser the gateway fronts a stand-in debug port: /json/version answers, nothing speaks CDP.
    const version = (await (await fetch(`http://127.0.0.1:${port}/json/version?token=${token}`)).json()) as { webSocketDebuggerUrl: string };
    assert.match(version.webSocketDebuggerUrl, new RegExp(`^ws://127\\.0\\.0\\.1:${port}/devtools/browser/[0-9a-f-]+\\?token=${token}$`));
    assert.equal((await fetch(`http://127.0.0.1:${port}/json/version`)).status, 401);

    assert.equal(dataOf(await clocked.post("/api/cloudbrowser/stop", { envId, force: false })), null);
    assert.equal(await refused(`http://127.0.0.1:${port}/json/version?token=${token}`), true, "the gateway closes at stop");
    const states = [await clocked.runtime(envId)];
    expectError(await clocked.post("/api/cloudbrowser/connect", { envId }), 200, 99001, "Request parameter error: the cloud runtime is not running");
    expectError(await clocked.post("/api/cloudbrowser/start", { envId }), 200, 100);
    assert.equal(dataOf(await clocked.post("/api/cloudbrowser/stop", { envId })), null, "stopping while archiving does nothing");
    manual().advanceClock(BOOT_MS / 2);
    states.push(await clocked.runtime(envId));
    manual().advanceClock(BOOT_MS / 2);
    states.push(await clocked.runtime(envId));
    assert.deepEqual(
      states.map((item) => [item?.cloudBrowserStatus, item?.cloudBrowserArchiveStatus, item?.startDate === running?.startDate]),
      [
        ["RUNNING", "PENDING", true],
        ["RUNNING", "ARCHIVING", true],
        ["CLOSED", "COMPLETED", false],
      ],
      "archiving shows RUNNING with its start date (the spec), then CLOSED without one",
    );
    assert.equal(states[2]?.startDate, null);
    assert.equal(dataOf(await clocked.post("/api/cloudbrowser/stop", { envId })), null, "stopping again does nothing");

    // A new run has a new token: the old one opens nothing on its gateway.
    dataOf(await clocked.post("/api/cloudbrowser/start", { envId }));
    manual().advanceClock(BOOT_MS);
    await waitUntil(
      () => clocked.runtime(envId),
      (item) => item?.cloudBrowserStatus === "RUNNING",
      "the runtime runs again",
    );
    const next = dataOf<{ cdpUrl: string }>(await clocked.post("/api/cloudbrowser/connect", { envId })).cdpUrl;
    const [, nextPort, nextToken] = /^http:\/\/127\.0\.0\.1:(\d+)\?token=([0-9a-f]{32})$/.exec(next) ?? [];
    assert.ok(nextPort && nextToken && nextToken !== token, `a new token: ${next}`);
    assert.equal((await fetch(`http://127.0.0.1:${nextPort}/json/version?token=${token}`)).status, 401);
    assert.equal((await fetch(`http://127.0.0.1:${nextPort}/json/version?token=${nextToken}`)).status, 200);
    dataOf(await clocked.post("/api/cloudbrowser/stop", { envId }));
  });

  it("pages with the required pageNo and pageSize (at most 100), and refuses an unknown profile (101)", async () => {
    const page = dataOf<PageShape<Runtime>>(await post("/api/cloudbrowser/page", { pageNo: 1, pageSize: 100 }));
    assert.equal(page.total, String(emulator().data.profiles.length));
    expectError(await post("/api/cloudbrowser/page", { pageNo: 1 }), 200, 99001);
    expectError(await post("/api/cloudbrowser/page", { pageNo: 1, pageSize: 101 }), 200, 99001);
    expectError(await post("/api/cloudbrowser/start", { envId: "1234567890123456789" }), 200, 101);
  });
});

describe("emulator: cloud storage (/api/cloudstorage)", () => {
  const { emulator } = useEmulator();
  const { post, get } = api(emulator);
  const page = async (body: object = {}) => dataOf<PageShape<StoredFile>>(await post("/api/cloudstorage/file/page", { pageNo: 1, pageSize: 20, ...body }));
  const used = async () => dataOf<{ usedCapacity: string }>(await get("/api/cloudstorage/info")).usedCapacity;

  it("uploads: init reserves (not listed), PUT to the presigned URL, complete lists it and charges the quota; delete frees it", async () => {
    const [reserved] = dataOf<{ id: string; fileName: string; presignedUrl: string }[]>(await post("/api/cloudstorage/upload/init", { fileNames: ["clip.mp4"] }));
    assert.ok(reserved);
    assert.equal(reserved.fileName, "clip.mp4");
    assert.ok(reserved.presignedUrl.startsWith(`${emulator().localUrl}/`), "the upload URL is the emulator's own");
    assert.equal((await page()).total, "0", "an unconfirmed upload is not listed");
    expectError(await post("/api/cloudstorage/upload/init", { fileNames: ["clip.png"] }), 200, 99001);

    const put = await fetch(reserved.presignedUrl, { method: "PUT", body: new Uint8Array(1234) });
    assert.equal(put.status, 200);
    const file = dataOf<StoredFile>(await post("/api/cloudstorage/upload/complete", { id: reserved.id }));
    assert.deepEqual([file.fileName, file.fileExt, file.fileSize, file.fileType], ["clip", "mp4", "1234", 1]);
    assert.deepEqual(dataOf<StoredFile>(await post("/api/cloudstorage/upload/complete", { id: reserved.id })).fileSize, "1234", "idempotent once done");
    assert.deepEqual(
      (await page({ fileName: "cli" })).dataList.map((f) => f.id),
      [reserved.id],
    );
    assert.equal(await used(), "1234");

    assert.equal(dataOf(await post("/api/cloudstorage/file/delete/batch", { ids: [reserved.id] })), null);
    assert.equal((await page()).total, "0");
    assert.equal(await used(), "0");
    expectError(await post("/api/cloudstorage/file/delete/batch", { ids: [reserved.id] }), 200, 39011);
  });

  it("refuses to complete an upload whose bytes never arrived", async () => {
    const [reserved] = dataOf<{ id: string }[]>(await post("/api/cloudstorage/upload/init", { fileNames: ["never.txt"] }));
    expectError(await post("/api/cloudstorage/upload/complete", { id: reserved?.id }), 200, 99001);
    expectError(await post("/api/cloudstorage/upload/complete", { id: "1234567890123456" }), 200, 39011);
  });

  it("tags: create lists in tag/all, set replaces, add keeps, query reports; edit renames; delete leaves the assignment without details", async () => {
    const [reserved] = dataOf<{ id: string; presignedUrl: string }[]>(await post("/api/cloudstorage/upload/init", { fileNames: ["report.pdf"] }));
    assert.ok(reserved);
    await fetch(reserved.presignedUrl, { method: "PUT", body: "pdf bytes" });
    dataOf(await post("/api/cloudstorage/upload/complete", { id: reserved.id }));
    const fileId = reserved.id;
    const a = dataOf<{ id: string; tagName: string; tagType: string }>(await post("/api/cloudstorage/tag/create", { tagName: "Invoice" }));
    const b = dataOf<{ id: string }>(await post("/api/cloudstorage/tag/create", { tagName: "Invoice" }));
    assert.notEqual(a.id, b.id, "names are not checked for duplicates");
    assert.deepEqual(
      dataOf<{ id: string }[]>(await get("/api/cloudstorage/tag/all")).map((t) => t.id),
      [a.id, b.id],
    );

    dataOf(await post("/api/cloudstorage/file/tag/set", { fileId, tagIds: [a.id] }));
    dataOf(await post("/api/cloudstorage/file/tag/add", { fileId, tagIds: [b.id] }));
    const tagsOf = async () => dataOf<{ fileId: string; tagIds: string[]; tagInfo: { id: string; tagName: string }[] }[]>(await post("/api/cloudstorage/file/tag/query", { fileIds: [fileId] }))[0];
    assert.deepEqual((await tagsOf())?.tagIds, [a.id, b.id]);
    dataOf(await post("/api/cloudstorage/file/tag/set", { fileId, tagIds: [b.id] }));
    assert.deepEqual((await tagsOf())?.tagIds, [b.id]);
    expectError(await post("/api/cloudstorage/file/tag/set", { fileId, tagIds: [] }), 200, 99001);
    assert.equal(dataOf(await post("/api/cloudstorage/tag/edit", { id: b.id, tagName: "Paid" })), true);
    assert.deepEqual(
      (await tagsOf())?.tagInfo.map((t) => t.tagName),
      ["Paid"],
    );
    assert.deepEqual(
      (await page({ tagIds: [b.id] })).dataList.map((f) => f.id),
      [fileId],
    );

    assert.equal(dataOf(await post("/api/cloudstorage/tag/delete/batch", { ids: [b.id] })), true);
    const after = await tagsOf();
    assert.deepEqual([after?.tagIds, after?.tagInfo], [[b.id], []]);
    assert.deepEqual((await page({ fileName: "report" })).dataList[0]?.tagInfo, [null]);
    expectError(await post("/api/cloudstorage/tag/delete/batch", { ids: [b.id] }), 200, 99001);
  });
});

describe("emulator: account, webhook and kernels", () => {
  const { emulator } = useEmulator();
  const { post, get } = api(emulator);

  it("balance in cents, webhook config echoed (HTTPS, not loopback), kernel download installed then already installed", async () => {
    assert.deepEqual(dataOf(await get("/api/balance")), { balance: 12500, remainingDuration: "120", remainingConcurrency: 3 });
    const hook = { callbackUrl: "https://hooks.example.com/morelogin", enabled: true };
    assert.deepEqual(dataOf(await post("/api/webhook/config", hook)), hook);
    expectError(await post("/api/webhook/config", { callbackUrl: "http://hooks.example.com/x", enabled: true }), 200, 99001);
    expectError(await post("/api/webhook/config", { callbackUrl: "https://127.0.0.1/x", enabled: true }), 200, 99001);

    const first = envelopeOf(await post("/api/env/core/download", { Cores: [{ BrowserType: 1, Version: "124" }] }));
    assert.equal(first.code, 0);
    assert.deepEqual(first.data, {
      total: 1,
      succeeded: 1,
      failed: 0,
      results: [{ index: 0, browserType: 1, requestedVersion: "124", resolvedVersion: "124.0", status: "installed", source: "downloaded", msg: "Download successful" }],
    });
    const again = envelopeOf(
      await post("/api/env/core/download", {
        Cores: [
          { BrowserType: 1, Version: "124" },
          { BrowserType: 3, Version: "1" },
        ],
      }),
    );
    assert.equal(again.code, -1, "partly failed");
    const results = (again.data as { results: { status: string; errorCode?: string }[] }).results;
    assert.deepEqual(
      results.map((r) => r.status),
      ["already_installed", "failed"],
    );
    assert.equal(results[1]?.errorCode, "UNSUPPORTED_BROWSER_TYPE");
  });
});
