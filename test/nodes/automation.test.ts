import assert from "node:assert/strict";
import type { CloudPhone, Emulator } from "../../src/emulator";
import { flowWith, helper, useNodeRed } from "../support/node-red";
import { useEmulator } from "../support/emulator";
import { call, dataOf, type PageShape } from "../support/http";
import { NO_PACING, UNSAFE_ID, assertInfo, assertNothingSent, failed, onlyBodyAt, redeployWhilePolling, refused, requestsAt, run, succeeded } from "../support/outcome";
import { startWiretap } from "../support/wiretap";

const AUTOMATION = "morelogin-automation";
const RPA = "/api/cloudphone/rpa";
const OPEN_RPA = "/cloudphone/rpa";

interface Template {
  id: string;
  title: string;
}
interface Run {
  id: string;
  cloudPhoneId: string;
  taskState: number;
  handleFailReason: string;
}
interface Task {
  id: string;
  taskName: string;
  taskState: number;
}

/** What the emulator serves at a paged automation endpoint (Local API), every item. */
async function listed<T>(emulator: Emulator, path: string, body: Record<string, unknown> = {}): Promise<T[]> {
  return dataOf<PageShape<T>>(await call(emulator.localUrl, `${RPA}${path}`, { body: { pageNo: 1, pageSize: 100, ...body } })).dataList;
}

function templateTitled(templates: Template[], title: string): string {
  const id = templates.find((template) => template.title === title)?.id;
  assert.ok(id, `the template "${title}"`);
  return id;
}

/** Takes seeded phones for one test each, so no test depends on another's. */
function phoneTaker(emulator: () => Emulator): () => CloudPhone {
  const taken = new Set<string>();
  return () => {
    const phone = emulator().data.cloudPhones.find((p) => !taken.has(p.id));
    assert.ok(phone, "a free phone");
    taken.add(phone.id);
    return phone;
  };
}

