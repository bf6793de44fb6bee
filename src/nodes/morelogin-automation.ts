import type { NodeAPI } from "node-red";
import { ENDPOINTS, MoreLoginError, MoreLoginInputError, fetchAll, isPlainObjectValue, pathOn, type PagedEndpointName } from "../client";
import { registerActionNode, type ActionContext, type ActionRun } from "./lib/shell/action-node";
import { succeeded, waitForRuns } from "./lib/automation/runs";
import type { AUTOMATION_ACTIONS } from "./lib/declarations/automation";
import { NODE_DECLARATIONS } from "./lib/declarations/node-declarations";
import { single } from "./lib/shell/output";
import { namesPhones, phoneIds } from "./lib/cloud-phone/target";
import { idsOf } from "./lib/profile/ids";
import { isDecimalId } from "./lib/profile/body";
import { overlay } from "./lib/shell/properties";

const declaration = NODE_DECLARATIONS["morelogin-automation"];

/** `parameters` as the API's `templateParameter`: the JSON text of an object. */
function templateParameter(value: unknown): string {
  if (value === undefined || value === "") return "{}";
  const parsed = typeof value === "string" ? parseJson(value) : value;
  if (!isPlainObjectValue(parsed)) throw new MoreLoginInputError('parameters must be an object, or JSON text of one, such as {"keyword": "shoes"}');
  return JSON.stringify(parsed);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new MoreLoginInputError(`parameters is not valid JSON: ${text.length > 60 ? `${text.slice(0, 60)}…` : text}`);
  }
}

/** The name MoreLogin shows for runs and schedules this node makes. */
function scheduleName(fields: Record<string, unknown>, { def }: ActionContext): string {
  if (typeof fields.scheduleName === "string" && fields.scheduleName !== "") return fields.scheduleName;
  return typeof def.name === "string" && def.name !== "" ? def.name : "Node-RED";
}

function requireField(fields: Record<string, unknown>, name: string, action: string): unknown {
  if (fields[name] === undefined) throw new MoreLoginInputError(`${action} needs ${name}: set it in the node or send it in msg.payload`);
  return fields[name];
}

/** Every page of a list, with msg.payload's fields as filters; msg.payload becomes the array of items. */
function listAll(endpoint: (context: ActionContext) => PagedEndpointName, own: (context: ActionContext) => Record<string, unknown> = () => ({})): ActionRun {
  return async (context) => {
    const { msg, client, options, api } = context;
    const name = endpoint(context);
    const query = isPlainObjectValue(msg.payload) ? overlay(own(context), msg.payload) : own(context);
    const collected = await fetchAll(client, name, query, { ...options, api });
    return {
      messages: single(msg, collected.items, {
        api,
        path: pathOn(ENDPOINTS[name], api) ?? "",
        requestId: collected.requestId,
        pages: collected.pagesFetched,
        ...(collected.truncated ? { truncated: true } : {}),
      }),
      summary: context.t("morelogin.status.items", { count: collected.items.length }),
    };
  };
}

/** The node's fields, with msg.payload's laid over them when it is an object that does not name phones. */
function withPayload({ fields, msg }: ActionContext): Record<string, unknown> {
  return isPlainObjectValue(msg.payload) && !namesPhones(msg.payload) ? overlay(fields, msg.payload) : fields;
}

/** The node's own field names: in an object msg.payload they set the node's fields, and are not API fields. */
const NODE_FIELDS = new Set(declaration.fields.map((field) => field.name));

function withoutNodeFields(payload: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(payload).filter(([name]) => !NODE_FIELDS.has(name)));
}

/** The phones: msg.payload when it names them, else `cloudPhoneId` or `phoneId` (the node's or msg.payload's). */
function phonesOf(context: ActionContext, fields: Record<string, unknown>): string[] {
  const payload = context.msg.payload;
  return phoneIds(fields.cloudPhoneId ?? fields.phoneId, namesPhones(payload) ? payload : undefined, "cloudPhoneId", context.t).ids;
}

