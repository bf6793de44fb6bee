import assert from "node:assert/strict";
import type { NodeMessage } from "node-red";
import type { App, CloudPhone, Emulator } from "../../src/emulator";
import { deviceOfSku } from "../../src/emulator/phone-state";
import { solidPng } from "../../src/emulator/png";
import { Collector, credentialsFor, flowWith, helper, loadFlow, type Msg, ownStatusCalls, useNodeRed } from "../support/node-red";
import { clearFaults, useEmulator } from "../support/emulator";
import { call, dataOf } from "../support/http";
import { waitUntil } from "../support/wait-until";
import { NO_PACING, UNSAFE_ID, assertInfo, assertNothingSent, failed, onlyBodyAt, redeployWhilePolling, refused, requestsAt, run, succeeded } from "../support/outcome";
import { startWiretap } from "../support/wiretap";

const PHONE = "morelogin-cloud-phone";
const OFF = 2;
const BOOTING = 3;
const ON = 4;
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Takes seeded phones for one test each, so no test depends on another's. */
function phoneTaker(emulator: () => Emulator): (where: (phone: CloudPhone) => boolean) => CloudPhone {
  const taken = new Set<string>();
  return (where) => {
    const phone = emulator().data.cloudPhones.find((p) => !taken.has(p.id) && where(p));
    assert.ok(phone, "a free phone in the state the test needs");
    taken.add(phone.id);
    return phone;
  };
}