describe("nodes: automation", () => {
  const { emulator } = useEmulator({ cloudPhones: 24, automationStepMs: 200 });
  const take = phoneTaker(emulator);
  let market: Template[] = [];
  let personal: Template[] = [];
  const runsOf = (taskId: string): Promise<Run[]> => listed<Run>(emulator(), "/subTask/page", { taskId });

  useNodeRed(emulator);
  before(async () => {
    market = await listed<Template>(emulator(), "/template/market/page");
    personal = await listed<Template>(emulator(), "/template/personal/page");
  });

  describe("templates", () => {
    it("lists the marketplace's templates (Local API), every page", async () => {
      const msg = succeeded(await run(emulator(), { type: AUTOMATION, action: "templates", source: "market" }, { payload: "" }));
      assert.deepEqual(onlyBodyAt(emulator(), `${RPA}/template/market/page`), { pageNo: 1, pageSize: 100 });
      assert.deepEqual(msg.payload, market);
      assert.equal(market.length, 4);
      assertInfo(msg, { api: "local", path: `${RPA}/template/market/page`, pages: 1 });
    });

    it("lists the team's own templates over the Open API", async () => {
      const msg = succeeded(await run(emulator(), { type: AUTOMATION, api: "open", action: "templates", source: "personal" }, { payload: "" }));
      assert.deepEqual(onlyBodyAt(emulator(), `${OPEN_RPA}/template/personal/page`), { pageNo: 1, pageSize: 100 });
      assert.deepEqual(msg.payload, personal);
      assert.equal(personal.length, 2);
      assertInfo(msg, { api: "open", path: `${OPEN_RPA}/template/personal/page`, pages: 1 });
    });

    it("a node with no action or source saved lists the marketplace's", async () => {
      const msg = succeeded(await run(emulator(), { type: AUTOMATION }, { payload: "" }));
      assert.deepEqual(msg.payload, market);
    });
  });

  describe("runOnce", () => {
    it("starts one run of the template on the phone, with the parameters as the API's templateParameter string", async () => {
      const phone = take();
      const templateId = templateTitled(market, "Search and like posts");
      const node = { type: AUTOMATION, name: "Like shoes", action: "runOnce", templateId, phoneId: phone.id, parameters: '{"keyword": "shoes"}', parametersType: "json" };
      const msg = succeeded(await run(emulator(), node, { payload: "" }));
      assert.deepEqual(onlyBodyAt(emulator(), `${RPA}/onceTask/save`), { templateId, scheduleName: "Like shoes", templateParameter: '{"keyword":"shoes"}', cloudPhoneId: phone.id });
      const taskId = msg.payload as string;
      assert.match(taskId, /^\d+$/, "the run's schedule ID, as a decimal string");
      assert.equal(msg.topic, phone.id);
      assertInfo(msg, { api: "local", path: `${RPA}/onceTask/save` });
      const runs = await runsOf(taskId);
      assert.deepEqual(
        runs.map((r) => r.cloudPhoneId),
        [phone.id],
      );
      assert.equal(requestsAt(emulator(), `${RPA}/subTask/page`).length, 1, "no wait: only this test's own look at the runs");
    });

    it("with wait over the Open API, polls the run until it ends and replies the run as it ended", async () => {
      const phone = take();
      const templateId = templateTitled(market, "Open the app store");
      const msg = succeeded(await run(emulator(), { type: AUTOMATION, api: "open", action: "runOnce", templateId, phoneId: phone.id, wait: true }, { payload: "" }));
      const body = onlyBodyAt(emulator(), `${OPEN_RPA}/onceTask/save`) as { cloudPhoneId: string };
      assert.deepEqual(body, { templateId, scheduleName: "Node-RED", templateParameter: "{}", cloudPhoneId: phone.id });
      const polls = requestsAt(emulator(), `${OPEN_RPA}/subTask/page`);
      assert.ok(polls.length >= 2, "it polled until the run ended");
      const { taskId } = (polls[0]?.body ?? {}) as { taskId?: string };
      assert.ok(taskId);
      assert.ok(polls.every((entry) => JSON.stringify(entry.body) === JSON.stringify({ taskId, pageNo: 1, pageSize: 10 })));
      const [ended] = await runsOf(taskId);
      assert.equal(ended?.taskState, 3, "succeeded");
      assert.deepEqual(msg.payload, ended);
      assert.equal(msg.topic, phone.id);
      assertInfo(msg, { api: "open", path: `${OPEN_RPA}/onceTask/save` });
    });

    it("with wait, a run that fails on MoreLogin's side is its result, not an error of the node", async () => {
      const phone = take();
      const templateId = templateTitled(market, "Warm up: scroll the feed");
      const msg = succeeded(await run(emulator(), { type: AUTOMATION, action: "runOnce", templateId, phoneId: phone.id, wait: true }, { payload: "" }));
      const result = msg.payload as Run;
      assert.equal(result.taskState, 4);
      assert.equal(result.handleFailReason, "Required template parameter missing: minutes");
      assert.equal(result.cloudPhoneId, phone.id);
    });

    it("runs on each phone of an array payload, in order, with parameters an object from msg, and replies their run IDs; with wait, their runs", async () => {
      const phones = [take(), take()];
      const ids = phones.map((phone) => phone.id);
      const templateId = templateTitled(personal, "Screenshot an app");
      const node = { type: AUTOMATION, action: "runOnce", templateId, parameters: "params", parametersType: "msg" };
      const params = { packageName: "com.example" };
      const started = succeeded(await run(emulator(), node, { payload: ids, topic: "in", params }));
      assert.deepEqual(
        requestsAt(emulator(), `${RPA}/onceTask/save`).map((entry) => entry.body),
        ids.map((cloudPhoneId) => ({ templateId, scheduleName: "Node-RED", templateParameter: '{"packageName":"com.example"}', cloudPhoneId })),
      );
      const taskIds = started.payload as string[];
      assert.equal(taskIds.length, 2);
      assert.deepEqual(
        await Promise.all(taskIds.map(async (taskId) => (await runsOf(taskId)).map((r) => r.cloudPhoneId))),
        ids.map((id) => [id]),
      );
      assert.equal(started.topic, "in", "two phones: msg.topic is left as it was");
      await helper.unload();

      const waited = succeeded(await run(emulator(), { ...node, wait: true }, { payload: [take().id, take().id], params }));
      const runs = waited.payload as Run[];
      assert.deepEqual(
        runs.map((r) => r.taskState),
        [3, 3],
      );
    });
  });

  describe("schedules, tasks, runs and cancel", () => {
    // Years ahead of today, so a schedule's run stays waiting however slow the machine or late the year.
    const year = new Date().getUTCFullYear() + 4;
    const later = { triggerTime: `${year}-01-01 09:00:00`, endTime: `${year}-02-01 00:00:00` };
    /** A schedule whose one run waits for a trigger years ahead: nothing about it changes while a test looks. */
    const scheduleLater = async (phoneId: string, taskName: string): Promise<string> => {
      const saved = await call(emulator().localUrl, `${RPA}/task/save`, {
        body: {
          taskName,
          taskType: "SCHEDULED",
          templateId: templateTitled(market, "Open the app store"),
          templateType: "MARKET",
          scheduleConfig: { scheduleType: "ONCE", endTime: later.endTime },
          cloudPhoneConfigs: [{ cloudPhoneId: phoneId, triggerTime: later.triggerTime, templateParameter: "{}" }],
        },
      });
      return String(dataOf<number>(saved));
    };

    it("schedule saves a daily schedule of a marketplace template; tasks then lists it", async () => {
      const phone = take();
      const templateId = templateTitled(market, "Search and like posts");
      const node = { type: AUTOMATION, name: "Daily likes", action: "schedule", source: "market", templateId, phoneId: phone.id, repeat: "DAILY", parameters: '{"keyword":"x"}', ...later };
      const msg = succeeded(await run(emulator(), node, { payload: "" }));
      assert.deepEqual(onlyBodyAt(emulator(), `${RPA}/task/save`), {
        taskName: "Daily likes",
        taskType: "SCHEDULED",
        templateId,
        templateType: "MARKET",
        scheduleConfig: { scheduleType: "DAILY", endTime: later.endTime },
        cloudPhoneConfigs: [{ cloudPhoneId: phone.id, triggerTime: later.triggerTime, templateParameter: '{"keyword":"x"}' }],
      });
      const taskId = msg.payload as string;
      assert.match(taskId, /^\d+$/);
      assertInfo(msg, { api: "local", path: `${RPA}/task/save` });
      await helper.unload();

      const tasks = succeeded(await run(emulator(), { type: AUTOMATION, api: "open", action: "tasks" }, { payload: "" }));
      assert.deepEqual(tasks.payload, await listed<Task>(emulator(), "/task/page"));
      const task = (tasks.payload as Task[]).find((t) => t.id === taskId);
      assert.deepEqual({ taskName: task?.taskName, taskState: task?.taskState }, { taskName: "Daily likes", taskState: 0 });
      assertInfo(tasks, { api: "open", path: `${OPEN_RPA}/task/page`, pages: 1 });
    });

    it("runs lists the runs of the schedule the node names", async () => {
      const phone = take();
      const taskId = await scheduleLater(phone.id, "for runs");
      emulator().resetStats();
      const msg = succeeded(await run(emulator(), { type: AUTOMATION, action: "runs", taskId }, { payload: "" }));
      assert.deepEqual(onlyBodyAt(emulator(), `${RPA}/subTask/page`), { taskId, pageNo: 1, pageSize: 100 });
      const runs = msg.payload as Run[];
      assert.deepEqual(
        runs.map((r) => r.cloudPhoneId),
        [phone.id],
      );
      assert.deepEqual(runs, await runsOf(taskId));
      assertInfo(msg, { api: "local", path: `${RPA}/subTask/page`, pages: 1 });
    });

    for (const api of ["local", "open"] as const) {
      it(`cancel (${api} API) cancels the schedule msg.payload names: it is cancelled and its waiting run too`, async () => {
        const taskId = await scheduleLater(take().id, "to cancel");
        emulator().resetStats();
        const msg = succeeded(await run(emulator(), { type: AUTOMATION, api, action: "cancel" }, { payload: taskId }));
        const path = `${api === "local" ? RPA : OPEN_RPA}/task/cancel`;
        assert.deepEqual(onlyBodyAt(emulator(), path), { id: taskId });
        assert.equal(msg.payload, null);
        assert.equal(msg.topic, taskId);
        assertInfo(msg, { api, path });
        const task = (await listed<Task>(emulator(), "/task/page")).find((t) => t.id === taskId);
        assert.equal(task?.taskState, 3, "the schedule is cancelled");
        assert.deepEqual(
          (await runsOf(taskId)).map((r) => r.taskState),
          [5],
        );
      });
    }

    it("cancel takes the schedule from the node's Task ID", async () => {
      const taskId = await scheduleLater(take().id, "cancel me");
      emulator().resetStats();
      succeeded(await run(emulator(), { type: AUTOMATION, action: "cancel", taskId }, { payload: 1_700_000_000_000 }));
      assert.deepEqual(onlyBodyAt(emulator(), `${RPA}/task/cancel`), { id: taskId });
    });
  });

  describe("refused before anything is sent", () => {
    const PHONE_ID = "1650000000000000001";
    const TEMPLATE_ID = "1678300000000000001";
    const cases: Array<[string, Record<string, unknown>, Record<string, unknown>, RegExp]> = [
      ["an unknown action", { action: "bogus" }, { payload: "" }, /^automation failed: unknown action "bogus": use one of templates, runOnce, schedule, tasks, runs, cancel$/],
      ["runOnce without a template", { action: "runOnce", phoneId: PHONE_ID }, { payload: "" }, /^automation failed: runOnce needs templateId: set it in the node or send it in msg.payload$/],
      ["runOnce without a phone", { action: "runOnce", templateId: TEMPLATE_ID }, { payload: "" }, /^automation failed: no cloud phone given/],
      [
        "runOnce on a 64-bit phone ID given as a number",
        { action: "runOnce", templateId: TEMPLATE_ID, phoneId: "phone", phoneIdType: "msg" },
        { payload: "", phone: UNSAFE_ID },
        /^automation failed: phoneId 1993244721490239500 is not a safe integer/,
      ],
      [
        "runOnce on an array with a 64-bit number",
        { action: "runOnce", templateId: TEMPLATE_ID },
        { payload: [UNSAFE_ID] },
        /^automation failed: msg.payload\[0\] 1993244721490239500 is not a safe integer/,
      ],
      [
        "parameters that are not JSON",
        { action: "runOnce", templateId: TEMPLATE_ID, phoneId: PHONE_ID, parameters: "keyword=shoes", parametersType: "str" },
        { payload: "" },
        /^automation failed: parameters is not valid JSON: keyword=shoes$/,
      ],
      [
        "parameters that are not an object",
        { action: "runOnce", templateId: TEMPLATE_ID, phoneId: PHONE_ID, parameters: "[1]", parametersType: "json" },
        { payload: "" },
        /^automation failed: parameters must be an object/,
      ],
      [
        "schedule without a trigger time",
        { action: "schedule", templateId: TEMPLATE_ID, phoneId: PHONE_ID, endTime: "2030-02-01 00:00:00" },
        { payload: "" },
        /^automation failed: schedule needs triggerTime/,
      ],
      ["cancel without a schedule", { action: "cancel" }, { payload: "" }, /^automation failed: cancel needs the schedule's ID/],
    ];
    for (const [what, node, input, text] of cases) {
      it(what, async () => {
        refused(await run(emulator(), { type: AUTOMATION, ...node }, input), text);
        assertNothingSent(emulator());
      });
    }
  });
});

describe("nodes: automation, while a run takes long", () => {
  const { emulator } = useEmulator({ cloudPhones: 12, automationStepMs: 600_000 });
  const take = phoneTaker(emulator);
  let templateId = "";

  useNodeRed(emulator);
  before(async () => {
    templateId = templateTitled(await listed<Template>(emulator(), "/template/market/page"), "Open the app store");
  });

  it("a runOnce wait that runs out of time is an error of kind timeout naming each run's last state", async () => {
    const phone = take();
    const { text, error } = failed(await run(emulator(), { type: AUTOMATION, action: "runOnce", templateId, phoneId: phone.id, wait: true, timeout: "2", timeoutType: "num" }, { payload: "" }));
    const { taskId } = (requestsAt(emulator(), `${RPA}/subTask/page`)[0]?.body ?? {}) as { taskId?: string };
    assert.equal(text, `automation failed: automation runs had not ended within 2 s; last state seen: ${taskId}: 0 (waiting)`);
    assert.equal(error.kind, "timeout");
    assert.equal(requestsAt(emulator(), `${RPA}/onceTask/save`).length, 1);
  });

  it("a redeploy during a runOnce wait ends the message once and stops polling", async () => {
    const phone = take();
    const flow = flowWith(emulator(), { type: AUTOMATION, action: "runOnce", templateId, phoneId: phone.id, wait: true }, NO_PACING);
    const ended = await redeployWhilePolling(emulator(), flow, `${RPA}/subTask/page`, "run request");
    assert.deepEqual(ended, ["automation failed: the node was stopped (a deploy or Node-RED shutting down) while the call was in flight"]);
    assert.equal(requestsAt(emulator(), `${RPA}/onceTask/save`).length, 1);
  });

  for (const api of ["local", "open"] as const) {
    it(`a runOnce (${api} API) whose reply was lost is not sent again: one run made, the message fails once`, async () => {
      const phone = take();
      const path = `${api === "local" ? RPA : OPEN_RPA}/onceTask/save`;
      const tap = await startWiretap(api === "local" ? emulator().localUrl : emulator().openUrl, () => true, { loseAnswer: (asked) => asked === path });
      try {
        const before = (await listed<Task>(emulator(), "/task/page")).length;
        const config = api === "local" ? { localUrl: tap.url } : { openUrl: tap.url };
        const { text, error } = failed(await run(emulator(), { type: AUTOMATION, api, action: "runOnce", templateId, phoneId: phone.id, wait: true }, { payload: "" }, { config }));
        assert.equal(error.kind, "network", text);
        assert.equal(requestsAt(emulator(), path).length, 1, "one onceTask/save reached the emulator");
        assert.deepEqual(
          tap.requests.filter((request) => request.path === path).map((request) => request.status),
          ["lost"],
        );
        const tasks = await listed<Task>(emulator(), "/task/page");
        assert.equal(tasks.length, before + 1, "it ran once");
      } finally {
        await tap.close();
      }
    });
  }
});

describe("nodes: automation, the second phone of a runOnce failing", () => {
  const { emulator } = useEmulator({ cloudPhones: 4, automationStepMs: 600_000 });

  useNodeRed();

  it("names the runs already started, so a flow does not start them twice", async () => {
    const templateId = templateTitled(await listed<Template>(emulator(), "/template/market/page"), "Open the app store");
    const phone = emulator().data.cloudPhones[0];
    assert.ok(phone);
    emulator().resetStats();
    const { text, error } = failed(await run(emulator(), { type: AUTOMATION, action: "runOnce", templateId }, { payload: [phone.id, "1650000000000000009"] }));
    const [started] = await listed<Task>(emulator(), "/task/page");
    assert.ok(started);
    assert.equal(text, `automation failed: Invalid cloudPhoneId (code 400, HTTP 400) (on phone 1650000000000000009; runs already started: ${started.id})`);
    assert.equal(error.kind, "api");
    assert.equal(requestsAt(emulator(), `${RPA}/onceTask/save`).length, 2);
  });
});
