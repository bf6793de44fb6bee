import type { AutomationRun, CallOptions, MoreLoginClient } from "../../../client";
import { seconds, waitUntil } from "../shell/wait";

/** A run's `taskState` (the cloud-phone spec's subTask list): 0 waiting, 1 running, 3 succeeded, 4 failed, 5 cancelled. */
const ENDED_STATES = new Set([3, 4, 5]);
const WORDS: Record<number, string> = { 0: "waiting", 1: "running", 3: "succeeded", 4: "failed", 5: "cancelled" };

/** Automation runs take minutes; a wait without a timeout gives up after this. */
export const RUN_WAIT_MS = 300_000;

/** Ended: one of the final states, or an end time set (the specs disagree on the state numbers; both mark the end). */
export function hasEnded(run: AutomationRun): boolean {
  return ENDED_STATES.has(Number(run.taskState)) || (typeof run.endTime === "string" && run.endTime !== "");
}

export function succeeded(run: AutomationRun): boolean {
  return Number(run.taskState) === 3;
}

function stateText(run: AutomationRun | undefined): string {
  if (!run) return "no run yet";
  const state = Number(run.taskState);
  return WORDS[state] ? `${state} (${WORDS[state]})` : JSON.stringify(run.taskState);
}

/**
 * Polls the run of each one-time schedule until every one has ended, and gives each one's run in
 * the order asked. Each round asks only for the runs that have not ended yet.
 */
export async function waitForRuns(client: MoreLoginClient, options: CallOptions, taskIds: readonly string[]): Promise<AutomationRun[]> {
  const found = new Map<string, AutomationRun>();
  const pending = (): string[] => taskIds.filter((id) => !found.has(id) || !hasEnded(found.get(id) as AutomationRun));
  await waitUntil(
    options,
    RUN_WAIT_MS,
    async (callOptions) => {
      for (const taskId of pending()) {
        const result = await client.call("automationRuns", { taskId, pageNo: 1, pageSize: 10 }, callOptions);
        const run = result.data.dataList[0];
        if (run) found.set(taskId, run);
      }
      return pending();
    },
    {
      reached: (left) => left.length === 0,
      describe: (left) => {
        const waiting = (left ?? taskIds).map((id) => `${id}: ${stateText(found.get(id))}`).join(", ");
        return `automation runs had not ended within ${seconds(options.timeoutMs ?? RUN_WAIT_MS)}; last state seen: ${waiting}`;
      },
      context: { api: options.api ?? "local" },
    },
  );
  return taskIds.map((id) => found.get(id) as AutomationRun);
}
