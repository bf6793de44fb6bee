import type { EndpointDefinition } from "./endpoint-definition";
import type { AutomationRun, AutomationTask, AutomationTemplate, Page } from "./types";

/** Cloud-phone automation (RPA): the same paths on both APIs, under /api/cloudphone/rpa and /cloudphone/rpa. */
export const AUTOMATION_ENDPOINTS = {
  marketTemplates: {
    api: "local",
    method: "POST",
    path: "/api/cloudphone/rpa/template/market/page",
    twinPath: "/cloudphone/rpa/template/market/page",
    idempotency: "read",
    pageField: "pageNo",
  },
  personalTemplates: {
    api: "local",
    method: "POST",
    path: "/api/cloudphone/rpa/template/personal/page",
    twinPath: "/cloudphone/rpa/template/personal/page",
    idempotency: "read",
    pageField: "pageNo",
  },
  runTemplateOnce: {
    api: "local",
    method: "POST",
    path: "/api/cloudphone/rpa/onceTask/save",
    twinPath: "/cloudphone/rpa/onceTask/save",
    idempotency: "write",
    idFields: ["cloudPhoneId", "templateId"],
    required: ["cloudPhoneId", "scheduleName", "templateId"],
  },
  scheduleTemplate: {
    api: "local",
    method: "POST",
    path: "/api/cloudphone/rpa/task/save",
    twinPath: "/cloudphone/rpa/task/save",
    idempotency: "write",
    idFields: ["templateId"],
    required: ["cloudPhoneConfigs", "scheduleConfig", "taskName", "taskType", "templateId", "templateType"],
  },
  automationTasks: { api: "local", method: "POST", path: "/api/cloudphone/rpa/task/page", twinPath: "/cloudphone/rpa/task/page", idempotency: "read", pageField: "pageNo" },
  cancelAutomationTask: {
    api: "local",
    method: "POST",
    path: "/api/cloudphone/rpa/task/cancel",
    twinPath: "/cloudphone/rpa/task/cancel",
    idempotency: "write",
    idFields: ["id"],
    required: ["id"],
  },
  automationRuns: {
    api: "local",
    method: "POST",
    path: "/api/cloudphone/rpa/subTask/page",
    twinPath: "/cloudphone/rpa/subTask/page",
    idempotency: "read",
    pageField: "pageNo",
    idFields: ["taskId", "templateId", "cloudPhoneId"],
  },
} as const satisfies Record<keyof AutomationEndpointData, EndpointDefinition>;

/** What each of these endpoints' `data` holds. */
export interface AutomationEndpointData {
  marketTemplates: Page<AutomationTemplate>;
  personalTemplates: Page<AutomationTemplate>;
  runTemplateOnce: number | string;
  scheduleTemplate: number | string;
  automationTasks: Page<AutomationTask>;
  cancelAutomationTask: null;
  automationRuns: Page<AutomationRun>;
}
