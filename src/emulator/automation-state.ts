import { makeTemplates, requiredVariables, type Template, type TemplateSource } from "./automation-data";
import { formatUtc } from "./dates";
import type { IdMint } from "./id-mint";
import type { ResolvedOptions } from "./options";
import type { PhoneEntry, PhoneRuntime } from "./phone-state";
import type { Timers } from "./timers";

/** A run's (execution's) taskState: the scale /rpa/subTask/page documents. */
export const RUN_STATE = { waiting: 0, running: 1, queued: 2, succeeded: 3, failed: 4, cancelled: 5 } as const;
/** A schedule's taskState: the scale /rpa/task/page documents. */
export const SCHEDULE_STATE = { waiting: 0, running: 1, completed: 2, cancelled: 3 } as const;

const DAY_MS = 86_400_000;
const ENDED: readonly number[] = [RUN_STATE.succeeded, RUN_STATE.failed, RUN_STATE.cancelled];

export type ScheduleType = "ONCE" | "DAILY";

export interface Schedule {
  id: string;
  taskName: string;
  notes: string;
  template: Template;
  scheduleType: ScheduleType;
  /** Last moment a DAILY schedule runs (ms); undefined for ONCE. */
  endMs?: number;
  taskState: number;
  handleTime: string;
  endTime: string;
  successCount: number;
  failCount: number;
  preview: { cloudPhoneId: string; cloudPhoneName: string; times: string[] }[];
}

export interface Run {
  id: string;
  schedule: Schedule;
  phone: PhoneEntry;
  parameters: Readonly<Record<string, unknown>>;
  triggerMs: number;
  taskState: number;
  handleResult: 0 | 1 | null;
  handleFailReason: string;
  handleTime: string;
  endTime: string;
  triggerNextTime: string;
  createDate: string;
  updateDate: string;
  cancelRequested: boolean;
  cancelTimer?: () => void;
}

export interface PhoneConfig {
  phone: PhoneEntry;
  parameters: Readonly<Record<string, unknown>>;
  triggerMs: number;
}

export interface NewSchedule {
  taskName: string;
  notes: string;
  template: Template;
  scheduleType: ScheduleType;
  endMs?: number;
  configs: readonly PhoneConfig[];
}

export type CancelResult = "ok" | "notFound" | "finished";

const now = (): string => formatUtc(Date.now());
const isMissing = (value: unknown): boolean => value === undefined || value === null || value === "";

/**
 * Automation schedules and their runs. A run waits (0) until its trigger time, and at least one
 * step; runs (1) for a step; then succeeds (3), or fails (4) when the template's required variables
 * were not all given. A cancel ends it as cancelled (5). A schedule is waiting (0) until a run starts,
 * running (1), then completed (2) when every run has ended, or cancelled (3).
 */
export class Automation {
  readonly templates: Template[];
  readonly schedules: Schedule[] = [];
  readonly runs: Run[] = [];
  private readonly runsById = new Map<string, Run>();

  constructor(
    private readonly phones: PhoneRuntime,
    private readonly options: Pick<ResolvedOptions, "seed" | "automationStepMs">,
    private readonly timers: Timers,
    private readonly ids: IdMint,
  ) {
    this.templates = makeTemplates(options.seed);
  }

  /** A team template wins over a marketplace one with the same ID (the spec's precedence). */
  template(id: string, source?: TemplateSource): Template | undefined {
    const matches = this.templates.filter((t) => t.id === id && (source === undefined || t.source === source));
    return matches.find((t) => t.source === "PERSONAL") ?? matches[0];
  }

  phone(id: string): PhoneEntry | undefined {
    return this.phones.get(id);
  }

  create(request: NewSchedule): Schedule {
    const schedule: Schedule = {
      id: this.ids.schedule(),
      taskName: request.taskName,
      notes: request.notes,
      template: request.template,
      scheduleType: request.scheduleType,
      ...(request.endMs === undefined ? {} : { endMs: request.endMs }),
      taskState: SCHEDULE_STATE.waiting,
      handleTime: "",
      endTime: "",
      successCount: 0,
      failCount: 0,
      preview: [],
    };
    this.schedules.push(schedule);
    for (const config of request.configs) {
      schedule.preview.push({ cloudPhoneId: config.phone.phone.id, cloudPhoneName: config.phone.phone.envName, times: [formatUtc(config.triggerMs)] });
      this.addRun(schedule, config);
    }
    return schedule;
  }

  run(id: string): Run | undefined {
    return this.runsById.get(id);
  }

