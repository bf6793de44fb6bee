import { MoreLoginResponseError, iteratePages, type ApiName, type CallOptions, type MoreLoginClient } from "../../../client";
import type { WatchKind } from "./kinds";

/** One profile, phone or run as a poll saw it. */
export interface Seen {
  /** "running" for a profile, `envStatus` for a phone, `taskState` for a run. */
  state: string | number;
  name: string;
  /** For a run, the phone it runs on (what `ids` filters); for the others their own ID. */
  owner: string;
  item: Record<string, unknown>;
}

export interface Observation {
  seen: Map<string, Seen>;
  api: ApiName;
  path: string;
  requestId?: string;
}

const text = (value: unknown): string => (value === undefined || value === null ? "" : String(value));

async function runningProfiles(client: MoreLoginClient, options: CallOptions): Promise<Observation> {
  const result = await client.call("runningProfiles", {}, options);
  if (!Array.isArray(result.data)) throw new MoreLoginResponseError("the list of running profiles is not an array", { api: result.api, path: result.path, requestId: result.requestId });
  const seen = new Map<string, Seen>();
  for (const row of result.data) {
    const id = text(row.envId);
    if (id !== "") seen.set(id, { state: "running", name: text(row.envName), owner: id, item: { ...row } });
  }
  return { seen, api: result.api, path: result.path, requestId: result.requestId };
}

/** Every page of a list, each row keyed by its `id`. */
async function everyRow(
  client: MoreLoginClient,
  endpoint: "listCloudPhones" | "automationRuns",
  options: CallOptions,
  describe: (row: Record<string, unknown>) => Omit<Seen, "item">,
): Promise<Observation> {
  const seen = new Map<string, Seen>();
  let last: Omit<Observation, "seen"> | undefined;
  for await (const page of iteratePages(client, endpoint, {}, options)) {
    last = { api: page.api, path: page.path, requestId: page.requestId };
    for (const row of page.data.dataList as unknown as Record<string, unknown>[]) {
      const id = text(row.id);
      if (id !== "") seen.set(id, { ...describe(row), item: row });
    }
  }
  return { seen, api: last?.api ?? options.api ?? "local", path: last?.path ?? "", requestId: last?.requestId };
}

/** One poll: what is there now. Profiles: one getAllDebugInfo call; phones and runs: every page of their list. */
export function observe(client: MoreLoginClient, kind: WatchKind, options: CallOptions): Promise<Observation> {
  switch (kind) {
    case "profiles":
      return runningProfiles(client, { ...options, api: "local" });
    case "phones":
      return everyRow(client, "listCloudPhones", options, (row) => ({ state: Number(row.envStatus), name: text(row.envName), owner: text(row.id) }));
    case "runs":
      return everyRow(client, "automationRuns", options, (row) => ({ state: Number(row.taskState), name: text(row.taskName), owner: text(row.cloudPhoneId) }));
  }
}
