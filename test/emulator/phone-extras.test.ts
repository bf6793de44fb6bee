import assert from "node:assert/strict";
import { call, dataOf, envelopeOf, expectError } from "../support/http";
import { bearer, useEmulator } from "../support/emulator";
import { phonesOf } from "../support/phones";
import { waitUntil } from "../support/wait-until";

/** Cloud-phone endpoints the official CLI (morelogin-local-api-skill) calls beyond power, apps and ADB. */

const BOOT_MS = 100;
/** A boot, reset or provisioning that does not end during a test: the states in between. */
const HELD_MS = 600_000;

describe("emulator: cloud phone screen, ROOT and live streaming", () => {
  const { emulator } = useEmulator({ cloudPhones: 12, phoneBootMs: BOOT_MS });
  const { local: post, phoneIn } = phonesOf(emulator);

  it("touch gestures answer finish on a running phone and 33301 on one that is off; points must be [x, y]", async () => {
    const id = phoneIn(4);
    for (const [path, body] of [
      ["/touch/click", { pos: [540, 960] }],
      ["/touch/doubleClick", { pos: [540, 960] }],
      ["/touch/longClick", { pos: [540, 960], duration: 2000 }],
      ["/touch/swipe", { pos1: [540, 1500], pos2: [540, 500], duration: 300 }],
      ["/touch/drag", { pos1: [200, 500], pos2: [800, 500] }],
    ] as const) {
      const envelope = envelopeOf(await post(path, { id, ...body }));
      assert.deepEqual([envelope.code, envelope.msg, envelope.data], [0, "success", { status: "finish" }], path);
    }
    expectError(await post("/touch/click", { id, pos: [1] }), 200, 99001);
    expectError(await post("/touch/longClick", { id, pos: [1, 2], duration: 60_001 }), 200, 99001);
    expectError(await post("/touch/click", { id: phoneIn(2), pos: [1, 2] }), 200, 33301);
  });

  it("screenCap gives a data: URL of a PNG with a one-hour expiry; enableRoot and app/openRoot need a running phone", async () => {
    const id = phoneIn(4);
    const shot = dataOf<{ url: string; status: string; expireAt: string; success: boolean }>(await post("/screenCap", { id }));
    assert.ok(shot.url.startsWith("data:image/png;base64,"));
    assert.deepEqual([shot.status, shot.success], ["finish", true]);
    assert.ok(Number(shot.expireAt) > Date.now());
    assert.equal(dataOf(await post("/enableRoot", { id, enableRoot: true })), null);
    assert.equal(dataOf(await post("/app/openRoot", { id, packageNames: ["com.example"] })), true);
    expectError(await post("/enableRoot", { id }), 200, 99001);
    expectError(await post("/app/openRoot", { id: phoneIn(2), packageNames: ["com.example"] }), 200, 33301);
  });

  it("live: start needs an uploaded MP4 from cloud storage, streams (1) after the boot time, end stops it (0)", async () => {
    const id = phoneIn(4);
    const local = (path: string, body: unknown) => call(emulator().localUrl, path, { body });
    const [reserved] = dataOf<{ id: string; presignedUrl: string }[]>(await local("/api/cloudstorage/upload/init", { fileNames: ["stream.mp4"] }));
    assert.ok(reserved);
    expectError(await post("/live/start", { phoneId: id, fileId: reserved.id }), 200, 99001);
    await fetch(reserved.presignedUrl, { method: "PUT", body: "mp4" });
    dataOf(await local("/api/cloudstorage/upload/complete", { id: reserved.id }));
    assert.equal(dataOf(await post("/live/start", { phoneId: id, fileId: reserved.id })), true);
    const live = await waitUntil(
      async () => dataOf<{ liveStatus: number; writeFileId: string | null }>(await post("/live/status", { phoneId: id })),
      (value) => value.liveStatus === 1,
      "the phone streams",
      15_000,
    );
    assert.equal(live.writeFileId, reserved.id);
    assert.equal(dataOf(await post("/live/end", { phoneId: id })), true);
    assert.equal(dataOf<{ liveStatus: number }>(await post("/live/status", { phoneId: id })).liveStatus, 0);
    expectError(await post("/live/status", { phoneId: "1234567890123456" }), 200, 33300);
  });
});