const ACTIONS = {
  templates: listAll(({ def }) => (def.source === "personal" ? "personalTemplates" : "marketTemplates")),

  /** One run per phone, in order; with `wait`, each run's result. */
  async runOnce(context: ActionContext) {
    const { client, options, api, msg, def, t } = context;
    const fields = withPayload(context);
    const templateId = requireField(fields, "templateId", "runOnce");
    const ids = phonesOf(context, fields);
    const base = {
      templateId,
      scheduleName: scheduleName(fields, context),
      templateParameter: templateParameter(fields.parameters),
      ...(fields.description === undefined ? {} : { description: fields.description }),
    };
    const callOptions = { ...options, api };
    const taskIds: string[] = [];
    let last: { api: string; path: string; requestId?: string } = { api, path: pathOn(ENDPOINTS.runTemplateOnce, api) ?? "" };
    for (const cloudPhoneId of ids) {
      try {
        const result = await client.call("runTemplateOnce", { ...base, cloudPhoneId }, callOptions);
        taskIds.push(String(result.data));
        last = result;
      } catch (error) {
        if (taskIds.length === 0 || !(error instanceof MoreLoginError)) throw error;
        // The earlier phones' runs exist: say which, so a flow does not start them twice.
        throw new MoreLoginError(error.kind, `${error.message} (on phone ${cloudPhoneId}; runs already started: ${taskIds.join(", ")})`, error);
      }
    }
    const one = ids.length === 1 && !Array.isArray(msg.payload);
    if (ids.length === 1) msg.topic = ids[0];
    if (def.wait !== true) {
      return { messages: single(msg, one ? taskIds[0] : taskIds, { api, path: last.path, requestId: last.requestId }), summary: t("morelogin-automation.status.started", { count: taskIds.length }) };
    }
    const runs = await waitForRuns(client, callOptions, taskIds);
    const ok = runs.filter(succeeded).length;
    return {
      messages: single(msg, one ? runs[0] : runs, { api, path: last.path, requestId: last.requestId }),
      summary: t("morelogin-automation.status.ended", { ok, failed: runs.length - ok }),
    };
  },

  async schedule(context: ActionContext) {
    const { client, options, api, msg, def, t } = context;
    const fields = withPayload(context);
    // msg.payload may hold the API's own fields (its cloudPhoneConfigs, say): they win, as for every
    // node. The node's own fields it sets (phoneId, triggerTime, ...) are read above, not sent.
    const given = isPlainObjectValue(msg.payload) && !namesPhones(msg.payload) ? withoutNodeFields(msg.payload) : {};
    const body: Record<string, unknown> = {
      taskName: scheduleName(fields, context),
      taskType: "SCHEDULED",
      templateId: requireField(fields, "templateId", "schedule"),
      templateType: def.source === "personal" ? "PERSONAL" : "MARKET",
    };
    if (given.scheduleConfig === undefined) body.scheduleConfig = { scheduleType: def.repeat === "DAILY" ? "DAILY" : "ONCE", endTime: requireField(fields, "endTime", "schedule") };
    if (given.cloudPhoneConfigs === undefined) {
      const triggerTime = requireField(fields, "triggerTime", "schedule");
      const templateParameterText = templateParameter(fields.parameters);
      body.cloudPhoneConfigs = phonesOf(context, fields).map((cloudPhoneId) => ({ cloudPhoneId, triggerTime, templateParameter: templateParameterText }));
    }
    const result = await client.call("scheduleTemplate", overlay(body, given), { ...options, api });
    return { messages: single(msg, String(result.data), { api: result.api, path: result.path, requestId: result.requestId }), summary: t("morelogin-automation.status.scheduled") };
  },

  tasks: listAll(() => "automationTasks"),
  // A schedule's ID as msg.payload (what runOnce sends without wait) lists that schedule's runs.
  runs: listAll(
    () => "automationRuns",
    ({ fields, msg }) => {
      const taskId = isDecimalId(msg.payload) ? msg.payload.trim() : fields.taskId;
      return taskId === undefined ? {} : { taskId };
    },
  ),

  async cancel(context: ActionContext) {
    const { client, options, api, msg, fields, t } = context;
    const ids = isDecimalId(msg.payload) ? idsOf(msg.payload, "msg.payload", t) : idsOf(fields.taskId, "taskId", t);
    if (ids.length > 1) throw new MoreLoginInputError(`cancel takes one schedule at a time, got ${ids.length} IDs: split them into one message each`);
    const body = isPlainObjectValue(msg.payload) ? overlay(ids.length === 1 ? { id: ids[0] } : {}, msg.payload) : { id: ids[0] };
    if (body.id === undefined) throw new MoreLoginInputError("cancel needs the schedule's ID: set Task ID in the node, or send it as msg.payload");
    const result = await client.call("cancelAutomationTask", body, { ...options, api });
    msg.topic = String(body.id);
    return { messages: single(msg, result.data, { api: result.api, path: result.path, requestId: result.requestId }), summary: t("morelogin-automation.status.cancelled") };
  },
} satisfies Record<(typeof AUTOMATION_ACTIONS)[number], ActionRun>;

export = (RED: NodeAPI): void => {
  registerActionNode(RED, declaration, ACTIONS);
};
