import assert from "node:assert/strict";
import { DEFAULT_RETRY } from "../../src/client/retry";
import { CONFIG_ID, credentialsFor, flowWith, helper, loadFlow, useNodeRed } from "../support/node-red";
import { useEmulator } from "../support/emulator";
import { call, dataOf } from "../support/http";
import { startStubApi } from "../support/stub-api";

interface PickerItem {
  id: string;
  name: string;
  detail?: string;
}

const TOKEN = "admin-local-token-4821";
const API_KEY = "admin-api-key-6605";

describe("nodes: editor pickers and connection test (admin endpoints)", () => {
  const { emulator } = useEmulator({ profiles: 30, localToken: TOKEN, apiKey: API_KEY });
  useNodeRed(emulator);
  beforeEach(async () => {
    await loadFlow(flowWith(emulator(), { type: "morelogin-list-tags" }), credentialsFor(emulator()));
  });

  const post = (path: string, body: object) => helper.request().post(path).send(body).set("content-type", "application/json");

  it("lists profiles by name for a deployed config node, with IDs as strings and no credentials", async () => {
    const response = await post("/morelogin/pick/profiles", { id: CONFIG_ID, q: "Profile 01" });
    assert.equal(response.status, 200);
    const expected = emulator().data.profiles.filter((profile) => profile.envName.toLowerCase().includes("profile 01"));
    assert.ok(expected.length > 0);
    assert.deepEqual(
      response.body.items.map((item: { id: string; name: string }) => [item.id, item.name]),
      expected.map((profile) => [profile.id, profile.envName]),
    );
    assert.doesNotMatch(JSON.stringify(response.body), new RegExp(`${TOKEN}|${emulator().credentials.apiKey}`));
  });

  it("lists groups; the lists no dialog asks for are not served", async () => {
    const groups = await post("/morelogin/pick/groups", { id: CONFIG_ID });
    assert.deepEqual(
      groups.body.items.map((item: { id: string }) => item.id),
      emulator().data.groups.map((group) => group.id),
    );
    for (const path of ["/morelogin/pick/cloud-phones", "/morelogin/pick/apps", "/morelogin/tags", "/morelogin/pick/constructor", "/morelogin/pick/toString"]) {
      assert.equal((await post(path, { id: CONFIG_ID })).status, 404, path);
    }
    assert.equal(emulator().requestLog.filter((request) => request.path !== "/api/envgroup/page").length, 0);
  });

  it("lists proxies with host and port as detail, and tags filtered by the typed text (MoreLogin serves tags whole)", async () => {
    const proxies = await post("/morelogin/pick/proxies", { id: CONFIG_ID });
    assert.deepEqual(
      proxies.body.items.map((item: { id: string; name: string }) => [item.id, item.name]),
      emulator().data.proxies.map((proxy) => [proxy.id, proxy.proxyName]),
    );
    const withHost = emulator().data.proxies.find((proxy) => proxy.proxyIp !== "");
    assert.equal(proxies.body.items.find((item: { id: string }) => item.id === withHost?.id)?.detail, `${withHost?.proxyIp}:${withHost?.proxyPort}`);
    const tag = emulator().data.tags[1];
    assert.ok(tag);
    const tags = await post("/morelogin/pick/tags", { id: CONFIG_ID, q: tag.tagName.toUpperCase() });
    assert.deepEqual(
      tags.body.items.map((item: { id: string }) => item.id),
      emulator()
        .data.tags.filter((t) => t.tagName.toLowerCase().includes(tag.tagName.toLowerCase()))
        .map((t) => t.id),
    );
  });

  it("lists cloud phones with their group as detail, and filters them by the typed text", async () => {
    const phones = emulator().data.cloudPhones;
    const asItem = (phone: (typeof phones)[number]): PickerItem => ({ id: phone.id, name: phone.envName, ...(phone.groupName ? { detail: phone.groupName } : {}) });
    assert.ok(
      phones.some((phone) => phone.groupName === null),
      "a phone without a group, to show no detail",
    );
    const all = await post("/morelogin/pick/phones", { id: CONFIG_ID });
    assert.equal(all.status, 200);
    assert.deepEqual(all.body, { items: phones.map(asItem), truncated: false });

    emulator().resetStats();
    const typed = await post("/morelogin/pick/phones", { id: CONFIG_ID, q: " phone 01 " });
    const expected = phones.filter((phone) => phone.envName.toLowerCase().includes("phone 01"));
    assert.ok(expected.length > 1 && expected.length < phones.length);
    assert.deepEqual(typed.body.items, expected.map(asItem));
    assert.deepEqual(
      emulator().requestLog.map((request) => [request.path, (request.body as { keyword?: unknown }).keyword]),
      [["/api/cloudphone/page", "phone 01"]],
    );
  });

  it("suggests a SKU's brands and models for the phone node: a model by its numeric ID, a new device's by its phone's SKU, and says what is missing", async () => {
    const listed = async (skuId: string): Promise<Array<{ brand: string; model: string; modelId: number }>> =>
      dataOf<Array<{ brand: string; model: string; modelId: number }>>(await call(emulator().localUrl, "/api/cloudphone/brand/models", { body: { skuId }, headers: { Authorization: TOKEN } }));
    const ofSku = await listed("10002");
    const brandNames = [...new Set(ofSku.map((row) => row.brand))];
    assert.ok(brandNames.length > 1 && brandNames.length < ofSku.length, "a SKU with several brands, one of them with several models");
    const brands = await post("/morelogin/pick/phoneBrands", { id: CONFIG_ID, skuId: "10002" });
    assert.equal(brands.status, 200);
    assert.deepEqual(brands.body, {
      items: brandNames.map((brand) => ({
        id: brand,
        name: brand,
        detail: ofSku
          .filter((row) => row.brand === brand)
          .map((row) => row.model)
          .join(", "),
      })),
      truncated: false,
    });
    const models = await post("/morelogin/pick/phoneModels", { id: CONFIG_ID, skuId: "10002" });
    assert.deepEqual(models.body, { items: ofSku.map((row) => ({ id: String(row.modelId), name: row.model, detail: row.brand })), truncated: false });
    const typed = await post("/morelogin/pick/phoneModels", { id: CONFIG_ID, skuId: "10002", q: ofSku[1]?.model.toLowerCase() });
    assert.deepEqual(
      typed.body.items.map((item: PickerItem) => item.id),
      [String(ofSku[1]?.modelId)],
    );

    // One-click new device names no SKU: the phone's own SKU, on the node's API.
    const skuOf = async (id: string): Promise<string> => dataOf<{ skuId: string }>(await call(emulator().localUrl, "/api/cloudphone/info", { body: { id }, headers: { Authorization: TOKEN } })).skuId;
    const skus = await Promise.all(emulator().data.cloudPhones.map(async (candidate) => ({ id: candidate.id, skuId: await skuOf(candidate.id) })));
    const phone = skus.find((candidate) => candidate.skuId !== "10002");
    assert.ok(phone, "a phone of another SKU than the one above");
    const ofPhoneSku = await listed(phone.skuId);
    emulator().resetStats();
    const forPhone = await post("/morelogin/pick/phoneModels", { id: CONFIG_ID, phoneId: phone.id, api: "open" });
    assert.deepEqual(
      forPhone.body.items.map((item: PickerItem) => item.id),
      ofPhoneSku.map((row) => String(row.modelId)),
    );
    assert.deepEqual(
      emulator()
        .requestLog.filter((request) => request.path !== "/oauth2/token")
        .map((request) => [request.api, request.path, request.body]),
      [
        ["open", "/cloudphone/info", { id: phone.id }],
        ["open", "/cloudphone/brand/models", { skuId: phone.skuId }],
      ],
    );
    // A SKU taken from msg or env is unknown to the dialog: nothing is asked.
    emulator().resetStats();
    for (const body of [{ id: CONFIG_ID }, { id: CONFIG_ID, skuId: "${PHONE_SKU}" }, { id: CONFIG_ID, skuId: "" }]) {
      const answer = await post("/morelogin/pick/phoneModels", body);
      assert.deepEqual(answer.body, { items: [], truncated: false, need: "sku" }, JSON.stringify(body));
    }
    assert.deepEqual(emulator().requestLog, []);
  });

  it("says which models MoreLogin listed without a model ID, as its specification's reply does, and still suggests their brands", async () => {
    const stub = await startStubApi();
    try {
      stub.otherwise = {
        body: {
          code: 0,
          msg: "success",
          data: [
            { brand: "samsung", model: "SM-G991B" },
            { brand: "google", model: "Pixel 7", modelId: 31 },
          ],
          requestId: "stub-models",
        },
      };
      const settings = { localUrl: stub.url, openUrl: emulator().openUrl, skuId: "10002" };
      const models = await post("/morelogin/pick/phoneModels", settings);
      assert.equal(models.status, 200);
      assert.deepEqual(models.body, { items: [{ id: "31", name: "Pixel 7", detail: "google" }], truncated: false, withoutId: ["samsung SM-G991B"] });
      const brands = await post("/morelogin/pick/phoneBrands", settings);
      assert.deepEqual(
        brands.body.items.map((item: PickerItem) => item.id),
        ["samsung", "google"],
      );
      assert.deepEqual(
        stub.requests.map((request) => [request.path, JSON.parse(request.body)]),
        [
          ["/api/cloudphone/brand/models", { skuId: "10002" }],
          ["/api/cloudphone/brand/models", { skuId: "10002" }],
        ],
      );
    } finally {
      await stub.close();
    }
  });

  it("lists automation templates, the market's before the team's own, and filters both by the typed text", async () => {
    const templates = async (source: "market" | "personal", searchKey?: string): Promise<PickerItem[]> => {
      const answer = await call(emulator().localUrl, `/api/cloudphone/rpa/template/${source}/page`, {
        body: { pageNo: 1, pageSize: 100, ...(searchKey ? { searchKey } : {}) },
        headers: { Authorization: TOKEN },
      });
      return dataOf<{ dataList: { id: string; title: string }[] }>(answer).dataList.map((template) => ({ id: template.id, name: template.title, detail: source }));
    };
    const market = await templates("market");
    const personal = await templates("personal");
    assert.ok(market.length > 0 && personal.length > 0);
    emulator().resetStats();
    const all = await post("/morelogin/pick/templates", { id: CONFIG_ID });
    assert.equal(all.status, 200);
    assert.deepEqual(all.body, { items: [...market, ...personal], truncated: false });
    assert.deepEqual(
      emulator().requestLog.map((request) => request.path),
      ["/api/cloudphone/rpa/template/market/page", "/api/cloudphone/rpa/template/personal/page"],
    );

    // "app" names one template of each kind: the market's "Open the app store", the team's "Screenshot an app".
    const marketApps = await templates("market", "app");
    const personalApps = await templates("personal", "app");
    assert.ok(marketApps.length > 0 && personalApps.length > 0);
    assert.ok(marketApps.length < market.length && personalApps.length < personal.length);
    emulator().resetStats();
    const typed = await post("/morelogin/pick/templates", { id: CONFIG_ID, q: "APP" });
    assert.deepEqual(typed.body.items, [...marketApps, ...personalApps]);
    assert.deepEqual(
      emulator().requestLog.map((request) => (request.body as { searchKey?: unknown }).searchKey),
      ["APP", "APP"],
    );
  });

  it("works before deploy with the settings the editor posts", async () => {
    const response = await post("/morelogin/pick/groups", {
      localUrl: emulator().localUrl,
      openUrl: emulator().openUrl,
      credentials: { localToken: TOKEN },
    });
    assert.equal(response.status, 200);
    assert.equal(response.body.items.length, emulator().data.groups.length);
  });

  it("uses a stored credential (__PWRD__) only towards the deployed URLs", async () => {
    const same = await post("/morelogin/pick/groups", {
      id: CONFIG_ID,
      localUrl: emulator().localUrl,
      openUrl: emulator().openUrl,
      credentials: { localToken: "__PWRD__", apiKey: "__PWRD__" },
    });
    assert.equal(same.status, 200);
    assert.equal(emulator().requestLog.at(-1)?.headers.authorization, TOKEN);
    emulator().resetStats();
    const elsewhere = await post("/morelogin/pick/groups", {
      id: CONFIG_ID,
      localUrl: "http://127.0.0.1:9",
      openUrl: emulator().openUrl,
      credentials: { localToken: "__PWRD__" },
    });
    assert.equal(elsewhere.status, 400);
    assert.match(elsewhere.body.error, /stored credentials are only used with the URLs they were deployed with/);
    assert.equal(emulator().requestLog.length, 0);
  });

  it("answers failures as JSON with a readable message", async () => {
    const wrongToken = await post("/morelogin/pick/profiles", { localUrl: emulator().localUrl, openUrl: emulator().openUrl, credentials: { localToken: "nope-nope" } });
    assert.equal(wrongToken.status, 502);
    assert.match(wrongToken.body.error, /API authentication failed \(code 35002\)/);
    assert.doesNotMatch(JSON.stringify(wrongToken.body), /nope-nope/);
    const badUrl = await post("/morelogin/pick/profiles", { localUrl: "ftp://x", openUrl: emulator().openUrl });
    assert.equal(badUrl.status, 400);
    assert.match(badUrl.body.error, /Local API URL must start with http/);
    const unknown = await post("/morelogin/pick/secrets", { id: CONFIG_ID });
    assert.equal(unknown.status, 404);
  });

  it("never shows a credential the API repeats, in a picker's error or the connection test", async () => {
    // The emulator's echo fault answers with an error whose msg repeats the request as received.
    emulator().script({ kind: "echo", api: "local", path: "/api/env/page" });
    const deployed = await post("/morelogin/pick/profiles", { id: CONFIG_ID });
    assert.equal(deployed.status, 502);
    assert.match(deployed.body.error, /echo of POST \/api\/env\/page: headers .*"authorization":"\*\*\*"/);
    emulator().script({ kind: "echo", api: "local", path: "/api/env/page" });
    const typed = await post("/morelogin/pick/profiles", { localUrl: emulator().localUrl, openUrl: emulator().openUrl, credentials: { localToken: "typed-in-token-3318" } });
    assert.equal(typed.status, 502);
    assert.match(typed.body.error, /"authorization":"\*\*\*"/);
    emulator().script({ kind: "echo", api: "local", path: "/api/env/page" });
    // A token request that fails is tried again: every attempt gets the echo.
    emulator().script({ kind: "echo", api: "open", path: "/oauth2/token", times: DEFAULT_RETRY.attempts });
    const tested = await post("/morelogin/test", { id: CONFIG_ID });
    assert.match(tested.body.local.message, /^Local API: echo of POST \/api\/env\/page: headers .*"authorization":"\*\*\*"/);
    assert.match(tested.body.open.message, /^Open API: Open API token request failed: echo of POST \/oauth2\/token: .*"client_secret":"\*\*\*"/);
    for (const response of [deployed, typed, tested]) {
      assert.doesNotMatch(JSON.stringify(response.body), new RegExp(`${TOKEN}|typed-in-token-3318|${API_KEY}`));
    }
  });

  it("refuses settings that are not text with 400 before anything is sent", async () => {
    for (const [body, text] of [
      [{ id: CONFIG_ID, localUrl: 5 }, /^localUrl must be a string$/],
      [{ id: ["x"] }, /^id must be a string$/],
      [{ id: CONFIG_ID, credentials: "__PWRD__" }, /^credentials must be an object$/],
      [{ id: CONFIG_ID, credentials: { apiKey: { $: 1 } } }, /^credentials\.apiKey must be a string$/],
    ] as const) {
      const response = await post("/morelogin/test", body);
      assert.equal(response.status, 400, JSON.stringify(body));
      assert.match(response.body.error, text);
    }
    assert.equal(emulator().requestLog.length, 0);
  });

  it("tests the connection: Local API, then the Open API when credentials are set", async () => {
    const ok = await post("/morelogin/test", { id: CONFIG_ID });
    assert.equal(ok.status, 200);
    assert.deepEqual(ok.body.local, { ok: true, message: "Local API reachable: 30 profiles" });
    assert.deepEqual(ok.body.open, { ok: true, message: "Open API: signed in with the API ID and API Key" });
    const noOpen = await post("/morelogin/test", { localUrl: emulator().localUrl, openUrl: emulator().openUrl, credentials: { localToken: TOKEN } });
    assert.equal(noOpen.body.open.ok, null);
    const down = await post("/morelogin/test", { localUrl: "http://127.0.0.1:9", openUrl: emulator().openUrl, credentials: { apiId: "x", apiKey: "y" } });
    assert.equal(down.body.local.ok, false);
    assert.match(down.body.local.message, /^Local API: cannot reach the Local API at http:\/\/127\.0\.0\.1:9 \(ECONNREFUSED\)/);
    assert.equal(down.body.open.ok, false);
    assert.match(down.body.open.message, /^Open API: Open API token request failed/);
    assert.doesNotMatch(JSON.stringify(down.body), /"y"/);
  });

  it("the connection test shows the team's wallet after a working Local API, and does not read it when the Local API failed", async () => {
    const ok = await post("/morelogin/test", { id: CONFIG_ID });
    assert.deepEqual(ok.body.balance, { ok: true, message: "Balance: 125.00 (12500 cents), remaining duration 120 minutes, remaining concurrency 3" });
    assert.deepEqual(Object.keys(ok.body), ["local", "balance", "open"]);
    const down = await post("/morelogin/test", { localUrl: "http://127.0.0.1:9", openUrl: emulator().openUrl, credentials: { apiId: "x", apiKey: "y" } });
    assert.equal(down.body.balance, undefined);
  });
});
