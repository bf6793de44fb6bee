import assert from "node:assert/strict";
import { addConfigNode, dragFromPalette, openNode, ourErrors, untilEditorAtRest, deployUntilFlowsHold } from "./editor-session";
import { useEditorSession } from "./use-editor-session";
import { waitUntil } from "../support/wait-until";

describe("editor: create with settings, its pickers fed by MoreLogin and its account secrets, in chromium", function () {
  this.timeout(180_000);

  const session = useEditorSession("create with settings in the editor", "provision-");

  it("picks a time zone of the settings' OS and a site into the settings JSON; the account secrets are credentials, in no flow", async () => {
    const { page, nodeRed, emulator } = session();
    const password = "e2e-account-pa55";
    const otp = "E2EOTPSECRETBASE32";
    const id = await dragFromPalette(page, "morelogin-profile", "profile", 420, 160);
    await openNode(page, id);
    await addConfigNode(page, emulator);
    await page.locator("#node-config-dialog-ok").click();
    await page.locator("#node-config-input-localUrl").waitFor({ state: "detached" });
    await untilEditorAtRest(page);
    await page.locator("#node-input-action").selectOption("createAdvanced");
    const settings = async (): Promise<Record<string, unknown>> => JSON.parse(await page.locator("#node-input-settings").inputValue()) as Record<string, unknown>;
    assert.deepEqual(await settings(), { browserTypeId: 1, operatorSystemId: 1 }, "a new node's settings");
    await page.evaluate(() => {
      const jq = (window as unknown as { $: (selector: string) => { typedInput: (method: string, value: string) => void } }).$;
      jq("#node-input-settings").typedInput("value", '{"browserTypeId": 1, "operatorSystemId": 2}');
    });

    const pick = async (list: string, text: string): Promise<void> => {
      await page.locator("#node-input-settings-pick-list").selectOption(list);
      const field = page.locator("#node-input-settings-pick");
      await field.click();
      await field.pressSequentially(text);
      const option = page.locator(".red-ui-autoComplete-container .morelogin-picker-option", { hasText: text });
      await option.first().waitFor({ state: "visible" });
      await option.first().click();
    };
    await pick("timeZones", "Europe/Berlin");
    const zones = (await (
      await fetch(`${emulator.localUrl}/api/env/base/list`, { method: "POST", headers: { "content-type": "application/json", authorization: "e2e-local-token" }, body: '{"os": 2}' })
    ).json()) as { data: { time_zone_list: Array<{ id: string; value: string }> } };
    const berlin = zones.data.time_zone_list.find((zone) => zone.value === "Europe/Berlin");
    assert.ok(berlin);
    await waitUntil(settings, (value) => JSON.stringify(value).includes(berlin.id), "the time zone in the settings");
    assert.deepEqual((await settings()).advancedSetting, { time_zone: { switcher: 2, value: berlin.id } });
    assert.ok(
      emulator.requestLog.some((request) => request.path === "/api/env/base/list" && JSON.stringify(request.body) === '{"os":2}'),
      "asked for the settings' OS",
    );
    await pick("sites", "amazon.de");
    await waitUntil(settings, (value) => value.accountInfo !== undefined, "the site in the settings");
    const account = (await settings()).accountInfo as { platformId: string; siteId: string };
    assert.match(`${account.platformId}:${account.siteId}`, /^\d{19}:\d{19}$/);

    await page.locator("#node-input-accountPassword").fill(password);
    await page.locator("#node-input-otpSecret").fill(otp);
    assert.equal(await page.locator("#node-input-accountPassword").getAttribute("type"), "password");
    await page.locator("#node-dialog-ok").click();
    await page.locator("#node-dialog-ok").waitFor({ state: "detached" });
    await untilEditorAtRest(page);
    const flows = await deployUntilFlowsHold(page, nodeRed, id, "the profile node");
    assert.ok(flows.includes(berlin.id), "the flow holds the settings");
    assert.ok(!flows.includes(password) && !flows.includes(otp), "the flow holds neither secret");
    const credentials = (await (await fetch(`${nodeRed.url}/credentials/morelogin-profile/${id}`)).json()) as Record<string, unknown>;
    assert.deepEqual(credentials, { has_accountPassword: true, has_otpSecret: true });
  });

  it("a cloud phone node's Model picker lists the SKU's models by name and stores the model ID as a number; Brand stores the brand's name", async () => {
    const { page, emulator } = session();
    const id = await dragFromPalette(page, "morelogin-cloud-phone", "cloud phone", 420, 320);
    await openNode(page, id);
    if ((await page.locator("#node-input-server").inputValue()) === "_ADD_") {
      await addConfigNode(page, emulator);
      await page.locator("#node-config-dialog-ok").click();
      await page.locator("#node-config-input-localUrl").waitFor({ state: "detached" });
      await untilEditorAtRest(page);
    }
    await page.locator("#node-input-action").selectOption("create");
    const typed = (name: string) => page.locator(`#node-input-${name} + .red-ui-typedInput-container input.red-ui-typedInput-input`);
    await typed("skuId").fill("10013");
    const listed = (await (
      await fetch(`${emulator.localUrl}/api/cloudphone/brand/models`, { method: "POST", headers: { "content-type": "application/json", authorization: "e2e-local-token" }, body: '{"skuId": "10013"}' })
    ).json()) as { data: Array<{ brand: string; model: string; modelId: number }> };
    const chosen = listed.data.at(-1);
    assert.ok(chosen);
    const pick = async (field: string, text: string, shown: string): Promise<void> => {
      await typed(field).click();
      await typed(field).pressSequentially(text);
      const option = page.locator(".red-ui-autoComplete-container .morelogin-picker-option", { hasText: shown });
      await option.first().waitFor({ state: "visible" });
      await option.first().click();
    };
    await pick("modelId", chosen.model.slice(0, 4), chosen.model);
    assert.equal(await page.locator("#node-input-modelId").inputValue(), String(chosen.modelId));
    assert.equal(await page.locator("#node-input-modelIdType").inputValue(), "num", "the model ID stays a number");
    await pick("brand", chosen.brand.slice(0, 3), chosen.brand);
    assert.equal(await page.locator("#node-input-brand").inputValue(), chosen.brand);
    await page.locator("#node-dialog-ok").click();
    await page.locator("#node-dialog-ok").waitFor({ state: "detached" });
    await untilEditorAtRest(page);
    const saved = await page.evaluate((nodeId) => {
      const node = (window as unknown as { RED: { nodes: { node: (id: string) => Record<string, unknown> } } }).RED.nodes.node(nodeId);
      return { modelId: node.modelId, modelIdType: node.modelIdType, brand: node.brand, valid: node.valid };
    }, id);
    assert.deepEqual(saved, { modelId: String(chosen.modelId), modelIdType: "num", brand: chosen.brand, valid: true });
  });

  it("the editor logged no errors from the MoreLogin nodes, and no uncaught page error", () => {
    assert.deepEqual(ourErrors(session().errors), []);
    assert.deepEqual(
      session().errors.filter((error) => error.startsWith("page error")),
      [],
    );
  });
});
