import assert from "node:assert/strict";
import { call, dataOf, expectError, type PageShape } from "../support/http";
import type { Emulator } from "../../src/emulator";
import { bearer, useEmulator } from "../support/emulator";
import { waitUntil } from "../support/wait-until";

const STEP_MS = 200;
/** A step that does not come during a test: a state checked on this emulator lasts, and moves on only by stepAutomationRun. */
const HELD_STEP_MS = 600_000;
const UNKNOWN = "1234567890123456";

interface TemplateItem {
  id: string;
  title: string;
  parameter: string | null;
  description: string;
  appIconUrls: string[];
  sort: number;
  updateDate: string;
  author?: string;
}

interface RunItem {
  id: string;
  taskName: string;
  taskState: number;
  cloudPhoneId: string;
  cloudPhoneName: string;
  templateName: string;
  handleFailCode: string;
  handleFailReason: string;
  handleResult: number | null;
  handleResultAttachment: string;
  handleTime: string;
  endTime: string;
  powerOnTime: string;
  triggerNextTime: string;
  triggerTime: string;
  createDate: string;
  createMember: string;
  updateDate: string;
  updateMember: string;
}

interface ScheduleItem {
  id: string;
  taskName: string;
  taskState: number;
  notes: string;
  templateId: string;
  templateTitle: string;
  successCount: number;
  failCount: number;
  scheduleConfig: string;
  taskPreviewTimeTable: { cloudPhoneId: string; cloudPhoneName: string; times: string[] }[];
}

const DATE = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
const utc = (ms: number): string => new Date(ms).toISOString().replace("T", " ").slice(0, 19);

/** Requests to one emulator's automation routes. */
function automationOf(emulator: () => Emulator) {
  const local = (path: string, body: unknown) => call(emulator().localUrl, `/api/cloudphone/rpa${path}`, { body });
  const phone = (index: number): { id: string; envName: string } => {
    const found = emulator().data.cloudPhones[index];
    assert.ok(found);
    return found;
  };
  const templates = async (source: "market" | "personal", body: unknown = {}): Promise<PageShape<TemplateItem>> => dataOf(await local(`/template/${source}/page`, body));
  const template = async (title: string): Promise<TemplateItem> => {
    const all = [...(await templates("market", { pageSize: 100 })).dataList, ...(await templates("personal", { pageSize: 100 })).dataList];
    const found = all.find((t) => t.title === title);
    assert.ok(found, title);
    return found;
  };
  const runsOf = async (taskId: string | number): Promise<RunItem[]> => dataOf<PageShape<RunItem>>(await local("/subTask/page", { taskId: String(taskId), pageSize: 100 })).dataList;
  const scheduleOf = async (id: string | number): Promise<ScheduleItem | undefined> =>
    dataOf<PageShape<ScheduleItem>>(await local("/task/page", { pageSize: 100 })).dataList.find((s) => s.id === String(id));
  const runOnce = async (title: string, parameters: unknown, phoneIndex = 0): Promise<number> =>
    dataOf<number>(
      await local("/onceTask/save", {
        cloudPhoneId: phone(phoneIndex).id,
        scheduleName: `Run ${title}`,
        templateId: (await template(title)).id,
        templateParameter: JSON.stringify(parameters),
        description: "from a test",
      }),
    );
  const ENDED = [3, 4, 5];
  /** Waits until the schedule's first run has ended (succeeded, failed or cancelled) and returns it. */
  const endedRun = async (taskId: string | number): Promise<RunItem> => {
    const [run] = await waitUntil(
      () => runsOf(taskId),
      (runs) => ENDED.includes(runs[0]?.taskState ?? -1),
      `the run of schedule ${taskId} ends`,
      15_000,
    );
    assert.ok(run);
    return run;
  };
  return { local, phone, templates, template, runsOf, scheduleOf, runOnce, endedRun };
}