describe("nodes: cloud phone", () => {
  const { emulator } = useEmulator({ cloudPhones: 40, phoneBootMs: 300, appInstallMs: 100 });
  const take = phoneTaker(emulator);
  const local = async <T = Record<string, unknown>>(path: string, body: unknown): Promise<T> => dataOf<T>(await call(emulator().localUrl, `/api/cloudphone${path}`, { body }));
  const info = (id: string) => local<Record<string, unknown> & { envStatus: number; skuId: string }>("/info", { id });
  const installed = async (id: string): Promise<string[]> => (await local<Array<{ packageName: string }>>("/app/installedList", { id })).map((app) => app.packageName);

  useNodeRed(emulator, clearFaults);

  describe("info", () => {
    it("replies the emulator's detail of the phone the node names (Local API)", async () => {
      const phone = take(() => true);
      const msg = succeeded(await run(emulator(), { type: PHONE, action: "info", phoneId: phone.id, phoneIdType: "str" }, { payload: 1_700_000_000_000 }));
      assert.deepEqual(onlyBodyAt(emulator(), "/api/cloudphone/info"), { id: phone.id });
      assert.deepEqual(msg.payload, await info(phone.id));
      assert.equal(msg.topic, phone.id);
      assertInfo(msg, { api: "local", path: "/api/cloudphone/info" });
    });

    it("over the Open API, with the config node's API ID and key", async () => {
      const phone = take(() => true);
      const msg = succeeded(await run(emulator(), { type: PHONE, api: "open", action: "info" }, { payload: phone.id }));
      assert.deepEqual(onlyBodyAt(emulator(), "/cloudphone/info"), { id: phone.id });
      assert.equal(emulator().stats.tokensGranted, 1);
      assert.deepEqual(msg.payload, await info(phone.id));
      assert.equal(msg.topic, phone.id);
      assertInfo(msg, { api: "open", path: "/cloudphone/info" });
    });

    it("takes a phone item from list cloud phones, sending only its ID, and keeps the started profile the message carries", async () => {
      const phone = take(() => true);
      const carried = { envId: "1990000000000000001", debugPort: "9222", cdpUrl: "http://127.0.0.1:9222" };
      const msg = succeeded(await run(emulator(), { type: PHONE, action: "info" }, { payload: { ...phone }, morelogin: { api: "local", path: "/api/env/start", profile: carried } }));
      assert.deepEqual(onlyBodyAt(emulator(), "/api/cloudphone/info"), { id: phone.id });
      assert.equal(msg.topic, phone.id);
      assertInfo(msg, { api: "local", path: "/api/cloudphone/info", profile: carried });
    });
  });

  describe("power", () => {
    it("powerOn without wait replies when the API accepts; the phone then boots (3) and runs (4)", async () => {
      const phone = take((p) => p.envStatus === OFF);
      const msg = succeeded(await run(emulator(), { type: PHONE, action: "powerOn", phoneId: phone.id }, { payload: "" }));
      assert.deepEqual(onlyBodyAt(emulator(), "/api/cloudphone/powerOn"), { id: phone.id });
      assert.equal(msg.payload, null);
      assert.equal(msg.topic, phone.id);
      assertInfo(msg, { api: "local", path: "/api/cloudphone/powerOn" });
      assert.equal(requestsAt(emulator(), "/api/cloudphone/info").length, 0, "no wait: no status polls");
      assert.ok([BOOTING, ON].includes(phone.envStatus), `envStatus ${phone.envStatus}`);
      await waitUntil(() => phone.envStatus === ON, "the phone runs");
    });

    it("powerOn with wait over the Open API polls info until the phone runs, and replies its info", async () => {
      const phone = take((p) => p.envStatus === OFF);
      const msg = succeeded(await run(emulator(), { type: PHONE, api: "open", action: "powerOn", phoneId: phone.id, wait: true }, { payload: "" }));
      assert.deepEqual(onlyBodyAt(emulator(), "/cloudphone/powerOn"), { id: phone.id });
      assert.equal(phone.envStatus, ON);
      assert.equal((msg.payload as { envStatus: number }).envStatus, ON);
      assert.deepEqual(msg.payload, await info(phone.id));
      const polls = requestsAt(emulator(), "/cloudphone/info");
      assert.ok(polls.length >= 1);
      assert.ok(polls.every((entry) => JSON.stringify(entry.body) === JSON.stringify({ id: phone.id })));
      assert.equal(msg.topic, phone.id);
      assertInfo(msg, { api: "open", path: "/cloudphone/powerOn" });
    });

    it("powerOff with wait replies the stopped phone's info", async () => {
      const phone = take((p) => p.envStatus === ON);
      const msg = succeeded(await run(emulator(), { type: PHONE, action: "powerOff", wait: true }, { payload: phone.id }));
      assert.deepEqual(onlyBodyAt(emulator(), "/api/cloudphone/powerOff"), { id: phone.id });
      assert.equal(phone.envStatus, OFF);
      assert.equal((msg.payload as { envStatus: number }).envStatus, OFF);
      assertInfo(msg, { api: "local", path: "/api/cloudphone/powerOff" });
    });

    it("powerOff over the Open API", async () => {
      const phone = take((p) => p.envStatus === ON);
      const msg = succeeded(await run(emulator(), { type: PHONE, api: "open", action: "powerOff", phoneId: phone.id }, { payload: "" }));
      assert.deepEqual(onlyBodyAt(emulator(), "/cloudphone/powerOff"), { id: phone.id });
      assert.equal(phone.envStatus, OFF);
      assertInfo(msg, { api: "open", path: "/cloudphone/powerOff" });
    });
  });

  describe("ADB", () => {
    it("enableAdb turns ADB on, and adbInfo then shows the phone's ADB details", async () => {
      const phone = take((p) => p.envStatus === ON && !p.enableAdb);
      const enabled = succeeded(await run(emulator(), { type: PHONE, action: "enableAdb", phoneId: phone.id }, { payload: "" }));
      assert.deepEqual(onlyBodyAt(emulator(), "/api/cloudphone/updateAdb"), { ids: [phone.id], enableAdb: true });
      assert.equal(enabled.topic, phone.id);
      assertInfo(enabled, { api: "local", path: "/api/cloudphone/updateAdb" });
      assert.equal(phone.enableAdb, true);
      await helper.unload();

      const msg = succeeded(await run(emulator(), { type: PHONE, action: "adbInfo" }, { payload: phone.id }));
      assert.deepEqual(onlyBodyAt(emulator(), "/api/cloudphone/batchAdbInfo"), { envIds: [phone.id] });
      const [row] = await local<unknown[]>("/batchAdbInfo", { envIds: [phone.id] });
      assert.deepEqual(msg.payload, row, "one phone asked for: its row");
      const adb = msg.payload as { enableAdb: boolean; adbIp: string; adbPort: string; remark: unknown };
      assert.equal(adb.enableAdb, true);
      assert.match(adb.adbIp, /^192\.0\.2\.\d+$/);
      assert.equal(adb.remark, null);
      assert.equal(msg.topic, phone.id);
      assertInfo(msg, { api: "local", path: "/api/cloudphone/batchAdbInfo" });
    });

    it("disableAdb over the Open API takes an array of phone IDs", async () => {
      const phones = [take((p) => p.enableAdb), take((p) => p.enableAdb)];
      const ids = phones.map((phone) => phone.id);
      const msg = succeeded(await run(emulator(), { type: PHONE, api: "open", action: "disableAdb" }, { payload: ids, topic: "in" }));
      assert.deepEqual(onlyBodyAt(emulator(), "/cloudphone/updateAdb"), { ids, enableAdb: false });
      assert.deepEqual(
        phones.map((phone) => phone.enableAdb),
        [false, false],
      );
      assert.equal(msg.topic, "in", "two phones: msg.topic is left as it was");
      assertInfo(msg, { api: "open", path: "/cloudphone/updateAdb" });
    });

    it("adbInfo takes the phones list cloud phones sends, and replies a row per phone in order", async () => {
      const flow = flowWith(emulator(), { type: "morelogin-list-cloud-phones", keyword: "Phone 00", all: true, wires: [["p1"]] }, NO_PACING);
      flow.push({ id: "p1", z: "tab1", type: PHONE, server: "config1", action: "adbInfo", wires: [["done"]] }, { id: "done", z: "tab1", type: "helper" });
      await loadFlow(flow, credentialsFor(emulator()));
      const done = new Collector("done");
      helper.getNode("n1").receive({ payload: "" } as NodeMessage);
      const [msg] = (await done.next(1, 60_000)) as Msg[];
      const ids = emulator()
        .data.cloudPhones.filter((phone) => phone.envName.startsWith("Phone 00"))
        .map((phone) => phone.id);
      assert.equal(ids.length, 9);
      assert.deepEqual(onlyBodyAt(emulator(), "/api/cloudphone/batchAdbInfo"), { envIds: ids });
      assert.deepEqual(
        ((msg?.payload ?? []) as Array<{ id: string }>).map((row) => row.id),
        ids,
      );
    });
  });

  describe("shell", () => {
    it("runs the node's command; getprop ro.product.model is the emulator's model of that phone", async () => {
      const phone = take((p) => p.envStatus === ON);
      const msg = succeeded(await run(emulator(), { type: PHONE, action: "shell", phoneId: phone.id, command: "getprop ro.product.model" }, { payload: "" }));
      assert.deepEqual(onlyBodyAt(emulator(), "/api/cloudphone/exeCommand"), { id: phone.id, command: "getprop ro.product.model" });
      const model = deviceOfSku((await info(phone.id)).skuId)?.model;
      assert.ok(model);
      assert.equal(msg.payload, model);
      assert.equal(msg.topic, phone.id);
      assertInfo(msg, { api: "local", path: "/api/cloudphone/exeCommand" });
    });

    it("over the Open API, msg.payload.command overriding the node's", async () => {
      const phone = take((p) => p.envStatus === ON);
      const msg = succeeded(
        await run(emulator(), { type: PHONE, api: "open", action: "shell", phoneId: phone.id, command: "getprop ro.product.model" }, { payload: { command: "settings get secure android_id" } }),
      );
      assert.deepEqual(onlyBodyAt(emulator(), "/cloudphone/exeCommand"), { command: "settings get secure android_id", id: phone.id });
      assert.equal(msg.payload, phone.androidId);
      assertInfo(msg, { api: "open", path: "/cloudphone/exeCommand" });
    });
  });

  describe("apps", () => {
    const appOf = (index: number): { app: App; versionId: string } => {
      const app = emulator().data.apps[index];
      const versionId = app?.appVersionList[0]?.id;
      assert.ok(app && versionId);
      return { app, versionId };
    };

    it("installApp (Open API) installs the version; it then appears in the phone's installed list", async () => {
      const phone = take((p) => p.envStatus === ON);
      let app = appOf(0);
      for (let i = 1; (await installed(phone.id)).includes(app.app.packageName); i++) app = appOf(i);
      const msg = succeeded(await run(emulator(), { type: PHONE, api: "open", action: "installApp", phoneId: phone.id, appVersionId: app.versionId }, { payload: "" }));
      assert.deepEqual(onlyBodyAt(emulator(), "/cloudphone/app/install"), { id: phone.id, appVersionId: app.versionId });
      assert.equal(msg.payload, true);
      assertInfo(msg, { api: "open", path: "/cloudphone/app/install" });
      await waitUntil(async () => (await installed(phone.id)).includes(app.app.packageName), "the app is in the installed list");
    });

    it("startApp and stopApp start and stop an installed app (Local API)", async () => {
      const phone = take((p) => p.envStatus === ON);
      const { app, versionId } = appOf(3);
      await local("/app/install", { id: phone.id, appVersionId: versionId });
      await waitUntil(async () => (await installed(phone.id)).includes(app.packageName), "the app is installed");
      const pid = async (): Promise<string> => dataOf<string>(await call(emulator().localUrl, "/api/cloudphone/exeCommand", { body: { id: phone.id, command: `pidof ${app.packageName}` } }));
      assert.equal(await pid(), "");
      emulator().resetStats();

      const started = succeeded(await run(emulator(), { type: PHONE, action: "startApp", phoneId: phone.id, packageName: app.packageName }, { payload: "" }));
      assert.deepEqual(onlyBodyAt(emulator(), "/api/cloudphone/app/start"), { id: phone.id, packageName: app.packageName });
      assertInfo(started, { api: "local", path: "/api/cloudphone/app/start" });
      assert.match(await pid(), /^\d+$/, "the app runs");
      await helper.unload();

      const stopped = succeeded(await run(emulator(), { type: PHONE, action: "stopApp", phoneId: phone.id, packageName: app.packageName }, { payload: "" }));
      assert.deepEqual(onlyBodyAt(emulator(), "/api/cloudphone/app/stop"), { id: phone.id, packageName: app.packageName });
      assert.equal(stopped.topic, phone.id);
      assert.equal(await pid(), "", "the app no longer runs");
    });
  });

  it("screenshot replies the screen as a PNG Buffer", async () => {
    const phone = take((p) => p.envStatus === ON);
    const msg = succeeded(await run(emulator(), { type: PHONE, action: "screenshot", phoneId: phone.id }, { payload: "" }));
    assert.deepEqual(onlyBodyAt(emulator(), "/api/cloudphone/screenCapBase64"), { id: phone.id });
    assert.ok(Buffer.isBuffer(msg.payload), "msg.payload is a Buffer");
    const png = msg.payload as Buffer;
    assert.deepEqual(png.subarray(0, 8), PNG_SIGNATURE);
    assert.deepEqual(png, solidPng(90, 160, [32, 33, 36]), "the emulator's screen, byte for byte");
    assert.equal(msg.topic, phone.id);
    assertInfo(msg, { api: "local", path: "/api/cloudphone/screenCapBase64" });
  });

  describe("refused before anything is sent", () => {
    const ID = "1650000000000000001";
    const cases: Array<[string, Record<string, unknown>, Record<string, unknown>, RegExp]> = [
      [
        "restart on the Open API (Local only)",
        { api: "open", action: "restart", phoneId: ID },
        { payload: "" },
        /^cloud phone failed: restart is on the Local API only .*: set the node's API to Local$/,
      ],
      ["adbInfo on the Open API (Local only)", { api: "open", action: "adbInfo", phoneId: ID }, { payload: "" }, /^cloud phone failed: adbInfo is on the Local API only/],
      ["screenshot on the Open API (Local only)", { api: "open", action: "screenshot", phoneId: ID }, { payload: "" }, /^cloud phone failed: screenshot is on the Local API only/],
      ["no phone", { action: "info", phoneId: "" }, { payload: "Example Domain" }, /^cloud phone failed: no cloud phone given: set the phone in the node, or send its ID as msg.payload/],
      ["no phone for a batch action", { action: "enableAdb", phoneId: "" }, { payload: "" }, /^cloud phone failed: no cloud phone given/],
      ["an unknown action", { action: "bogus", phoneId: ID }, { payload: "" }, /^cloud phone failed: unknown action "bogus": use one of powerOn, powerOff, restart, info, /],
      ["a 64-bit ID given as a number", { action: "powerOn" }, { payload: { id: UNSAFE_ID } }, /^cloud phone failed: id 1993244721490239500 is not a safe integer: pass MoreLogin IDs as strings/],
      ["a 64-bit ID in an array", { action: "enableAdb" }, { payload: [ID, UNSAFE_ID] }, /^cloud phone failed: msg.payload\[1\] 1993244721490239500 is not a safe integer/],
      ["a 64-bit ID from msg", { action: "info", phoneId: "phone", phoneIdType: "msg" }, { payload: "", phone: UNSAFE_ID }, /^cloud phone failed: phoneId 1993244721490239500 is not a safe integer/],
      ["shell without a command", { action: "shell", phoneId: ID }, { payload: "" }, /^cloud phone failed: command is missing$/],
      ["startApp without a package", { action: "startApp", phoneId: ID }, { payload: "" }, /^cloud phone failed: packageName is missing$/],
      ["installApp with neither version nor package", { api: "open", action: "installApp", phoneId: ID }, { payload: "" }, /^cloud phone failed: appVersionId or packageName is missing$/],
      ["two phones for a one-phone action", { action: "info", phoneId: `${ID}, 1650000000000000002` }, { payload: "" }, /^cloud phone failed: this action works on one cloud phone/],
    ];
    for (const [what, node, input, text] of cases) {
      it(what, async () => {
        refused(await run(emulator(), { type: PHONE, ...node }, input), text);
        assertNothingSent(emulator());
      });
    }
  });

  it("a powerOn whose connection was reset after the emulator received it is not sent again: the message fails once", async () => {
    const phone = take((p) => p.envStatus === OFF);
    emulator().script({ kind: "reset", path: "/api/cloudphone/powerOn" });
    const { text, error } = failed(await run(emulator(), { type: PHONE, action: "powerOn", phoneId: phone.id, wait: true }, { payload: "" }));
    assert.equal(error.kind, "network", text);
    assert.equal(requestsAt(emulator(), "/api/cloudphone/powerOn").length, 1, "one powerOn reached the emulator");
    assert.equal(requestsAt(emulator(), "/api/cloudphone/info").length, 0, "no wait after a failed power-on");
  });
});

