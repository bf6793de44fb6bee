import assert from "node:assert/strict";
import type { NodeMessage } from "node-red";
import type { Profile } from "../../src/emulator";
import { Collector, credentialsFor, flowWith, helper, loadFlow, ownStatusCalls, type Msg, useNodeRed } from "../support/node-red";
import { useEmulator } from "../support/emulator";
import { call, dataOf, type PageShape } from "../support/http";
import { NO_PACING, UNSAFE_ID, assertInfo, assertNothingSent, failed, onlyBodyAt, refused, requestsAt, run, succeeded } from "../support/outcome";
import { startWiretap } from "../support/wiretap";

const PROFILE = "morelogin-profile";

describe("nodes: profile (create, update, delete and the other profile actions)", () => {
  const { emulator } = useEmulator({ profiles: 40 });
  const local = async <T = Record<string, unknown>>(path: string, body: unknown): Promise<T> => dataOf<T>(await call(emulator().localUrl, path, { body }));
  /** Each test takes its own seeded profiles, so no test depends on another's. */
  const taken = new Set<string>();
  const freshProfile = (): Profile => {
    const profile = emulator().data.profiles.find((p) => p.envName.startsWith("Profile ") && !taken.has(p.id));
    assert.ok(profile, "a free profile");
    taken.add(profile.id);
    return profile;
  };
  const profileNamed = (envId: string): Profile | undefined => emulator().data.profiles.find((profile) => profile.id === envId);
  /** The profiles the Local API lists now (the list a user sees). */
  const listed = async (): Promise<string[]> => (await local<PageShape<Profile>>("/api/env/page", { pageNo: 1, pageSize: 100 })).dataList.map((profile) => profile.id);

  useNodeRed(emulator);

  it("create makes one profile in the node's group, which then appears in the list; msg.topic is its ID", async () => {
    const group = emulator().data.groups[1];
    assert.ok(group);
    const msg = succeeded(await run(emulator(), { type: PROFILE, action: "create", groupId: group.id, groupIdType: "str" }, { payload: 1_700_000_000_000, topic: "in" }));
    assert.deepEqual(onlyBodyAt(emulator(), "/api/env/create/quick"), { groupId: group.id, browserTypeId: 1, operatorSystemId: 1, quantity: 1 });
    const ids = msg.payload as string[];
    assert.equal(ids.length, 1);
    const [envId] = ids;
    assert.ok(envId);
    assert.match(envId, /^\d{19}$/);
    assert.equal(msg.topic, envId);
    assertInfo(msg, { api: "local", path: "/api/env/create/quick" });
    assert.ok((await listed()).includes(envId), "the new profile is listed");
    assert.equal(profileNamed(envId)?.groupId, group.id);
  });

  it("create takes the API's own fields from msg.payload, such as quantity, and replies every new ID", async () => {
    const before = await listed();
    const msg = succeeded(await run(emulator(), { type: PROFILE, action: "create" }, { payload: { quantity: 2, operatorSystemId: 2 }, topic: "in" }));
    assert.deepEqual(onlyBodyAt(emulator(), "/api/env/create/quick"), { quantity: 2, operatorSystemId: 2, browserTypeId: 1 });
    const ids = msg.payload as string[];
    assert.equal(ids.length, 2);
    assert.equal(msg.topic, "in", "two profiles: msg.topic is left as it was");
    const after = await listed();
    assert.deepEqual(
      after.filter((id) => !before.includes(id)),
      ids,
    );
    assert.equal(((await local("/api/env/detail", { envId: ids[0] })) as { operatorSystemId: number }).operatorSystemId, 2);
  });

  it("update sends the node's name, remark, group and proxy, and the profile shows them", async () => {
    const profile = freshProfile();
    const group = emulator().data.groups.find((g) => g.id !== profile.groupId);
    const proxy = emulator().data.proxies.find((p) => p.id !== profile.proxyId);
    assert.ok(group && proxy);
    const node = { type: PROFILE, action: "update", envId: profile.id, envIdType: "str", envName: "Renamed by a test", envRemark: "a remark", groupId: group.id, proxyId: proxy.id };
    const msg = succeeded(await run(emulator(), node, { payload: "" }));
    assert.deepEqual(onlyBodyAt(emulator(), "/api/env/update"), { envId: profile.id, envName: "Renamed by a test", envRemark: "a remark", groupId: group.id, proxyId: proxy.id });
    assert.equal(msg.payload, null);
    assert.equal(msg.topic, profile.id);
    assertInfo(msg, { api: "local", path: "/api/env/update" });
    const now = await local<Profile>("/api/env/detail", { envId: profile.id });
    assert.deepEqual(
      { envName: now.envName, envRemark: now.envRemark, groupId: now.groupId, groupName: now.groupName, proxyId: now.proxyId },
      { envName: "Renamed by a test", envRemark: "a remark", groupId: group.id, groupName: group.groupName, proxyId: proxy.id },
    );
  });

  it("detail replies the emulator's detail of the profile named by msg.payload", async () => {
    const profile = freshProfile();
    const msg = succeeded(await run(emulator(), { type: PROFILE, action: "detail", envId: "", envIdType: "str" }, { payload: profile.id }));
    assert.deepEqual(onlyBodyAt(emulator(), "/api/env/detail"), { envId: profile.id });
    assert.deepEqual(msg.payload, await local("/api/env/detail", { envId: profile.id }));
    assert.equal((msg.payload as { id: string }).id, profile.id);
    assert.equal(msg.topic, profile.id);
    assertInfo(msg, { api: "local", path: "/api/env/detail" });
  });

  it("detail falls back to the profile the message carries when msg.payload is a string that is not an ID, and keeps it on the message", async () => {
    const profile = freshProfile();
    const carried = { envId: profile.id, debugPort: "9222", cdpUrl: "http://127.0.0.1:9222" };
    const msg = succeeded(
      await run(emulator(), { type: PROFILE, action: "detail", envId: "", envIdType: "str" }, { payload: "Example Domain", morelogin: { api: "local", path: "/api/env/start", profile: carried } }),
    );
    assert.deepEqual(onlyBodyAt(emulator(), "/api/env/detail"), { envId: profile.id });
    assert.equal(msg.topic, profile.id);
    assertInfo(msg, { api: "local", path: "/api/env/detail", profile: carried });
  });

  it("a node with no action saved does detail, its default", async () => {
    const profile = freshProfile();
    succeeded(await run(emulator(), { type: PROFILE, envId: profile.id }, { payload: "" }));
    assert.deepEqual(onlyBodyAt(emulator(), "/api/env/detail"), { envId: profile.id });
  });

  it("refreshFingerprint sends the profile, with msg.payload's fields, and the detail shows the new fingerprint", async () => {
    const profile = freshProfile();
    const msg = succeeded(await run(emulator(), { type: PROFILE, action: "refreshFingerprint", envId: profile.id, envIdType: "str" }, { payload: { uaVersion: 131 } }));
    assert.deepEqual(onlyBodyAt(emulator(), "/api/env/fingerprint/refresh"), { envId: profile.id, uaVersion: 131 });
    assert.equal(msg.payload, null);
    assert.equal(msg.topic, profile.id);
    assert.equal((await local<{ uaVersion: number }>("/api/env/detail", { envId: profile.id })).uaVersion, 131);
  });

  it("clearCache sends the ticked kinds, and refuses before sending when none is ticked", async () => {
    const profile = freshProfile();
    const msg = succeeded(await run(emulator(), { type: PROFILE, action: "clearCache", envId: profile.id, localStorage: true, cookie: true }, { payload: "" }));
    assert.deepEqual(onlyBodyAt(emulator(), "/api/env/removeLocalCache"), { envId: profile.id, localStorage: true, cookie: true });
    assert.deepEqual(msg.payload, { envId: profile.id });
    assertInfo(msg, { api: "local", path: "/api/env/removeLocalCache" });
    await helper.unload();
    emulator().resetStats();
    refused(
      await run(emulator(), { type: PROFILE, action: "clearCache", envId: profile.id }, { payload: "" }),
      /^profile failed: nothing to clear: tick at least one of localStorage, indexedDB, cookie, extension, extensionFile$/,
    );
    assertNothingSent(emulator());
  });

  it("setGroup moves the profiles an array payload names into the group of that name", async () => {
    const profiles = [freshProfile(), freshProfile()];
    const ids = profiles.map((profile) => profile.id);
    const msg = succeeded(await run(emulator(), { type: PROFILE, action: "setGroup", groupName: "Moved by a test" }, { payload: ids, topic: "in" }));
    assert.deepEqual(onlyBodyAt(emulator(), "/api/env/setGroup/batch"), { groupName: "Moved by a test", envIds: ids });
    assert.equal(msg.payload, true);
    assert.equal(msg.topic, "in");
    assertInfo(msg, { api: "local", path: "/api/env/setGroup/batch" });
    const group = emulator().data.groups.find((g) => g.groupName === "Moved by a test");
    assert.ok(group, "the group was made");
    for (const id of ids) assert.deepEqual({ groupId: profileNamed(id)?.groupId, groupName: profileNamed(id)?.groupName }, { groupId: group.id, groupName: "Moved by a test" });
  });

  it("setProxy gives the profile the node names the proxy", async () => {
    const profile = freshProfile();
    const proxy = emulator().data.proxies.find((p) => p.id !== profile.proxyId);
    assert.ok(proxy);
    const msg = succeeded(await run(emulator(), { type: PROFILE, action: "setProxy", envId: profile.id, envIdType: "str", proxyId: proxy.id, proxyIdType: "str" }, { payload: "" }));
    assert.deepEqual(onlyBodyAt(emulator(), "/api/env/setProxy/batch"), { proxy: { proxyId: proxy.id }, envIds: [profile.id] });
    assert.equal(msg.topic, profile.id, "one profile: msg.topic is its ID");
    assert.equal(profileNamed(profile.id)?.proxyId, proxy.id);
    assert.deepEqual(profileNamed(profile.id)?.proxy, proxy);
  });

  it("setRemark takes the array of profiles that list profiles (all pages) sends", async () => {
    const doomed = [freshProfile(), freshProfile(), freshProfile()];
    for (const [i, profile] of doomed.entries()) await local("/api/env/update", { envId: profile.id, envName: `Remark target ${i}` });
    const remarked = await chainFromList({ type: "morelogin-list-profiles", envName: "Remark target", all: true }, { type: PROFILE, action: "setRemark", envRemark: "remarked via a list" });
    const ids = doomed.map((profile) => profile.id);
    assert.deepEqual(onlyBodyAt(emulator(), "/api/env/setRemark/batch"), { envRemark: "remarked via a list", envIds: ids });
    assert.equal(remarked.payload, true);
    for (const id of ids) assert.equal(profileNamed(id)?.envRemark, "remarked via a list");
  });

  it('setRemark with msg.payload.envRemark "" clears the remark, as the spec says', async () => {
    const profile = freshProfile();
    await local("/api/env/setRemark/batch", { envIds: [profile.id], envRemark: "to be cleared" });
    emulator().resetStats();
    succeeded(await run(emulator(), { type: PROFILE, action: "setRemark", envId: profile.id, envIdType: "str" }, { payload: { envRemark: "" } }));
    assert.deepEqual(onlyBodyAt(emulator(), "/api/env/setRemark/batch"), { envIds: [profile.id], envRemark: "" });
    assert.equal(profileNamed(profile.id)?.envRemark, null);
  });

  it("setRemark also takes one page of list profiles (its dataList)", async () => {
    const targets = [freshProfile(), freshProfile()];
    for (const [i, profile] of targets.entries()) await local("/api/env/update", { envId: profile.id, envName: `Page target ${i}` });
    await chainFromList({ type: "morelogin-list-profiles", envName: "Page target" }, { type: PROFILE, action: "setRemark", envRemark: "remarked via a page" });
    const ids = targets.map((profile) => profile.id);
    assert.deepEqual(onlyBodyAt(emulator(), "/api/env/setRemark/batch"), { envRemark: "remarked via a page", envIds: ids });
    for (const id of ids) assert.equal(profileNamed(id)?.envRemark, "remarked via a page");
  });

  it("delete moves one profile (the node's) to the recycle bin: it is no longer listed", async () => {
    const profile = freshProfile();
    const msg = succeeded(await run(emulator(), { type: PROFILE, action: "delete", envId: profile.id, envIdType: "str", removeEnvData: true }, { payload: "" }));
    assert.deepEqual(onlyBodyAt(emulator(), "/api/env/removeToRecycleBin/batch"), { removeEnvData: true, envIds: [profile.id] });
    assert.equal(msg.payload, true);
    assert.equal(msg.topic, profile.id);
    assertInfo(msg, { api: "local", path: "/api/env/removeToRecycleBin/batch" });
    assert.equal((await listed()).includes(profile.id), false);
  });

  it("delete takes an array of IDs in msg.payload, which wins over the node's", async () => {
    const kept = freshProfile();
    const doomed = [freshProfile(), freshProfile()];
    const ids = doomed.map((profile) => profile.id);
    succeeded(await run(emulator(), { type: PROFILE, action: "delete", envId: kept.id, envIdType: "str" }, { payload: ids }));
    assert.deepEqual(onlyBodyAt(emulator(), "/api/env/removeToRecycleBin/batch"), { envIds: ids });
    const now = await listed();
    assert.deepEqual(
      ids.filter((id) => now.includes(id)),
      [],
    );
    assert.ok(now.includes(kept.id));
  });

  it("delete takes the profiles list profiles sends", async () => {
    const doomed = [freshProfile(), freshProfile()];
    for (const [i, profile] of doomed.entries()) await local("/api/env/update", { envId: profile.id, envName: `Doomed ${i}` });
    await chainFromList({ type: "morelogin-list-profiles", envName: "Doomed", all: true }, { type: PROFILE, action: "delete" });
    const ids = doomed.map((profile) => profile.id);
    assert.deepEqual(onlyBodyAt(emulator(), "/api/env/removeToRecycleBin/batch"), { envIds: ids });
    const now = await listed();
    assert.deepEqual(
      ids.filter((id) => now.includes(id)),
      [],
    );
  });

  it("closeAll closes every running profile", async () => {
    for (const profile of [freshProfile(), freshProfile()]) await local("/api/env/start", { envId: profile.id });
    assert.equal(emulator().running().length, 2);
    emulator().resetStats();
    const msg = succeeded(await run(emulator(), { type: PROFILE, action: "closeAll" }, { payload: "", topic: "in" }));
    assert.deepEqual(onlyBodyAt(emulator(), "/api/env/closeAll"), {});
    assert.deepEqual(emulator().running(), []);
    assert.equal(msg.topic, "in");
    assertInfo(msg, { api: "local", path: "/api/env/closeAll" });
  });

  /** The status text the node under test showed last. */
  const lastStatus = (): string | undefined => ownStatusCalls(helper.getNode("n1")).at(-1)?.text;

  it("lockStatus replies {envId, locked} for the profile msg.payload names, and its status says whether the lock is on", async () => {
    const profile = freshProfile();
    const open = succeeded(await run(emulator(), { type: PROFILE, action: "lockStatus" }, { payload: profile.id }));
    assert.deepEqual(onlyBodyAt(emulator(), "/api/env/lock/query"), { envId: profile.id });
    assert.deepEqual(open.payload, { envId: profile.id, locked: false });
    assert.equal(open.topic, profile.id);
    assertInfo(open, { api: "local", path: "/api/env/lock/query" });
    assert.equal(lastStatus(), "not locked");
    await helper.unload();
    assert.ok(emulator().happen.profileLocks(profile.id));
    try {
      const locked = succeeded(await run(emulator(), { type: PROFILE, action: "lockStatus", envId: profile.id, envIdType: "str" }, { payload: "" }));
      assert.deepEqual(locked.payload, { envId: profile.id, locked: true });
      assert.equal(lastStatus(), "locked");
    } finally {
      emulator().happen.profileUnlocks(profile.id);
    }
  });

  it("ua sends the node's OS, OS version and browser as the spec's numbers, and replies {ua, resolution} from beside the reply's null data", async () => {
    const body = { os: 2, osVersion: "macOS 14", vendor: 2 };
    const msg = succeeded(await run(emulator(), { type: PROFILE, action: "ua", os: "2", osVersion: "macOS 14", osVersionType: "str", vendor: "2" }, { payload: "", topic: "in" }));
    assert.deepEqual(onlyBodyAt(emulator(), "/api/env/advanced/ua/get"), body);
    const reply = (await call(emulator().localUrl, "/api/env/advanced/ua/get", { body })).json as Record<string, unknown>;
    assert.equal(reply.data, null);
    assert.deepEqual(msg.payload, { ua: reply.ua, resolution: reply.resolution });
    assert.match(String(reply.ua), /Macintosh.*Firefox/);
    assert.equal(msg.topic, "in");
    assertInfo(msg, { api: "local", path: "/api/env/advanced/ua/get" });
  });

  it("ua asks for Chrome on Windows when the node chose nothing, and msg.payload's os and vendor win", async () => {
    succeeded(await run(emulator(), { type: PROFILE, action: "ua" }, { payload: "" }));
    assert.deepEqual(onlyBodyAt(emulator(), "/api/env/advanced/ua/get"), { os: 1, vendor: 1 });
    await helper.unload();
    emulator().resetStats();
    const msg = succeeded(await run(emulator(), { type: PROFILE, action: "ua", os: "1", vendor: "1" }, { payload: { os: "3", vendor: 1 } }));
    assert.deepEqual(onlyBodyAt(emulator(), "/api/env/advanced/ua/get"), { os: 3, vendor: 1 });
    assert.match(String((msg.payload as { ua: string }).ua), /Android/);
  });

  it("screens replies the screens of the desktop client's machine", async () => {
    const msg = succeeded(await run(emulator(), { type: PROFILE, action: "screens" }, { payload: "", topic: "in" }));
    assert.deepEqual(onlyBodyAt(emulator(), "/api/env/getAllScreen"), {});
    const screens = await local<unknown[]>("/api/env/getAllScreen", {});
    assert.equal(screens.length, 1);
    assert.deepEqual(msg.payload, screens);
    assert.equal(msg.topic, "in");
    assertInfo(msg, { api: "local", path: "/api/env/getAllScreen" });
    assert.equal(lastStatus(), "screens: 1");
  });

  it("processes replies each open profile with its serial number, name and pid", async () => {
    const profile = freshProfile();
    await local("/api/env/start", { envId: profile.id });
    emulator().resetStats();
    try {
      const msg = succeeded(await run(emulator(), { type: PROFILE, action: "processes" }, { payload: "" }));
      assert.deepEqual(onlyBodyAt(emulator(), "/api/env/getAllProcessIds"), {});
      const rows = msg.payload as Array<{ envId: string; uniqueId: number; envName: string; pid: number }>;
      assert.deepEqual(
        rows.map((row) => [row.envId, row.envName]),
        [[profile.id, profile.envName]],
      );
      assert.ok(Number.isInteger(rows[0]?.uniqueId) && Number.isInteger(rows[0]?.pid), JSON.stringify(rows));
      assertInfo(msg, { api: "local", path: "/api/env/getAllProcessIds" });
      assert.equal(lastStatus(), "open: 1");
    } finally {
      await local("/api/env/close", { envId: profile.id });
    }
  });

  it("arrangeWindows stacks the profiles msg.payload names on the node's screens", async () => {
    const ids = [freshProfile().id, freshProfile().id];
    const node = { type: PROFILE, action: "arrangeWindows", arrangeType: "stack", screenIds: "2528732444", screenIdsType: "str" };
    const msg = succeeded(await run(emulator(), node, { payload: ids, topic: "in" }));
    assert.deepEqual(onlyBodyAt(emulator(), "/api/env/arrangeWindows"), { arrangeType: 2, envIds: ids, screenIds: [2528732444] });
    assert.equal(msg.payload, null);
    assert.equal(msg.topic, "in");
    assertInfo(msg, { api: "local", path: "/api/env/arrangeWindows" });
  });

  it("arrangeWindows naming no profile tiles every window (the default); an object payload names one and changes the arrangement and screens", async () => {
    succeeded(await run(emulator(), { type: PROFILE, action: "arrangeWindows" }, { payload: 1_700_000_000_000 }));
    assert.deepEqual(onlyBodyAt(emulator(), "/api/env/arrangeWindows"), { arrangeType: 1 });
    await helper.unload();
    emulator().resetStats();
    const profile = freshProfile();
    const msg = succeeded(await run(emulator(), { type: PROFILE, action: "arrangeWindows", arrangeType: "tile" }, { payload: { envId: profile.id, arrangeType: "stack", screenIds: ["2528732444"] } }));
    assert.deepEqual(onlyBodyAt(emulator(), "/api/env/arrangeWindows"), { arrangeType: 2, envIds: [profile.id], screenIds: [2528732444] });
    assert.equal(msg.topic, profile.id);
  });

  describe("bad input, refused before anything is sent", () => {
    const cases: Array<[string, Record<string, unknown>, Record<string, unknown>, RegExp]> = [
      ["an unknown action", { action: "bogus", envId: "1990000000000000001" }, { payload: "" }, /^profile failed: unknown action "bogus": use one of create, update, delete, detail, /],
      ["detail with no profile", { action: "detail", envId: "", envIdType: "str" }, { payload: "Example Domain" }, /^profile failed: msg.payload "Example Domain" is not a profile ID/],
      [
        "delete with no profile",
        { action: "delete", envId: "", envIdType: "str" },
        { payload: "" },
        /^profile failed: no profile given: set the profile ID in the node, or send msg.payload as an ID, an array of IDs/,
      ],
      [
        "a 64-bit ID given as a number",
        { action: "delete", envId: "", envIdType: "str" },
        { payload: [UNSAFE_ID] },
        /^profile failed: msg.payload\[0\] 1993244721490239500 is not a safe integer: pass MoreLogin IDs as strings/,
      ],
      ["a 64-bit ID in an object payload", { action: "detail" }, { payload: { envId: UNSAFE_ID } }, /^profile failed: envId 1993244721490239500 is not a safe integer/],
      ["setGroup without groupName", { action: "setGroup", envId: "1990000000000000001" }, { payload: "" }, /^profile failed: groupName is missing$/],
      [
        "setRemark without envRemark",
        { action: "setRemark", envId: "1990000000000000001" },
        { payload: "" },
        /^profile failed: setRemark needs the remark: set it in the node, or send msg.payload.envRemark \("" clears it\)$/,
      ],
      ["setProxy without proxyId", { action: "setProxy", envId: "1990000000000000001" }, { payload: "" }, /^profile failed: proxy is missing$/],
      ["lockStatus with no profile", { action: "lockStatus", envId: "", envIdType: "str" }, { payload: "" }, /^profile failed: no profile given: set the profile ID in the node/],
      ["ua with an OS MoreLogin does not have", { action: "ua" }, { payload: { os: 9 } }, /^profile failed: os must be 1 \(Windows\), 2 \(macOS\), 3 \(Android\) or 4 \(iOS\), not 9$/],
      ["ua with a browser named instead of numbered", { action: "ua" }, { payload: { vendor: "chrome" } }, /^profile failed: vendor must be 1 \(Chrome\) or 2 \(Firefox\), not "chrome"$/],
      [
        "arrangeWindows with an arrangement MoreLogin does not have",
        { action: "arrangeWindows", envId: "1990000000000000001" },
        { payload: { arrangeType: "diagonal" } },
        /^profile failed: arrangeType must be tile or stack \(1 or 2\), not "diagonal"$/,
      ],
      [
        "arrangeWindows with a screen that is not an ID",
        { action: "arrangeWindows", screenIds: "main", screenIdsType: "str" },
        { payload: "" },
        /^profile failed: screenIds must hold screen IDs as list screens gives them \(whole numbers\), not "main"$/,
      ],
    ];
    for (const [what, node, input, text] of cases) {
      it(what, async () => {
        refused(await run(emulator(), { type: PROFILE, ...node }, input), text);
        assertNothingSent(emulator());
      });
    }
  });

  it("a create whose reply was lost is not sent again: one profile made, the message fails once", async () => {
    const tap = await startWiretap(emulator().localUrl, () => true, { loseAnswer: (path) => path === "/api/env/create/quick" });
    try {
      const before = emulator().data.profiles.length;
      const { text, error } = failed(await run(emulator(), { type: PROFILE, action: "create" }, { payload: "" }, { config: { localUrl: tap.url } }));
      assert.equal(error.kind, "network", text);
      assert.match(text, /^profile failed: /);
      assert.equal(requestsAt(emulator(), "/api/env/create/quick").length, 1, "one create reached the emulator");
      assert.deepEqual(
        tap.requests.map((request) => `${request.path} ${request.status}`),
        ["/api/env/create/quick lost"],
      );
      assert.equal(emulator().data.profiles.length, before + 1, "it ran once");
    } finally {
      await tap.close();
    }
  });

  /** list -> the profile node under test -> out; returns the profile node's one message. */
  async function chainFromList(list: Record<string, unknown>, profileNode: Record<string, unknown>): Promise<Msg> {
    const flow = flowWith(emulator(), { ...list, wires: [["p1"]] }, NO_PACING);
    flow.push({ id: "p1", z: "tab1", type: profileNode.type as string, server: "config1", wires: [["done"]], ...profileNode }, { id: "done", z: "tab1", type: "helper" });
    await loadFlow(flow, credentialsFor(emulator()));
    const done = new Collector("done");
    const caught = new Collector("caught");
    helper.getNode("n1").receive({ payload: "" } as NodeMessage);
    const [msg] = (await done.next(1, 60_000)) as Msg[];
    assert.deepEqual(caught.messages, []);
    assert.ok(msg);
    return msg;
  }
});
