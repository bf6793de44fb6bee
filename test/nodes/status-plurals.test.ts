import assert from "node:assert/strict";
import { translator } from "../support/catalog";
import { useEmulator } from "../support/emulator";
import { CONFIG_ID, TAB, helper, loadFlow, statusCalls, useNodeRed, configNode, credentialsFor, sendTo } from "../support/node-red";
import { waitUntil } from "../support/wait-until";

/** Every status text that counts something, with the values it is shown with. */
const COUNTED: Array<[string, Record<string, unknown>]> = [
  ["morelogin.status.items", {}],
  ["morelogin.status.itemsCapped", {}],
  ["morelogin.status.itemsPage", { page: 1, pages: 3 }],
  ["morelogin.status.watchProfiles", { time: "12:00:00" }],
  ["morelogin.status.watchPhones", { running: 0, time: "12:00:00" }],
  ["morelogin.status.watchRuns", { time: "12:00:00" }],
];

describe("nodes: status texts follow each language's plural rules", () => {
  it("English says 1 item and 2 items; Chinese, which has no plural, says the same for both", () => {
    const en = translator("en-US");
    const zh = translator("zh-CN");
    assert.equal(en("morelogin.status.items", { count: 1 }), "1 item");
    assert.equal(en("morelogin.status.items", { count: 0 }), "0 items");
    assert.equal(en("morelogin.status.watchProfiles", { count: 1, time: "12:00:00" }), "1 profile running · 12:00:00");
    assert.equal(en("morelogin.status.watchPhones", { count: 1, running: 1, time: "12:00:00" }), "1 of 1 phone running · 12:00:00");
    for (const [key, values] of COUNTED) {
      const one = en(key, { ...values, count: 1 });
      const two = en(key, { ...values, count: 2 });
      assert.doesNotMatch(one, /\b1 (items|profiles|phones|runs)\b/, `${key} for 1: ${one}`);
      assert.match(two, /\b2 (items|profiles|phones|runs)\b|of 2 phones/, `${key} for 2: ${two}`);
      const zhOne = zh(key, { ...values, count: 1 });
      assert.notEqual(zhOne, key, `zh-CN has ${key}`);
      assert.doesNotMatch(zhOne, /[a-z]{3}/, `${key} in Chinese: ${zhOne}`);
      assert.equal(zh(key, { ...values, count: 2 }), zhOne.replace(/\b1\b/, "2"), `${key}: Chinese has one form`);
    }
  });

  describe("in a runtime", () => {
    const { emulator } = useEmulator({ profiles: 3 });
    useNodeRed(emulator);

    it("a list of one profile says 1 item; a watch of one running profile says 1 profile running", async () => {
      const listed = await sendTo(emulator(), { type: "morelogin-list-profiles", pageSize: "1", pageSizeType: "num" }, { payload: "" });
      assert.match(String(statusCalls(listed.node).at(-1)?.text), /^1 item, page 1\/3$/);
      await helper.unload();

      const envId = emulator().data.profiles[0]?.id;
      assert.ok(envId);
      await fetch(`${emulator().localUrl}/api/env/start`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ envId }) });
      await loadFlow(
        [{ id: TAB, type: "tab" }, configNode(emulator(), { localRpm: "0" }), { id: "watch1", z: TAB, type: "morelogin-watch", server: CONFIG_ID, watch: "profiles", interval: "2", wires: [[]] }],
        credentialsFor(emulator()),
      );
      const watch = helper.getNode("watch1");
      await waitUntil(() => statusCalls(watch).some((status) => status.fill === "green"), "the watch's first poll");
      assert.match(String(statusCalls(watch).find((status) => status.fill === "green")?.text), /^1 profile running · \d\d:\d\d:\d\d$/);
    });
  });
});
