import { iteratePages, type ApiName, type CallOptions, type MoreLoginClient } from "../../../client";
import type { WatchSource } from "./kinds";

/** One profile, phone or run as a poll saw it. */
export interface Seen {
  /** "running" for a profile, `cloudBrowserStatus` for a cloud browser, `envStatus` for a phone, `taskState` for a run. */
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

/** A read of the running profiles begun this long before a poll (by another watch or a cap) is shared with it. */
export const SHARED_POLL_MS = 1_000;

/** The config node's shared read of `getAllDebugInfo`: one read however many watches, caps and leases ask. */
async function runningProfiles(client: MoreLoginClient, options: CallOptions): Promise<Observation> {
  const answer = await client.runningProfiles.read({ notBefore: Date.now() - SHARED_POLL_MS, signal: options.signal });
  const seen = new Map<string, Seen>();
  for (const row of answer.rows) {
    const id = text(row.envId);
    if (id !== "") seen.set(id, { state: "running", name: text(row.envName), owner: id, item: { ...row } });
  }
  return { seen, api: answer.api, path: answer.path, requestId: answer.requestId };
}

/** Every page of a list, each row keyed by its `id`. */
async function everyRow(
  client: MoreLoginClient,
  endpoint: "listCloudPhones" | "automationRuns" | "cloudBrowserPage",
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

/**
 * One poll: what is there now. Profiles: one getAllDebugInfo call; cloud browsers (Local API only): every
 * page of `cloudbrowser/page`, which lists every profile with its cloud browser's state; phones and runs:
 * every page of their list.
 */
export function observe(client: MoreLoginClient, source: WatchSource, options: CallOptions): Promise<Observation> {
  switch (source) {
    case "profiles":
      return runningProfiles(client, { ...options, api: "local" });
    case "cloudBrowsers":
      return everyRow(client, "cloudBrowserPage", { ...options, api: "local" }, (row) => ({ state: text(row.cloudBrowserStatus), name: text(row.envName), owner: text(row.id) }));
    case "phones":
      return everyRow(client, "listCloudPhones", options, (row) => ({ state: Number(row.envStatus), name: text(row.envName), owner: text(row.id) }));
    case "runs":
      return everyRow(client, "automationRuns", options, (row) => ({ state: Number(row.taskState), name: text(row.taskName), owner: text(row.cloudPhoneId) }));
  }
}
