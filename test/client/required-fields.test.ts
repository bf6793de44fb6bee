import assert from "node:assert/strict";
import { ENDPOINTS, MoreLoginInputError, MoreLoginNetworkError, PreparedBody, type EndpointName } from "../../src/client";
import { prepareBody } from "../../src/client/request-body";
import type { Emulator } from "../../src/emulator";
import { clearFaults, rejection, requests, resetBeforeEach, useClients, useEmulator } from "../support/emulator";

/** The bodies of the requests the emulator got for one path. */
function bodiesFor(emulator: Emulator, path: string): unknown[] {
  return emulator.requestLog.filter((request) => request.path === path).map((request) => request.body);
}

const routes = (emulator: Emulator): string[] => emulator.requestLog.map((request) => `${request.api} ${request.method} ${request.path}`);

/** The message of the input error `prepareBody` throws for this endpoint and body. */
function refusal(endpoint: EndpointName, body: unknown): string {
  try {
    prepareBody(ENDPOINTS[endpoint], body);
  } catch (error) {
    assert.ok(error instanceof MoreLoginInputError, String(error));
    assert.equal(error.kind, "input");
    return error.message;
  }
  throw new Error(`${endpoint} accepted ${JSON.stringify(body)}`);
}

const UNSAFE = 2 ** 53 + 2;