  /** Marks the schedule cancelled at once; its waiting runs end now, a running one at its next step. */
  cancelSchedule(id: string): CancelResult {
    const schedule = this.schedules.find((s) => s.id === id);
    if (!schedule) return "notFound";
    if (schedule.taskState === SCHEDULE_STATE.cancelled) return "ok";
    if (schedule.taskState === SCHEDULE_STATE.completed) return "finished";
    schedule.taskState = SCHEDULE_STATE.cancelled;
    for (const run of this.runs) {
      if (run.schedule !== schedule || ENDED.includes(run.taskState)) continue;
      run.cancelRequested = true;
      if (run.taskState === RUN_STATE.waiting) this.end(run, RUN_STATE.cancelled);
    }
    return "ok";
  }

  /** Only queues the cancel (the spec: "no state is written by this call"); the run ends cancelled within a step. */
  cancelRun(id: string): CancelResult {
    const run = this.runsById.get(id);
    if (!run) return "notFound";
    if (run.taskState === RUN_STATE.cancelled) return "ok";
    if (ENDED.includes(run.taskState)) return "finished";
    run.cancelRequested = true;
    if (run.taskState === RUN_STATE.waiting) this.schedule(run, this.options.automationStepMs);
    return "ok";
  }

  /**
   * Test hook: the run takes the step its timer would take after automationStepMs (or at its trigger
   * time), now. False when there is no such run or it has ended.
   */
  stepNow(id: string): boolean {
    const run = this.runsById.get(id);
    if (!run || ENDED.includes(run.taskState)) return false;
    this.advance(run);
    return true;
  }

  private addRun(schedule: Schedule, config: PhoneConfig): void {
    const created = now();
    const run: Run = {
      id: this.ids.run(),
      schedule,
      phone: config.phone,
      parameters: config.parameters,
      triggerMs: config.triggerMs,
      taskState: RUN_STATE.waiting,
      handleResult: null,
      handleFailReason: "",
      handleTime: "",
      endTime: "",
      triggerNextTime: "",
      createDate: created,
      updateDate: created,
      cancelRequested: false,
    };
    const next = config.triggerMs + DAY_MS;
    if (schedule.scheduleType === "DAILY" && schedule.endMs !== undefined && next <= schedule.endMs) run.triggerNextTime = formatUtc(next);
    this.runs.push(run);
    this.runsById.set(run.id, run);
    this.schedule(run, Math.max(config.triggerMs - Date.now(), this.options.automationStepMs));
  }

  private schedule(run: Run, delayMs: number): void {
    run.cancelTimer?.();
    run.cancelTimer = this.timers.after(delayMs, () => this.advance(run));
  }

  private advance(run: Run): void {
    if (ENDED.includes(run.taskState)) return;
    if (run.cancelRequested) {
      this.end(run, RUN_STATE.cancelled);
    } else if (run.taskState === RUN_STATE.waiting) {
      run.taskState = RUN_STATE.running;
      run.handleTime = now();
      run.updateDate = run.handleTime;
      if (run.schedule.handleTime === "") run.schedule.handleTime = run.handleTime;
      this.refresh(run.schedule);
      this.schedule(run, this.options.automationStepMs);
    } else {
      const missing = requiredVariables(run.schedule.template).filter((key) => isMissing(run.parameters[key]));
      run.handleFailReason = missing.length === 0 ? "" : `Required template parameter missing: ${missing.join(", ")}`;
      this.end(run, missing.length === 0 ? RUN_STATE.succeeded : RUN_STATE.failed);
    }
  }

  private end(run: Run, state: number): void {
    run.cancelTimer?.();
    run.cancelTimer = undefined;
    run.taskState = state;
    run.endTime = now();
    run.updateDate = run.endTime;
    run.handleResult = state === RUN_STATE.succeeded ? 1 : state === RUN_STATE.failed ? 0 : null;
    const { schedule } = run;
    if (state === RUN_STATE.succeeded) schedule.successCount++;
    if (state === RUN_STATE.failed) schedule.failCount++;
    if (run.triggerNextTime !== "" && schedule.taskState !== SCHEDULE_STATE.cancelled) {
      // A DAILY schedule runs again on the next day, until its end time.
      const triggerMs = run.triggerMs + DAY_MS;
      schedule.preview.find((p) => p.cloudPhoneId === run.phone.phone.id)?.times.push(formatUtc(triggerMs));
      this.addRun(schedule, { phone: run.phone, parameters: run.parameters, triggerMs });
    }
    this.refresh(schedule);
  }

  /** A schedule that is not cancelled is running while a run runs, waiting while one waits, else completed. */
  private refresh(schedule: Schedule): void {
    if (schedule.taskState === SCHEDULE_STATE.cancelled) return;
    const states = this.runs.filter((r) => r.schedule === schedule).map((r) => r.taskState);
    if (states.includes(RUN_STATE.running)) schedule.taskState = SCHEDULE_STATE.running;
    else if (states.includes(RUN_STATE.waiting)) schedule.taskState = SCHEDULE_STATE.waiting;
    else if (schedule.taskState !== SCHEDULE_STATE.completed) {
      schedule.taskState = SCHEDULE_STATE.completed;
      schedule.endTime = now();
    }
  }
}