describe("emulator: creating, resetting, re-proxying and finding cloud phones", () => {
  const { emulator } = useEmulator({ cloudPhones: 12, phoneBootMs: BOOT_MS });
  const { local: post, listed, reaches, phoneIn } = phonesOf(emulator);
  const { emulator: heldEmulator } = useEmulator({ cloudPhones: 12, phoneBootMs: HELD_MS });
  const held = phonesOf(heldEmulator);

  it("create lists new phones (0), powered off (2) once provisioned; a monthly SKU's phones are unactivated until monthly/activate charges the wallet", async () => {
    const [pending] = dataOf<string[]>(await held.local("/create", { skuId: "10002", quantity: 1 }));
    assert.ok(pending);
    assert.equal(await held.status(pending), 0);
    expectError(await held.local("/powerOn", { id: pending }), 200, 100);

    const ids = dataOf<string[]>(await post("/create", { skuId: "10015", quantity: 2, envRemark: "monthly" }));
    assert.equal(ids.length, 2);
    const [first, second] = ids as [string, string];
    assert.equal((await listed(first))?.envRemark, "monthly");
    await reaches(first, 2);
    assert.deepEqual([(await listed(first))?.billingType, (await listed(first))?.abnormalStatus], [2, 1]);

    const skus = dataOf<{ skuId: string; prices: { price: number }[] }[]>(await call(emulator().localUrl, "/api/cloudphone/monthly/skus", { method: "GET" }));
    assert.deepEqual(
      skus.map((sku) => sku.skuId),
      ["10015"],
    );
    const balance = async () => dataOf<{ balance: number }>(await call(emulator().localUrl, "/api/balance", { method: "GET" })).balance;
    const before = await balance();
    const activated = dataOf<{ orderStatus: number; results: { id: string; status: string }[] }>(await post("/monthly/activate", { ids }));
    assert.deepEqual(
      activated.results.map((r) => [r.id, r.status]),
      [
        [first, "ACTIVATED"],
        [second, "ACTIVATED"],
      ],
    );
    assert.equal(await balance(), before - 2 * (skus[0]?.prices[0]?.price ?? 0));
    assert.equal((await listed(second))?.abnormalStatus, 0);
    dataOf(await post("/monthly/activate", { ids: [first] }));
    assert.equal(await balance(), before - 5000, "an active phone is restored without a charge");
    expectError(await post("/monthly/activate", { ids: [phoneIn(2)] }), 200, 99001);
    expectError(await post("/create", { skuId: "10002", quantity: 11 }), 200, 99001);
  });

  it("create takes a brand and modelId that brand/models lists for the SKU, and the phone reports them; any other is refused (99001) on both APIs, creating nothing", async () => {
    type Listed = { brand: string; model: string; modelId: number };
    const models = dataOf<Listed[]>(await post("/brand/models", { skuId: "10005" }));
    const [first] = models;
    const chosen = models.find((model) => model.brand !== first?.brand);
    assert.ok(first && chosen, "brand/models lists two brands for the SKU");
    const [id] = dataOf<string[]>(await post("/create", { skuId: "10005", quantity: 1, brand: chosen.brand, modelId: chosen.modelId }));
    assert.ok(id);
    await reaches(id, 2);
    dataOf(await post("/powerOn", { id }));
    await reaches(id, 4);
    const shell = async (command: string): Promise<string> => dataOf<string>(await post("/exeCommand", { id, command }));
    assert.deepEqual([await shell("getprop ro.product.brand"), await shell("getprop ro.product.model")], [chosen.brand, chosen.model]);

    const count = emulator().data.cloudPhones.length;
    const refusal = (detail: string) =>
      `Request parameter error: ${detail} that brand/models lists for skuId 10005 (${models.map((model) => `${model.modelId} ${model.brand} ${model.model}`).join(", ")})`;
    const brands = [...new Set(models.map((model) => model.brand))].join(", ");
    expectError(
      await post("/create", { skuId: "10005", quantity: 1, brand: "Nokia", modelId: 999 }),
      200,
      99001,
      `Request parameter error: brand Nokia is not one that brand/models lists for skuId 10005 (${brands})`,
    );
    expectError(await post("/create", { skuId: "10005", quantity: 1, modelId: 999 }), 200, 99001, refusal("modelId 999 is not one"));
    const mismatched = await post("/create", { skuId: "10005", quantity: 1, brand: first.brand, modelId: chosen.modelId });
    expectError(mismatched, 200, 99001);
    assert.match(String(envelopeOf(mismatched).msg), new RegExp(`modelId ${chosen.modelId} is not a ${first.brand} model`));
    const open = await call(emulator().openUrl, "/cloudphone/create", { body: { skuId: "10005", quantity: 1, brand: "Nokia", modelId: 999 }, headers: await bearer(emulator()) });
    expectError(open, 200, 99001);
    assert.equal(emulator().data.cloudPhones.length, count, "no refused create made a phone");
  });

  it("reset works on a running phone: resetting (5), then on (4) with no apps installed; power-off waits (33331); an off phone answers 33301", async () => {
    const resetting = held.phoneIn(4);
    assert.equal(dataOf(await held.local("/reset", { id: resetting })), null);
    assert.equal(await held.status(resetting), 5);
    expectError(await held.local("/powerOff", { id: resetting }), 200, 33331);

    const id = phoneIn(4);
    dataOf(await post("/reset", { id }));
    await reaches(id, 4);
    assert.deepEqual(dataOf(await post("/app/installedList", { id })), []);
    expectError(await post("/reset", { id: phoneIn(2) }), 200, 33301);
  });

  it("setProxy binds a proxy by ID or by details (added to the proxy list when new); queryByAndroidId finds a phone; the team app library is empty", async () => {
    const [id, other] = [phoneIn(2), phoneIn(4)];
    const proxy = emulator().data.proxies.find((p) => p.id !== (emulator().data.cloudPhones.find((c) => c.id === id)?.proxy?.id ?? ""));
    assert.ok(proxy);
    assert.equal(dataOf(await post("/setProxy", { ids: [id], proxy: { proxyId: proxy.id, proxyIp: proxy.proxyIp, proxyPort: 1, proxyProvider: 0 } })), null);
    assert.equal((await listed(id))?.proxy?.id, proxy.id);
    const proxies = emulator().data.proxies.length;
    dataOf(await post("/setProxy", { ids: [other], proxy: { proxyIp: "203.0.113.7", proxyPort: 8080, proxyProvider: 2 } }));
    assert.equal(emulator().data.proxies.length, proxies + 1, "a new proxy record");
    assert.equal((await listed(other))?.proxy?.proxyIp, "203.0.113.7");
    expectError(await post("/setProxy", { ids: ["1234567890123456"], proxy: { proxyId: proxy.id } }), 200, 33300);

    const androidId = (await listed(id))?.androidId ?? "";
    assert.equal(dataOf<{ id: string }>(await post("/queryByAndroidId", { androidId })).id, id);
    assert.equal(dataOf(await post("/queryByAndroidId", { androidId: "" })), null);
    assert.deepEqual(dataOf(await post("/team/app/page", { pageNo: 1, pageSize: 10 })), { total: "0", current: "1", pages: "0", dataList: [] });
  });
  it('edit/batch changes only the fields sent (proxyId "0" unbinds), all or none; brand/models lists the SKU\'s devices; setHideAccessibilityApp checks its phones', async () => {
    const [id, other] = [phoneIn(2), phoneIn(2)];
    const before = await listed(other);
    const group = emulator().data.groups[0];
    assert.ok(group && before);
    assert.equal(dataOf(await post("/edit/batch", { id: [id, other], envRemark: "edited", groupId: group.id, proxyId: "0" })), null);
    const after = await listed(other);
    assert.deepEqual([after?.envRemark, after?.groupId, after?.groupName, after?.proxy, after?.envName], ["edited", group.id, group.groupName, null, before.envName]);
    dataOf(await post("/edit/batch", { id: [id], envName: "Renamed" }));
    assert.equal((await listed(id))?.envName, "Renamed");
    expectError(await post("/edit/batch", { id: [id, "1234567890123456"], envName: "Never" }), 200, 33300);
    assert.equal((await listed(id))?.envName, "Renamed", "nothing changed");

    assert.deepEqual(dataOf(await post("/brand/models", { skuId: "10002" })), [
      { brand: "samsung", model: "SM-G991B", modelId: 1 },
      { brand: "samsung", model: "SM-A525F", modelId: 2 },
      { brand: "Xiaomi", model: "M2101K6G", modelId: 3 },
    ]);
    assert.deepEqual(dataOf(await post("/brand/models", { skuId: "1" })), []);
    assert.equal(dataOf(await post("/app/setHideAccessibilityApp", { ids: [id], packageName: ["*"] })), true);
    expectError(await post("/app/setHideAccessibilityApp", { ids: ["1234567890123456"], packageName: ["*"] }), 200, 33300);
  });

  it("delete/batch: a phone never activated leaves the list, an active one is powered off and stays, deactivated (4); it stops at the first unknown phone", async () => {
    const [unactivated] = dataOf<string[]>(await post("/create", { skuId: "10015", quantity: 1 }));
    assert.ok(unactivated);
    const [running, later] = [phoneIn(4), phoneIn(2)];
    assert.equal(dataOf(await post("/delete/batch", { ids: [unactivated, running] })), null);
    assert.equal(await listed(unactivated), undefined);
    expectError(await post("/info", { id: unactivated }), 200, 33300);
    const kept = await listed(running);
    assert.deepEqual([kept?.envStatus, kept?.abnormalStatus], [2, 4]);
    expectError(await post("/delete/batch", { ids: ["1234567890123456", later] }), 200, 33300);
    assert.equal((await listed(later))?.abnormalStatus, 0, "not reached");
  });
});
