import assert from "node:assert/strict";
import { CONFIG_ID, credentialsFor, flowWith, helper, loadFlow, useNodeRed } from "../support/node-red";
import { useEmulator } from "../support/emulator";
import { call, dataOf } from "../support/http";

interface CatalogueItem {
  id: string;
  name: string;
  detail?: string;
}

const TOKEN = "catalogue-local-token-7714";

/** The createAdvanced settings pickers: `morelogin/catalogue/<list>`, fed by the desktop client's catalogues. */
describe("nodes: the settings pickers' catalogues (admin endpoints)", () => {
  const { emulator } = useEmulator({ profiles: 2, localToken: TOKEN });
  useNodeRed(emulator);
  beforeEach(async () => {
    await loadFlow(flowWith(emulator(), { type: "morelogin-list-tags" }), credentialsFor(emulator()));
  });
  const post = (path: string, body: object) => helper.request().post(path).send(body).set("content-type", "application/json");
  const items = async (list: string, body: object = {}): Promise<CatalogueItem[]> => {
    const response = await post(`/morelogin/catalogue/${list}`, { id: CONFIG_ID, ...body });
    assert.equal(response.status, 200, JSON.stringify(response.body));
    assert.doesNotMatch(JSON.stringify(response.body), new RegExp(TOKEN));
    return response.body.items as CatalogueItem[];
  };
  const local = async <T>(path: string, body: unknown): Promise<T> => dataOf<T>(await call(emulator().localUrl, path, { body, headers: { Authorization: TOKEN } }));

  it("time zones and languages of the OS the settings name, each its catalogue ID and value; typed text filters", async () => {
    const base = await local<{ time_zone_list: Array<{ id: string; value: string }>; language_list: Array<{ id: string; value: string }> }>("/api/env/base/list", { os: 2 });
    assert.deepEqual(
      await items("timeZones", { os: 2 }),
      base.time_zone_list.map((zone) => ({ id: zone.id, name: zone.value })),
    );
    assert.deepEqual(
      await items("languages", { os: 2, q: "DE-" }),
      base.language_list.filter((language) => language.value.includes("de-")).map((language) => ({ id: language.id, name: language.value })),
    );
    const asked = emulator()
      .requestLog.filter((request) => request.path === "/api/env/base/list")
      .map((request) => request.body);
    assert.deepEqual(asked, [{ os: 2 }, { os: 2 }, { os: 2 }], "the test's own read, then one a picker");
  });

  it("resolutions by OS and user agent, kernels as <browser>:<version>, sites as <platform>:<site>, mobile devices of a phone OS", async () => {
    const resolutions = await items("resolutions", { os: 3, ua: "Mozilla/5.0 (Linux; Android 14)" });
    assert.deepEqual(
      resolutions,
      (await local<Array<{ id: string; value: string }>>("/api/env/base/resolution/list", { os: 3 })).map((resolution) => ({ id: resolution.id, name: resolution.value })),
    );
    assert.deepEqual(emulator().requestLog.find((request) => request.path === "/api/env/base/resolution/list")?.body, { os: 3, ua: "Mozilla/5.0 (Linux; Android 14)" });
    const kernels = await items("kernels");
    assert.ok(kernels.some((kernel) => kernel.id === "1:142" && kernel.name === "Chrome 142"));
    assert.ok(kernels.some((kernel) => kernel.id === "2:144" && kernel.name === "Firefox 144"));
    const sites = await items("sites", { q: "amazon.de" });
    assert.equal(sites.length, 1);
    assert.match(sites[0]?.id ?? "", /^\d{19}:\d{19}$/);
    assert.match(sites[0]?.name ?? "", /^Amazon · amazon\.de$/);
    const phones = await items("mobileDevices", { os: 4 });
    assert.ok(phones.length > 0 && phones.every((phone) => /iPhone/.test(phone.name)));
  });

  it("serves only its catalogues", async () => {
    for (const list of ["constructor", "toString", "groups", "secrets"]) {
      assert.equal((await post(`/morelogin/catalogue/${list}`, { id: CONFIG_ID })).status, 404, list);
    }
  });
});