describe("nodes: cloud phone restart, with a restart long enough to be seen", () => {
  // The node counts a restart done only once it has seen the phone away from running; a restart that
  // ended before the first poll (300 ms on a slow machine) would leave it waiting for its timeout.
  const { emulator } = useEmulator({ cloudPhones: 4, phoneBootMs: 4_000 });
  const take = phoneTaker(emulator);

  useNodeRed(emulator);

  it("restart with wait waits until the phone has restarted and runs again", async () => {
    const phone = take((p) => p.envStatus === ON);
    const msg = succeeded(await run(emulator(), { type: PHONE, action: "restart", phoneId: phone.id, wait: true }, { payload: "" }));
    assert.deepEqual(onlyBodyAt(emulator(), "/api/cloudphone/restart"), { id: phone.id });
    assert.equal((msg.payload as { envStatus: number }).envStatus, ON);
    assert.equal(phone.envStatus, ON);
    assert.ok(requestsAt(emulator(), "/api/cloudphone/info").length >= 2, "it saw the phone restarting before it counted it running");
    assertInfo(msg, { api: "local", path: "/api/cloudphone/restart" });
  });
});

describe("nodes: cloud phone, while a phone takes long to boot", () => {
  const { emulator } = useEmulator({ cloudPhones: 12, phoneBootMs: 600_000 });
  const take = phoneTaker(emulator);

  useNodeRed(emulator);

  it("a power-on wait that runs out of time is an error of kind timeout naming the last envStatus seen", async () => {
    const phone = take((p) => p.envStatus === OFF);
    const { text, error } = failed(await run(emulator(), { type: PHONE, action: "powerOn", phoneId: phone.id, wait: true, timeout: "2", timeoutType: "num" }, { payload: "" }));
    assert.equal(text, `cloud phone failed: cloud phone ${phone.id} was not running within 2 s; last envStatus seen: 3 (starting)`);
    assert.equal(error.kind, "timeout");
    assert.equal(requestsAt(emulator(), "/api/cloudphone/powerOn").length, 1);
    assert.ok(requestsAt(emulator(), "/api/cloudphone/info").length >= 2, "it polled before giving up");
  });

  it("a redeploy during a power-on wait ends the message once and stops polling", async () => {
    const phone = take((p) => p.envStatus === OFF);
    const flow = flowWith(emulator(), { type: PHONE, api: "open", action: "powerOn", phoneId: phone.id, wait: true }, NO_PACING);
    const ended = await redeployWhilePolling(emulator(), flow, "/cloudphone/info", "info request");
    assert.deepEqual(ended, ["cloud phone failed: the node was stopped (a deploy or Node-RED shutting down) while the call was in flight"]);
    assert.equal(requestsAt(emulator(), "/cloudphone/powerOn").length, 1);
  });

  for (const api of ["local", "open"] as const) {
    it(`a powerOn (${api} API) whose reply was lost is not sent again: the phone boots once, the message fails once`, async () => {
      const phone = take((p) => p.envStatus === OFF);
      const path = api === "local" ? "/api/cloudphone/powerOn" : "/cloudphone/powerOn";
      const target = api === "local" ? emulator().localUrl : emulator().openUrl;
      const tap = await startWiretap(target, () => true, { loseAnswer: (asked) => asked === path });
      try {
        const config = api === "local" ? { localUrl: tap.url } : { openUrl: tap.url };
        const { text, error } = failed(await run(emulator(), { type: PHONE, api, action: "powerOn", phoneId: phone.id, wait: true }, { payload: "" }, { config }));
        assert.equal(error.kind, "network", text);
        assert.equal(requestsAt(emulator(), path).length, 1, "one powerOn reached the emulator");
        assert.deepEqual(
          tap.requests.filter((request) => request.path === path).map((request) => request.status),
          ["lost"],
        );
        assert.equal(phone.envStatus, BOOTING, "it ran once");
      } finally {
        await tap.close();
      }
    });
  }
});

