import { templateItem, type Template, type TemplateSource } from "./automation-data";
import type { PhoneConfig, Run, Schedule, ScheduleType } from "./automation-state";
import { CODES } from "./codes";
import { formatUtc, parseUtc } from "./dates";
import { pageOf, readPageRequest } from "./paging";
import { matchingAll, whenSent } from "./list-filter";
import { fail, isReply, ok, type Reply } from "./replies";
import { containsIgnoringCase, ParamError, readBoolean, readId, readInteger, readObject, readString, readText, requireFields, requireId, requireText, type Body } from "./request-fields";
import { PATH_ID, type Route } from "./routes";
import type { EmulatorState } from "./state";
import { MEMBER_NAME } from "./team";
import type { ApiName } from "./types";

/** Cloud-phone automation (RPA): the same paths and shapes on both APIs, under `/cloudphone/rpa`. */

/** The "Call Template via HTTP" guide: HTTP 400 for an invalid cloudPhoneId or malformed templateParameter. */
const invalid = (what: string): Reply => fail(CODES.invalidRequest, what, 400);
/** The same guide: HTTP 404 when the templateId does not exist. */
const templateNotFound = (): Reply => fail(CODES.notFound, "Template not found", 404);

/** A `templateParameter` string holding a JSON object; undefined when it is not one. */
function parametersOf(text: string | undefined): Record<string, unknown> | undefined {
  if (text === undefined || text.trim() === "") return {};
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function templatePage(state: EmulatorState, body: Body, source: TemplateSource): Reply {
  const page = readPageRequest(body, state.options.maxPageSize);
  const matches = matchingAll<Template>([
    (t) => t.source === source,
    whenSent(readText(body, "searchKey"), (t, searchKey) => containsIgnoringCase(t.title, searchKey)),
    whenSent(source === "PERSONAL" ? readText(body, "desc") : undefined, (t, desc) => containsIgnoringCase(t.description, desc)),
  ]);
  return ok(pageOf(state.automation.templates.filter(matches).map(templateItem), page));
}

function saveOnce(state: EmulatorState, body: Body): Reply {
  requireFields(body, ["cloudPhoneId", "scheduleName", "templateId"]);
  const cloudPhoneId = requireId(body, "cloudPhoneId");
  const scheduleName = requireText(body, "scheduleName");
  const templateId = requireId(body, "templateId");
  const notes = readString(body, "description") ?? "";
  const parameters = parametersOf(readString(body, "templateParameter"));
  if (!parameters) return invalid("Malformed JSON in templateParameter");
  const template = state.automation.template(templateId);
  if (!template) return templateNotFound();
  const phone = state.automation.phone(cloudPhoneId);
  if (!phone) return invalid("Invalid cloudPhoneId");
  const schedule = state.automation.create({ taskName: scheduleName, notes, template, scheduleType: "ONCE", configs: [{ phone, parameters, triggerMs: Date.now() }] });
  return ok(Number(schedule.id));
}

/** One of the spec's enumerated strings, required. */
function choice<T extends string>(body: Body, name: string, allowed: readonly T[], owner = ""): T {
  const value = readText(body, name);
  if (value === undefined) throw new ParamError(`${owner}${name} is required`);
  if (!(allowed as readonly string[]).includes(value)) throw new ParamError(`${owner}${name} must be one of ${allowed.join(", ")}`);
  return value as T;
}

function requiredTime(body: Body, name: string, owner: string): number {
  const text = readText(body, name);
  if (text === undefined) throw new ParamError(`${owner}${name} is required`);
  const ms = parseUtc(text);
  if (ms === undefined) throw new ParamError(`${owner}${name} must be a date-time ("yyyy-MM-dd HH:mm:ss" or ISO 8601)`);
  return ms;
}

function phoneConfigs(state: EmulatorState, body: Body): PhoneConfig[] | Reply {
  const list = body.cloudPhoneConfigs;
  if (!Array.isArray(list) || list.length === 0) throw new ParamError("cloudPhoneConfigs must be a non-empty array");
  const configs: PhoneConfig[] = [];
  for (const [i, item] of list.entries()) {
    const owner = `cloudPhoneConfigs[${i}].`;
    const config = readObject({ item }, "item");
    if (!config) throw new ParamError(`${owner.slice(0, -1)} must be an object`);
    for (const name of ["cloudPhoneId", "triggerTime", "templateParameter"]) {
      if (config[name] === undefined || config[name] === null) throw new ParamError(`${owner}${name} is required`);
    }
    const cloudPhoneId = requireId(config, "cloudPhoneId");
    const triggerMs = requiredTime(config, "triggerTime", owner);
    const parameters = parametersOf(readString(config, "templateParameter"));
    if (!parameters) return invalid("Malformed JSON in templateParameter");
    const phone = state.automation.phone(cloudPhoneId);
    if (!phone) return invalid("Invalid cloudPhoneId");
    configs.push({ phone, parameters, triggerMs });
  }
  return configs;
}

function saveSchedule(state: EmulatorState, body: Body): Reply {
  requireFields(body, ["cloudPhoneConfigs", "scheduleConfig", "taskName", "taskType", "templateId", "templateType"]);
  const taskName = requireText(body, "taskName");
  choice(body, "taskType", ["TEMPORARY", "SCHEDULED"]);
  const templateType = choice(body, "templateType", ["PERSONAL", "MARKET"] as const);
  const templateId = requireId(body, "templateId");
  const notes = readString(body, "notes") ?? "";
  const config = readObject(body, "scheduleConfig") ?? {};
  const scheduleType = choice<ScheduleType>(config, "scheduleType", ["ONCE", "DAILY"], "scheduleConfig.");
  const endMs = requiredTime(config, "endTime", "scheduleConfig.");
  const configs = phoneConfigs(state, body);
  if (isReply(configs)) return configs;
  const template = state.automation.template(templateId, templateType);
  if (!template) return templateNotFound();
  const schedule = state.automation.create({ taskName, notes, template, scheduleType, ...(scheduleType === "DAILY" ? { endMs } : {}), configs });
  return ok(Number(schedule.id));
}

function scheduleItem(schedule: Schedule): Record<string, unknown> {
  return {
    id: schedule.id,
    taskName: schedule.taskName,
    createMember: MEMBER_NAME,
    enabled: true,
    endTime: schedule.endTime,
    failCount: schedule.failCount,
    handleTime: schedule.handleTime,
    notes: schedule.notes,
    scheduleConfig: JSON.stringify({ scheduleType: schedule.scheduleType }),
    successCount: schedule.successCount,
    taskPreviewTimeTable: schedule.preview,
    taskState: schedule.taskState,
    templateId: schedule.template.id,
    templateTitle: schedule.template.title,
  };
}

function schedulePage(state: EmulatorState, body: Body): Reply {
  const page = readPageRequest(body, state.options.maxPageSize);
  const matches = matchingAll<Schedule>([
    // Every schedule here is enabled, so `enabled: false` matches none.
    whenSent(readBoolean(body, "enabled"), (_s, enabled) => enabled),
    whenSent(readText(body, "searchKey"), (s, searchKey) => [s.taskName, s.notes, s.template.title].some((text) => containsIgnoringCase(text, searchKey))),
    whenSent(readInteger(body, "taskState"), (s, taskState) => s.taskState === taskState),
  ]);
  return ok(pageOf(state.automation.schedules.filter(matches).map(scheduleItem), page));
}

/** The spec's ExecutionDTO; times not reached yet are "". */
function runItem(run: Run): Record<string, unknown> {
  return {
    id: run.id,
    taskName: run.schedule.taskName,
    taskState: run.taskState,
    cloudPhoneId: run.phone.phone.id,
    cloudPhoneName: run.phone.phone.envName,
    templateName: run.schedule.template.title,
    handleFailCode: "",
    handleFailReason: run.handleFailReason,
    handleResult: run.handleResult,
    handleResultAttachment: "",
    handleTime: run.handleTime,
    endTime: run.endTime,
    powerOnTime: run.handleTime,
    triggerNextTime: run.triggerNextTime,
    triggerTime: formatUtc(run.triggerMs),
    createDate: run.createDate,
    createMember: MEMBER_NAME,
    updateDate: run.updateDate,
    updateMember: MEMBER_NAME,
  };
}

function runPage(state: EmulatorState, body: Body): Reply {
  const page = readPageRequest(body, state.options.maxPageSize);
  const matches = matchingAll<Run>([
    whenSent(readId(body, "taskId"), (run, taskId) => run.schedule.id === taskId),
    whenSent(readId(body, "templateId"), (run, templateId) => run.schedule.template.id === templateId),
    whenSent(readId(body, "cloudPhoneId"), (run, cloudPhoneId) => run.phone.phone.id === cloudPhoneId),
    whenSent(readInteger(body, "taskState"), (run, taskState) => run.taskState === taskState),
    whenSent(readText(body, "taskName"), (run, taskName) => containsIgnoringCase(run.schedule.taskName, taskName)),
    whenSent(readText(body, "templateTitle"), (run, templateTitle) => containsIgnoringCase(run.schedule.template.title, templateTitle)),
    whenSent(readText(body, "cloudPhoneName"), (run, cloudPhoneName) => containsIgnoringCase(run.phone.phone.envName, cloudPhoneName)),
    whenSent(readText(body, "beginTime"), (run, beginTime) => formatUtc(run.triggerMs) >= beginTime),
    whenSent(readText(body, "endTime"), (run, endTime) => formatUtc(run.triggerMs) <= endTime),
  ]);
  const items = state.automation.runs.filter(matches).map(runItem);
  return ok(pageOf(items, page));
}

/** The `{id}` of `/subTask/.../{id}`: a run's ID. */
function runOf(state: EmulatorState, pathId: string | undefined): Run {
  if (pathId === undefined || !/^\d{1,20}$/.test(pathId)) throw new ParamError("the path must end in a numeric execution ID");
  const run = state.automation.run(pathId);
  if (!run) throw new ParamError(`execution ${pathId} does not exist`);
  return run;
}

function cancelSchedule(state: EmulatorState, body: Body): Reply {
  const id = requireId(body, "id");
  const result = state.automation.cancelSchedule(id);
  if (result === "notFound") throw new ParamError(`schedule ${id} does not exist`);
  if (result === "finished") throw new ParamError(`schedule ${id} has finished and cannot be cancelled`);
  return ok(null);
}

/** The spec marks a body `id` required besides the one in the path; the path's names the run. */
function cancelRun(state: EmulatorState, body: Body, pathId: string | undefined): Reply {
  requireId(body, "id");
  const run = runOf(state, pathId);
  if (state.automation.cancelRun(run.id) === "finished") throw new ParamError(`execution ${run.id} has finished and cannot be cancelled`);
  return ok(null);
}

export function automationRoutes(state: EmulatorState, api: ApiName): Route[] {
  const base = api === "local" ? "/api/cloudphone/rpa" : "/cloudphone/rpa";
  const post = (path: string, handle: (body: Body, pathId?: string) => Reply): Route => ({
    method: "POST",
    path: `${base}${path}`,
    auth: true,
    handle: ({ body, pathId }) => handle(body, pathId),
  });
  return [
    post("/template/market/page", (body) => templatePage(state, body, "MARKET")),
    post("/template/personal/page", (body) => templatePage(state, body, "PERSONAL")),
    post("/onceTask/save", (body) => saveOnce(state, body)),
    post("/task/save", (body) => saveSchedule(state, body)),
    post("/task/page", (body) => schedulePage(state, body)),
    post("/task/cancel", (body) => cancelSchedule(state, body)),
    post("/subTask/page", (body) => runPage(state, body)),
    post(`/subTask/detail/${PATH_ID}`, (_body, pathId) => ok(runItem(runOf(state, pathId)))),
    post(`/subTask/cancel/${PATH_ID}`, (body, pathId) => cancelRun(state, body, pathId)),
  ];
}