describe("client: request bodies of the workflow endpoints, checked before anything is sent", () => {
  describe("required fields", () => {
    it("names every missing field, in the endpoint's order", () => {
      assert.equal(refusal("runTemplateOnce", {}), "cloudPhoneId, scheduleName, templateId are missing");
      assert.equal(refusal("runTemplateOnce", { cloudPhoneId: "1", templateId: "2" }), "scheduleName is missing");
      assert.equal(refusal("cloudPhoneShell", { id: "1" }), "command is missing");
      assert.equal(refusal("cloudPhoneShell", {}), "id, command are missing");
      assert.equal(refusal("setCloudPhoneAdb", { ids: ["1"] }), "enableAdb is missing");
      assert.equal(refusal("scheduleTemplate", { templateId: "1", taskName: "t" }), "cloudPhoneConfigs, scheduleConfig, taskType, templateType are missing");
    });

    it("counts blank text, null and undefined as missing, but false and 0 as given", () => {
      for (const blank of ["", null, undefined]) {
        assert.equal(refusal("cloudPhoneShell", { id: "1", command: blank }), "command is missing", String(blank));
        assert.equal(refusal("cloudPhoneInfo", { id: blank }), "id is missing", String(blank));
      }
      assert.deepEqual(prepareBody(ENDPOINTS.setCloudPhoneAdb, { ids: ["1"], enableAdb: false }), { ids: ["1"], enableAdb: false });
      assert.deepEqual(prepareBody(ENDPOINTS.cloudPhoneShell, { id: "7", command: 0 }), { id: "7", command: 0 });
    });

    it("counts an empty list as missing", () => {
      assert.equal(refusal("deleteProfiles", { envIds: [] }), "envIds is missing");
      assert.equal(refusal("setCloudPhoneAdb", { ids: [], enableAdb: true }), "ids is missing");
      assert.equal(refusal("cloudPhoneAdbInfo", { envIds: [] }), "envIds is missing");
      assert.equal(
        refusal("scheduleTemplate", { cloudPhoneConfigs: [], scheduleConfig: {}, taskName: "t", taskType: "ONCE", templateId: "1", templateType: "MARKET" }),
        "cloudPhoneConfigs is missing",
      );
    });

    it("needs one of requiresOneOf, an empty list being none", () => {
      assert.equal(refusal("setProfileGroup", { groupName: "Team" }), "envIds or uniqueIds is missing");
      assert.equal(refusal("setProfileGroup", { groupName: "Team", envIds: [], uniqueIds: [] }), "envIds or uniqueIds is missing");
      assert.equal(refusal("installCloudPhoneApp", { id: "1" }), "appVersionId or packageName is missing");
      assert.deepEqual(prepareBody(ENDPOINTS.setProfileGroup, { groupName: "Team", uniqueIds: [3] }), { groupName: "Team", uniqueIds: [3] });
      assert.deepEqual(prepareBody(ENDPOINTS.installCloudPhoneApp, { id: "1", packageName: "com.example" }), { id: "1", packageName: "com.example" });
    });

    it("PreparedBody refuses the same bodies", () => {
      assert.throws(() => PreparedBody.for("runTemplateOnce", { templateId: "1" }), { name: "MoreLoginInputError", message: "cloudPhoneId, scheduleName are missing" });
      assert.throws(() => PreparedBody.for("deleteProfiles", { envIds: [] }), { message: "envIds is missing" });
    });
  });

  describe("ID lists", () => {
    it("sends each ID as a decimal string: numbers, bigints and padded text normalised", () => {
      const prepared = prepareBody(ENDPOINTS.deleteProfiles, { envIds: [42, " 1993244721490239488 ", 1993244721490239489n, "7"], removeEnvData: true });
      assert.deepEqual(prepared, { envIds: ["42", "1993244721490239488", "1993244721490239489", "7"], removeEnvData: true });
      assert.deepEqual(prepareBody(ENDPOINTS.setCloudPhoneAdb, { ids: [1, 2], enableAdb: true }).ids, ["1", "2"]);
    });

    it("refuses a number beyond 2^53, naming the item", () => {
      assert.equal(refusal("deleteProfiles", { envIds: ["1", UNSAFE] }), `envIds[1] ${UNSAFE} is not a safe integer: pass MoreLogin IDs as strings (numbers beyond 2^53 lose digits)`);
      assert.match(refusal("setCloudPhoneAdb", { ids: [UNSAFE], enableAdb: true }), /^ids\[0\] \d+ is not a safe integer/);
    });

    it("refuses a list that is not an array, and items that are not decimal IDs", () => {
      for (const notAList of ["1993244721490239488", 42, { 0: "1" }, true]) {
        assert.equal(refusal("deleteProfiles", { envIds: notAList }), "envIds must be an array of decimal ID strings", JSON.stringify(notAList));
      }
      assert.match(refusal("deleteProfiles", { envIds: ["1", "abc"] }), /^envIds\[1\] must be a decimal ID/);
      assert.match(refusal("deleteProfiles", { envIds: [-1] }), /^envIds\[0\] -1 is not a safe integer/);
      assert.match(refusal("setProfileRemark", { envIds: [null], envRemark: "x" }), /^envIds\[0\] must be a decimal ID string, got null/);
    });

    it("leaves the caller's body as it was", () => {
      const body = { envIds: [42, " 7 "] };
      prepareBody(ENDPOINTS.deleteProfiles, body);
      assert.deepEqual(body, { envIds: [42, " 7 "] });
    });
  });

  describe("defaults", () => {
    it("creates one Chrome profile on Windows unless the caller says otherwise", () => {
      const defaults = { browserTypeId: 1, operatorSystemId: 1, quantity: 1 };
      assert.deepEqual(prepareBody(ENDPOINTS.createProfiles, {}), defaults);
      assert.deepEqual(prepareBody(ENDPOINTS.createProfiles), defaults);
      assert.deepEqual(prepareBody(ENDPOINTS.createProfiles, { browserTypeId: "", operatorSystemId: null, quantity: undefined }), defaults);
      assert.deepEqual(prepareBody(ENDPOINTS.createProfiles, { browserTypeId: 2, operatorSystemId: 3, quantity: 5, groupId: 12 }), {
        browserTypeId: 2,
        operatorSystemId: 3,
        quantity: 5,
        groupId: "12",
      });
    });
  });

  describe("against the emulator", () => {
    const { emulator } = useEmulator({ cloudPhones: 4 });
    const clientWith = useClients(emulator);
    resetBeforeEach(emulator, clearFaults);

    const phoneId = (): string => {
      const id = emulator().data.cloudPhones[0]?.id;
      assert.ok(id);
      return id;
    };

    it("sends nothing, not even a token request, when a required field is missing", async () => {
      const client = clientWith();
      const cases: Array<[Promise<unknown>, string]> = [
        [client.call("runTemplateOnce", { cloudPhoneId: phoneId(), templateId: "1" }, { api: "open" }), "scheduleName is missing"],
        [client.call("runTemplateOnce", { cloudPhoneId: phoneId(), scheduleName: "x" }), "templateId is missing"],
        [client.call("cloudPhoneShell", { id: phoneId(), command: "" }), "command is missing"],
        [client.call("cloudPhoneInfo", {}, { api: "open" }), "id is missing"],
        [client.call("deleteProfiles", { envIds: [] }), "envIds is missing"],
        [client.call("setCloudPhoneAdb", { ids: [UNSAFE], enableAdb: true }), `ids[0] ${UNSAFE} is not a safe integer: pass MoreLogin IDs as strings (numbers beyond 2^53 lose digits)`],
        [client.call("setProfileRemark", { envIds: "1", envRemark: "x" }), "envIds must be an array of decimal ID strings"],
      ];
      for (const [pending, message] of cases) {
        const error = await rejection(pending);
        assert.ok(error instanceof MoreLoginInputError, String(error));
        assert.equal(error.message, message);
      }
      assert.deepEqual(routes(emulator()), []);
      assert.equal(emulator().stats.tokenRequests, 0);
    });

    it("create sends the defaults and gets one new profile", async () => {
      const created = await clientWith().call("createProfiles", {});
      assert.deepEqual(bodiesFor(emulator(), "/api/env/create/quick"), [{ browserTypeId: 1, operatorSystemId: 1, quantity: 1 }]);
      assert.equal(created.data.length, 1);
      assert.match(String(created.data[0]), /^\d+$/);
    });

    it("an ID list goes out as decimal strings", async () => {
      const [first, second] = emulator().data.profiles;
      assert.ok(first && second);
      await clientWith().call("setProfileRemark", { envIds: [` ${first.id} `, second.id], envRemark: "checked" });
      assert.deepEqual(bodiesFor(emulator(), "/api/env/setRemark/batch"), [{ envIds: [first.id, second.id], envRemark: "checked" }]);
    });

    it("cloud-phone info goes to /cloudphone/info on the Open API, with its token, and /api/cloudphone/info locally", async () => {
      const client = clientWith();
      const open = await client.call("cloudPhoneInfo", { id: phoneId() }, { api: "open" });
      assert.equal(open.api, "open");
      assert.equal(open.path, "/cloudphone/info");
      assert.equal(open.data.id, phoneId());
      const local = await client.call("cloudPhoneInfo", { id: phoneId() });
      assert.equal(local.api, "local");
      assert.equal(local.path, "/api/cloudphone/info");
      assert.deepEqual(local.data, open.data);
      assert.deepEqual(routes(emulator()), ["open POST /oauth2/token", "open POST /cloudphone/info", "local POST /api/cloudphone/info"]);
      assert.deepEqual(bodiesFor(emulator(), "/cloudphone/info"), [{ id: phoneId() }]);
    });

    it("a run of a template goes to /cloudphone/rpa/onceTask/save on the Open API", async () => {
      const client = clientWith();
      const templates = await client.call("marketTemplates", { pageNo: 1, pageSize: 10 }, { api: "open" });
      const template = templates.data.dataList.find((item) => item.parameter === null);
      assert.ok(template, "a market template without variables");
      emulator().resetStats();
      const run = await client.call("runTemplateOnce", { cloudPhoneId: phoneId(), templateId: template.id, scheduleName: "Node-RED" }, { api: "open" });
      assert.equal(run.api, "open");
      assert.equal(run.path, "/cloudphone/rpa/onceTask/save");
      assert.match(String(run.data), /^\d+$/);
      assert.deepEqual(routes(emulator()), ["open POST /cloudphone/rpa/onceTask/save"]);
      assert.deepEqual(bodiesFor(emulator(), "/cloudphone/rpa/onceTask/save"), [{ cloudPhoneId: phoneId(), templateId: template.id, scheduleName: "Node-RED" }]);
    });

    it("refuses Local-only endpoints for the Open API before sending", async () => {
      const client = clientWith();
      const localOnly: Array<[EndpointName, object]> = [
        ["restartCloudPhone", { id: phoneId() }],
        ["cloudPhoneAdbInfo", { envIds: [phoneId()] }],
        ["cloudPhoneScreenshot", { id: phoneId() }],
        ["createProfiles", {}],
        ["deleteProfiles", { envIds: ["1"] }],
        ["setProfileGroup", { envIds: ["1"], groupName: "x" }],
        ["closeAllProfiles", {}],
      ];
      for (const [endpoint, body] of localOnly) {
        const error = await rejection(client.call(endpoint, body, { api: "open" }));
        assert.ok(error instanceof MoreLoginInputError, `${endpoint}: ${String(error)}`);
        assert.equal(error.message, `the Open API has no ${ENDPOINTS[endpoint].path}`);
      }
      assert.deepEqual(routes(emulator()), []);
    });

    it("never sends a write twice after the connection drops, on either API", async () => {
      const client = clientWith();
      emulator().script({ kind: "reset", api: "local", path: "/api/cloudphone/exeCommand" });
      const shell = await rejection(client.call("cloudPhoneShell", { id: phoneId(), command: "ls" }));
      assert.ok(shell instanceof MoreLoginNetworkError, String(shell));
      assert.equal(shell.notSent, false);
      assert.equal(requests(emulator(), "local POST /api/cloudphone/exeCommand"), 1);

      emulator().script({ kind: "reset", api: "open", path: "/cloudphone/rpa/onceTask/save" });
      const run = await rejection(client.call("runTemplateOnce", { cloudPhoneId: phoneId(), templateId: "1", scheduleName: "x" }, { api: "open" }));
      assert.ok(run instanceof MoreLoginNetworkError, String(run));
      assert.equal(requests(emulator(), "open POST /cloudphone/rpa/onceTask/save"), 1);

      emulator().script({ kind: "reset", api: "local", path: "/api/env/removeToRecycleBin/batch" });
      await rejection(client.call("deleteProfiles", { envIds: ["1"] }));
      assert.equal(requests(emulator(), "local POST /api/env/removeToRecycleBin/batch"), 1);
    });

    it("sends a read again after the connection drops, on either API", async () => {
      const client = clientWith();
      emulator().script({ kind: "reset", api: "local", path: "/api/cloudphone/info" });
      assert.equal((await client.call("cloudPhoneInfo", { id: phoneId() })).data.id, phoneId());
      assert.equal(requests(emulator(), "local POST /api/cloudphone/info"), 2);

      emulator().script({ kind: "reset", api: "open", path: "/cloudphone/rpa/subTask/page" });
      const runs = await client.call("automationRuns", { pageNo: 1 }, { api: "open" });
      assert.ok(Array.isArray(runs.data.dataList));
      assert.equal(requests(emulator(), "open POST /cloudphone/rpa/subTask/page"), 2);
    });
  });

  it("marks every call that changes something as a write, so it is never resent once it may have run", () => {
    const writes: EndpointName[] = [
      "createProfiles",
      "updateProfile",
      "deleteProfiles",
      "refreshFingerprint",
      "clearProfileCache",
      "setProfileGroup",
      "setProfileProxy",
      "setProfileRemark",
      "closeAllProfiles",
      "powerOnCloudPhone",
      "powerOffCloudPhone",
      "restartCloudPhone",
      "setCloudPhoneAdb",
      "cloudPhoneShell",
      "installCloudPhoneApp",
      "startCloudPhoneApp",
      "stopCloudPhoneApp",
      "runTemplateOnce",
      "scheduleTemplate",
      "cancelAutomationTask",
    ];
    const reads: EndpointName[] = ["profileDetail", "cloudPhoneInfo", "cloudPhoneAdbInfo", "cloudPhoneScreenshot", "marketTemplates", "personalTemplates", "automationTasks", "automationRuns"];
    for (const name of writes) assert.equal(ENDPOINTS[name].idempotency, "write", name);
    for (const name of reads) assert.equal(ENDPOINTS[name].idempotency, "read", name);
  });
});