describe("nodes: cloud phone, the team's account", () => {
  const { emulator } = useEmulator();
  useNodeRed(emulator, clearFaults);

  it("account balance reads the wallet on the Local API, needs no phone, and the status shows it", async () => {
    const msg = succeeded(await run(emulator(), { type: PHONE, action: "balance" }, { payload: 1_700_000_000_000 }));
    assert.equal(requestsAt(emulator(), "/api/balance").length, 1);
    const wallet = dataOf<{ balance: number }>(await call(emulator().localUrl, "/api/balance", { method: "GET" }));
    assert.deepEqual(msg.payload, wallet);
    assert.deepEqual(Object.keys(wallet).sort(), ["balance", "remainingConcurrency", "remainingDuration"]);
    assertInfo(msg, { api: "local", path: "/api/balance" });
    assert.equal(ownStatusCalls(helper.getNode("n1")).at(-1)?.text, `balance ${(wallet.balance / 100).toFixed(2)}`);
  });

  it("account balance on the Open API is refused before anything is sent: MoreLogin documents it on the Local API only", async () => {
    refused(await run(emulator(), { type: PHONE, api: "open", action: "balance" }, { payload: "" }), /balance is on the Local API only/);
    assertNothingSent(emulator());
  });

  it("set the account's webhook sends the node's address, on by default, and replies what MoreLogin saved", async () => {
    const callbackUrl = "https://hooks.example.com/morelogin";
    const msg = succeeded(await run(emulator(), { type: PHONE, action: "webhook", callbackUrl, callbackUrlType: "str" }, { payload: "" }));
    assert.deepEqual(onlyBodyAt(emulator(), "/api/webhook/config"), { callbackUrl, enabled: true });
    assert.deepEqual(msg.payload, { callbackUrl, enabled: true });
    assertInfo(msg, { api: "local", path: "/api/webhook/config" });
    assert.equal(ownStatusCalls(helper.getNode("n1")).at(-1)?.text, "webhook on");
  });

  it("set the account's webhook: off, and msg.payload's address wins over the node's", async () => {
    const callbackUrl = "https://other.example.com/hook";
    const node = { type: PHONE, action: "webhook", callbackUrl: "https://hooks.example.com/morelogin", callbackUrlType: "str", webhookEnabled: "off" };
    const msg = succeeded(await run(emulator(), node, { payload: { callbackUrl } }));
    assert.deepEqual(onlyBodyAt(emulator(), "/api/webhook/config"), { callbackUrl, enabled: false });
    assert.deepEqual(msg.payload, { callbackUrl, enabled: false });
    assert.equal(ownStatusCalls(helper.getNode("n1")).at(-1)?.text, "webhook off");
  });

  it("set the account's webhook without an address is refused before anything is sent", async () => {
    refused(await run(emulator(), { type: PHONE, action: "webhook" }, { payload: "" }), /callbackUrl is missing/);
    assertNothingSent(emulator());
  });

  it("set the account's webhook to an address MoreLogin refuses fails with MoreLogin's code", async () => {
    const failure = failed(await run(emulator(), { type: PHONE, action: "webhook", callbackUrl: "http://127.0.0.1/hook", callbackUrlType: "str" }, { payload: "" }));
    assert.match(failure.text, /callbackUrl must be a public HTTPS address/);
    assert.equal(failure.error.code, 99001);
  });
});