describe("emulator: cloud phone automation (RPA)", () => {
  const { emulator } = useEmulator({ cloudPhones: 4, automationStepMs: STEP_MS });
  const { local, phone, templates, template, runsOf, scheduleOf, runOnce, endedRun } = automationOf(emulator);
  /** The same data under a step that never comes by itself (a manual clock): for the states in between. */
  const { emulator: heldEmulator } = useEmulator({ cloudPhones: 4, automationStepMs: HELD_STEP_MS, manualClock: true });
  const held = automationOf(heldEmulator);

  describe("templates", () => {
    it("lists seeded marketplace and team templates with `parameter` JSON strings (null when a template has no variables)", async () => {
      const market = await templates("market");
      const personal = await templates("personal");
      assert.deepEqual([market.total, market.current, market.pages], ["4", "1", "1"]);
      assert.equal(personal.total, "2");
      for (const item of [...market.dataList, ...personal.dataList]) {
        assert.match(item.id, /^\d{16}$/);
        assert.match(item.updateDate, DATE);
        if (item.parameter !== null) {
          const variables = JSON.parse(item.parameter) as Record<string, { type: string; extra: { name: string; required: boolean; index: number } }>;
          for (const variable of Object.values(variables)) assert.deepEqual(Object.keys(variable).sort(), ["extra", "type"]);
        }
      }
      assert.ok(market.dataList.some((t) => t.parameter === null));
      assert.ok(market.dataList.every((t) => t.author !== undefined) && personal.dataList.every((t) => t.author === undefined), "only marketplace templates have an author");
      assert.deepEqual(Object.keys(market.dataList[0] ?? {}).sort(), ["appIconUrls", "author", "description", "id", "parameter", "sort", "title", "updateDate"]);
    });

    it("filters by searchKey (and desc for team templates) and pages with pageNo and pageSize", async () => {
      assert.deepEqual(
        (await templates("market", { searchKey: "tiktok" })).dataList.map((t) => t.title),
        ["Post a TikTok video"],
      );
      assert.deepEqual(
        (await templates("personal", { desc: "screenshot" })).dataList.map((t) => t.title),
        ["Screenshot an app"],
      );
      const second = await templates("market", { pageNo: 2, pageSize: 3, searchKey: null });
      assert.deepEqual([second.total, second.current, second.pages, second.dataList.length], ["4", "2", "2", 1]);
    });
  });

  describe("one-time runs (/onceTask/save)", () => {
    it("replies the schedule ID as a number; its run waits (0), runs (1), then succeeds (3) with handleResult 1", async () => {
      // The states in between, on the emulator whose steps come only when the test takes them.
      const heldId = await held.runOnce("Search and like posts", { keyword: "cats", count: 3 });
      assert.ok(Number.isSafeInteger(heldId));
      assert.match(String(heldId), /^\d{16}$/);
      const [waiting] = await held.runsOf(heldId);
      assert.ok(waiting);
      assert.match(waiting.id, /^\d{16}$/);
      assert.deepEqual(
        [waiting.taskState, waiting.handleResult, waiting.handleTime, waiting.endTime, waiting.cloudPhoneId, waiting.cloudPhoneName, waiting.taskName, waiting.templateName],
        [0, null, "", "", held.phone(0).id, held.phone(0).envName, "Run Search and like posts", "Search and like posts"],
      );
      assert.match(waiting.triggerTime, DATE);
      assert.equal((await held.scheduleOf(heldId))?.taskState, 0);
      assert.ok(heldEmulator().stepAutomationRun(waiting.id));
      const [running] = await held.runsOf(heldId);
      assert.deepEqual([running?.taskState, running?.handleResult, running?.endTime], [1, null, ""]);
      assert.match(running?.handleTime ?? "", DATE);
      assert.equal((await held.scheduleOf(heldId))?.taskState, 1);
      // On the emulator with short steps, the run gets there by itself.
      const taskId = await runOnce("Search and like posts", { keyword: "cats", count: 3 });
      const done = await endedRun(taskId);
      assert.deepEqual([done?.taskState, done?.handleResult, done?.handleFailReason], [3, 1, ""]);
      assert.match(done?.endTime ?? "", DATE);
      const schedule = await scheduleOf(taskId);
      assert.deepEqual([schedule?.taskState, schedule?.successCount, schedule?.failCount, schedule?.notes], [2, 1, 0, "from a test"]);
      assert.deepEqual(dataOf(await local(`/subTask/detail/${done?.id}`, {})), done, "the detail is the same record");
    });

    it("fails (4, handleResult 0) when a variable the template requires is missing", async () => {
      const taskId = await runOnce("Post a TikTok video", { videoDescription: "no video given" }, 1);
      const run = await endedRun(taskId);
      assert.deepEqual([run?.taskState, run?.handleResult, run?.handleFailReason], [4, 0, "Required template parameter missing: videoDownloadUrl"]);
      assert.deepEqual([(await scheduleOf(taskId))?.taskState, (await scheduleOf(taskId))?.failCount], [2, 1]);
    });

    it("runs a template without variables when no templateParameter is sent", async () => {
      const id = (await template("Open the app store")).id;
      const taskId = dataOf<number>(await local("/onceTask/save", { cloudPhoneId: Number(phone(2).id), scheduleName: "store", templateId: Number(id) }));
      assert.equal((await endedRun(taskId)).taskState, 3);
    });

    it("refuses missing fields (99001), malformed templateParameter and an unknown phone (HTTP 400), an unknown template (HTTP 404)", async () => {
      const templateId = (await template("Search and like posts")).id;
      const full = { cloudPhoneId: phone(0).id, scheduleName: "x", templateId, templateParameter: "{}" };
      for (const field of ["cloudPhoneId", "scheduleName", "templateId"] as const) {
        const { [field]: _, ...body } = full;
        expectError(await local("/onceTask/save", body), 200, 99001, `Request parameter error: ${field} is required`);
      }
      for (const templateParameter of ["{not json", "[1,2]", '"text"']) {
        expectError(await local("/onceTask/save", { ...full, templateParameter }), 400, 400, "Malformed JSON in templateParameter");
      }
      expectError(await local("/onceTask/save", { ...full, templateParameter: { keyword: "x" } }), 200, 99001, "Request parameter error: templateParameter must be a string");
      expectError(await local("/onceTask/save", { ...full, cloudPhoneId: UNKNOWN }), 400, 400, "Invalid cloudPhoneId");
      expectError(await local("/onceTask/save", { ...full, templateId: UNKNOWN }), 404, 404, "Template not found");
      const runs = dataOf<PageShape<RunItem>>(await local("/subTask/page", { taskName: "x", pageSize: 100 })).dataList;
      assert.ok(!runs.some((r) => r.taskName === "x"), "a refused request starts no run");
    });
  });

  describe("cancelling", () => {
    it("/subTask/cancel/{id} queues a cancel: the waiting run ends cancelled (5) within a step, and the schedule completes", async () => {
      // The call itself, on a run that stays waiting.
      const heldId = await held.runOnce("Warm up: scroll the feed", { minutes: 5 });
      const [waiting] = await held.runsOf(heldId);
      assert.ok(waiting);
      assert.equal(dataOf(await held.local(`/subTask/cancel/${waiting.id}`, { id: waiting.id })), null);
      assert.equal((await held.runsOf(heldId))[0]?.taskState, 0, "no state is written by the call");
      // Where steps come by themselves, the cancelled run ends at its next one.
      const taskId = await runOnce("Warm up: scroll the feed", { minutes: 5 });
      const [run] = await runsOf(taskId);
      assert.ok(run);
      assert.equal(dataOf(await local(`/subTask/cancel/${run.id}`, { id: run.id })), null);
      const cancelled = await endedRun(taskId);
      assert.deepEqual([cancelled.taskState, cancelled.handleResult], [5, null]);
      assert.equal((await scheduleOf(taskId))?.taskState, 2);
      assert.equal(dataOf(await local(`/subTask/cancel/${run.id}`, { id: run.id })), null, "cancelling again does nothing");
    });

    it("/subTask/cancel/{id} stops a running run at its next step instead of letting it succeed", async () => {
      const taskId = await held.runOnce("Search and like posts", { keyword: "dogs" });
      const [waiting] = await held.runsOf(taskId);
      assert.ok(waiting && heldEmulator().stepAutomationRun(waiting.id));
      const [run] = await held.runsOf(taskId);
      assert.equal(run?.taskState, 1);
      dataOf(await held.local(`/subTask/cancel/${run?.id}`, { id: run?.id }));
      assert.equal((await held.runsOf(taskId))[0]?.taskState, 1, "still running until its next step");
      assert.ok(heldEmulator().stepAutomationRun(run?.id ?? ""));
      assert.deepEqual([(await held.runsOf(taskId))[0]?.taskState, (await held.scheduleOf(taskId))?.successCount], [5, 0]);
    });

    it("/subTask/cancel/{id} refuses a finished run, an unknown one and a missing body id (99001)", async () => {
      const taskId = await runOnce("Search and like posts", { keyword: "fish" });
      const run = await endedRun(taskId);
      assert.equal(run.taskState, 3);
      expectError(await local(`/subTask/cancel/${run?.id}`, { id: run?.id }), 200, 99001, `Request parameter error: execution ${run?.id} has finished and cannot be cancelled`);
      expectError(await local(`/subTask/cancel/${UNKNOWN}`, { id: UNKNOWN }), 200, 99001, `Request parameter error: execution ${UNKNOWN} does not exist`);
      expectError(await local(`/subTask/cancel/${run?.id}`, {}), 200, 99001, "Request parameter error: id is required");
      expectError(await local(`/subTask/detail/${UNKNOWN}`, {}), 200, 99001, `Request parameter error: execution ${UNKNOWN} does not exist`);
      expectError(await local("/subTask/detail/abc", {}), 200, 99001, "Request parameter error: the path must end in a numeric execution ID");
      expectError(await local("/subTask/detail/", {}), 404, 404);
    });

    it("/task/cancel marks the schedule cancelled (3) at once and ends its waiting runs cancelled; again does nothing", async () => {
      // "At once" on a run that is surely still waiting.
      const heldId = await held.runOnce("Warm up: scroll the feed", { minutes: 1 });
      assert.equal((await held.runsOf(heldId))[0]?.taskState, 0);
      assert.equal(dataOf(await held.local("/task/cancel", { id: String(heldId) })), null);
      assert.equal((await held.scheduleOf(heldId))?.taskState, 3);
      assert.equal((await held.runsOf(heldId))[0]?.taskState, 5);
      // With the clock past every step the run had, nothing runs after the cancel.
      heldEmulator().advanceClock(HELD_STEP_MS * 3);
      assert.deepEqual([(await held.scheduleOf(heldId))?.taskState, (await held.runsOf(heldId))[0]?.taskState], [3, 5], "nothing runs after the cancel");
      assert.equal(dataOf(await held.local("/task/cancel", { id: heldId })), null);
    });

    it("/task/cancel refuses a finished schedule, an unknown one and a missing id (99001)", async () => {
      const taskId = await runOnce("Open the app store", {});
      await waitUntil(
        () => scheduleOf(taskId),
        (schedule) => schedule?.taskState === 2,
        "the schedule completes",
        15_000,
      );
      expectError(await local("/task/cancel", { id: taskId }), 200, 99001, `Request parameter error: schedule ${taskId} has finished and cannot be cancelled`);
      expectError(await local("/task/cancel", { id: UNKNOWN }), 200, 99001, `Request parameter error: schedule ${UNKNOWN} does not exist`);
      expectError(await local("/task/cancel", {}), 200, 99001, "Request parameter error: id is required");
    });
  });

  describe("schedules (/task/save)", () => {
    const scheduleBody = async (overrides: Record<string, unknown> = {}) => ({
      taskName: "Nightly likes",
      templateId: (await template("Search and like posts")).id,
      templateType: "MARKET",
      taskType: "SCHEDULED",
      notes: "every night",
      cloudPhoneConfigs: [
        { cloudPhoneId: phone(0).id, triggerTime: utc(Date.now() - 1000), templateParameter: '{"keyword":"a"}' },
        { cloudPhoneId: phone(3).id, triggerTime: new Date(Date.now() + 60_000).toISOString(), templateParameter: '{"keyword":"b"}' },
      ],
      scheduleConfig: { scheduleType: "ONCE", endTime: utc(Date.now() + 3_600_000) },
      ...overrides,
    });

    it("runs each phone's run at its trigger time: one due now runs, one due later waits", async () => {
      const taskId = dataOf<number>(await local("/task/save", await scheduleBody()));
      const schedule = await scheduleOf(taskId);
      assert.deepEqual(
        [schedule?.taskName, schedule?.notes, schedule?.templateTitle, JSON.parse(schedule?.scheduleConfig ?? "null")],
        ["Nightly likes", "every night", "Search and like posts", { scheduleType: "ONCE" }],
      );
      // Waiting, or (STEP_MS after the save, which a busy machine can take to read it back) running the run due now.
      assert.ok([0, 1].includes(schedule?.taskState ?? -1), `taskState ${schedule?.taskState}: neither waiting nor running`);
      assert.deepEqual(
        schedule?.taskPreviewTimeTable.map((p) => [p.cloudPhoneId, p.cloudPhoneName, p.times.length]),
        [
          [phone(0).id, phone(0).envName, 1],
          [phone(3).id, phone(3).envName, 1],
        ],
      );
      await endedRun(taskId);
      const runs = await runsOf(taskId);
      assert.deepEqual(
        runs.map((r) => [r.cloudPhoneId, r.taskState]),
        [
          [phone(0).id, 3],
          [phone(3).id, 0],
        ],
      );
      assert.equal((await scheduleOf(taskId))?.taskState, 0, "still waiting for its second run");
      dataOf(await local("/task/cancel", { id: taskId }));
      assert.deepEqual(
        (await runsOf(taskId)).map((r) => r.taskState),
        [3, 5],
      );
    });

    it("a DAILY schedule names its next trigger while it is before the end time", async () => {
      const body = await scheduleBody({
        scheduleConfig: { scheduleType: "DAILY", endTime: utc(Date.now() + 3 * 86_400_000) },
        cloudPhoneConfigs: [{ cloudPhoneId: phone(1).id, triggerTime: utc(Date.now() + 3_600_000), templateParameter: '{"keyword":"c"}' }],
      });
      const taskId = dataOf<number>(await local("/task/save", body));
      const [run] = await runsOf(taskId);
      assert.equal(run?.triggerNextTime, utc(Date.parse(`${run?.triggerTime.replace(" ", "T")}Z`) + 86_400_000));
      dataOf(await local("/task/cancel", { id: taskId }));
    });

    it("refuses missing or invalid fields (99001), bad templateParameter and unknown phones (400), an unknown or mistyped template (404)", async () => {
      const body = await scheduleBody();
      for (const field of ["cloudPhoneConfigs", "scheduleConfig", "taskName", "taskType", "templateId", "templateType"] as const) {
        const { [field]: _, ...rest } = body;
        expectError(await local("/task/save", rest), 200, 99001, `Request parameter error: ${field} is required`);
      }
      const [config] = body.cloudPhoneConfigs;
      for (const field of ["cloudPhoneId", "triggerTime", "templateParameter"] as const) {
        const { [field]: _, ...rest } = config ?? {};
        expectError(await local("/task/save", { ...body, cloudPhoneConfigs: [rest] }), 200, 99001, `Request parameter error: cloudPhoneConfigs[0].${field} is required`);
      }
      expectError(await local("/task/save", { ...body, scheduleConfig: { endTime: utc(Date.now()) } }), 200, 99001, "Request parameter error: scheduleConfig.scheduleType is required");
      // MoreLogin's own n8n node sends `ScheduleType`; the API names it `scheduleType`.
      expectError(
        await local("/task/save", { ...body, scheduleConfig: { endTime: utc(Date.now()), ScheduleType: "ONCE" } }),
        200,
        99001,
        "Request parameter error: scheduleConfig.scheduleType is required",
      );
      expectError(await local("/task/save", { ...body, scheduleConfig: { scheduleType: "ONCE" } }), 200, 99001, "Request parameter error: scheduleConfig.endTime is required");
      expectError(
        await local("/task/save", { ...body, scheduleConfig: { scheduleType: "WEEKLY", endTime: utc(Date.now()) } }),
        200,
        99001,
        "Request parameter error: scheduleConfig.scheduleType must be one of ONCE, DAILY",
      );
      expectError(await local("/task/save", { ...body, taskType: "LATER" }), 200, 99001, "Request parameter error: taskType must be one of TEMPORARY, SCHEDULED");
      expectError(await local("/task/save", { ...body, cloudPhoneConfigs: [] }), 200, 99001, "Request parameter error: cloudPhoneConfigs must be a non-empty array");
      expectError(await local("/task/save", { ...body, cloudPhoneConfigs: [{ ...config, triggerTime: "tomorrow" }] }), 200, 99001);
      expectError(await local("/task/save", { ...body, cloudPhoneConfigs: [{ ...config, templateParameter: "{" }] }), 400, 400, "Malformed JSON in templateParameter");
      expectError(await local("/task/save", { ...body, cloudPhoneConfigs: [{ ...config, cloudPhoneId: UNKNOWN }] }), 400, 400, "Invalid cloudPhoneId");
      expectError(await local("/task/save", { ...body, templateType: "PERSONAL" }), 404, 404, "Template not found");
      expectError(await local("/task/save", { ...body, templateId: UNKNOWN }), 404, 404, "Template not found");
    });
  });

  // On the held emulator: the runs these tests look at stay waiting (0) however long the requests take.
  describe("lists", () => {
    it("/task/page and /subTask/page filter by their fields", async () => {
      const taskId = await held.runOnce("Open the app store", {}, 2);
      const pageOf = async (path: string, body: unknown): Promise<string[]> =>
        dataOf<PageShape<{ id: string }>>(await held.local(path, { pageSize: 100, ...(body as object) })).dataList.map((i) => i.id);
      assert.ok((await pageOf("/task/page", { searchKey: "run open THE app" })).includes(String(taskId)), "searchKey matches the name, ignoring case");
      assert.ok((await pageOf("/task/page", { searchKey: "from a test" })).includes(String(taskId)), "searchKey matches the description");
      assert.ok((await pageOf("/task/page", { searchKey: "APP STORE" })).includes(String(taskId)), "searchKey matches the template title");
      assert.ok(!(await pageOf("/task/page", { searchKey: "no such schedule" })).includes(String(taskId)));
      assert.ok((await pageOf("/task/page", { taskState: 0 })).includes(String(taskId)));
      assert.ok(!(await pageOf("/task/page", { taskState: 2 })).includes(String(taskId)));
      assert.deepEqual(await pageOf("/task/page", { enabled: false }), []);
      const [run] = await held.runsOf(taskId);
      assert.ok(run);
      for (const filter of [
        { cloudPhoneId: held.phone(2).id },
        { cloudPhoneName: held.phone(2).envName },
        { templateTitle: "app store" },
        { taskName: "Run Open" },
        { taskState: 0 },
        { beginTime: run.triggerTime, endTime: run.triggerTime },
      ]) {
        assert.ok((await pageOf("/subTask/page", filter)).includes(run.id), JSON.stringify(filter));
      }
      for (const filter of [{ cloudPhoneId: held.phone(3).id }, { templateTitle: "TikTok" }, { taskState: 3 }, { beginTime: utc(Date.now() + 86_400_000) }, { templateId: UNKNOWN }]) {
        assert.ok(!(await pageOf("/subTask/page", filter)).includes(run.id), JSON.stringify(filter));
      }
      const all = dataOf<PageShape<RunItem>>(await held.local("/subTask/page", { pageNo: 1, pageSize: 2 }));
      assert.equal(all.dataList.length, 2);
      assert.equal(all.pages, String(Math.ceil(Number(all.total) / 2)));
    });
  });

  it("serves the same automation on the Open API, sharing its runs with the Local API", async () => {
    const auth = await bearer(heldEmulator());
    const open = (path: string, body: unknown) => call(heldEmulator().openUrl, `/cloudphone/rpa${path}`, { body, headers: auth });
    const market = dataOf<PageShape<TemplateItem>>(await open("/template/market/page", { pageNo: 1, pageSize: 10 }));
    assert.deepEqual(market, await held.templates("market", { pageNo: 1, pageSize: 10 }));
    const personal = dataOf<PageShape<TemplateItem>>(await open("/template/personal/page", {}));
    assert.equal(personal.total, "2");
    const taskId = dataOf<number>(await open("/onceTask/save", { cloudPhoneId: Number(held.phone(3).id), scheduleName: "open api", templateId: Number(market.dataList[3]?.id) }));
    const openRuns = dataOf<PageShape<RunItem>>(await open("/subTask/page", { taskId: String(taskId) })).dataList;
    assert.deepEqual(openRuns, await held.runsOf(taskId));
    assert.ok(dataOf<PageShape<ScheduleItem>>(await open("/task/page", {})).dataList.some((s) => s.id === String(taskId)));
    assert.deepEqual(dataOf(await open(`/subTask/detail/${openRuns[0]?.id}`, {})), openRuns[0]);
    dataOf(await open(`/subTask/cancel/${openRuns[0]?.id}`, { id: openRuns[0]?.id }));
    dataOf(await open("/task/cancel", { id: taskId }));
    expectError(await open("/task/save", {}), 200, 99001);
    expectError(await call(heldEmulator().openUrl, "/cloudphone/rpa/task/page", { body: {} }), 401, 401);
  });
});
