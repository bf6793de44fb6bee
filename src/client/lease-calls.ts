import type { CapacityKind, CapacityRole } from "./capacity";
import { targetOf } from "./capacity-calls";
import type { MoreLoginClient } from "./client";
import { ENDPOINTS, type EndpointDefinition } from "./endpoints";
import { LeaseBook, runsSession } from "./leases";
import type { RunningProfilesReader } from "./running-profiles";
import type { Stage } from "./stages";
import { PHONE_POWERED_STATUSES } from "./running-sets";
import type { ApiName } from "./types";
import { MoreLoginApiError } from "./errors";
import { cloudBrowserHeld } from "./cloud-browser-runs";

/** MoreLogin's code for a cloud phone that does not exist (its meaning assumed: docs/EMULATOR.md). */
const PHONE_NOT_FOUND = 33300;

/** What the lease book needs to know of a call that went through: where it went, its body, its role. */
export interface NotedCall {
  api: ApiName;
  path: string;
  json?: string;
  capacity?: CapacityRole;
}

/**
 * The client's lease book: it asks the shared reader whether a profile still runs (a read begun after
 * the lease ran out), `cloudPhoneInfo` whether a phone is still on, `cloudbrowser/page` whether a cloud
 * browser is still starting or running, and closes, powers off or stops through the client itself, so
 * the close is paced, frees its place under the caps and strikes the entry out.
 */
export function leaseBookFor(client: MoreLoginClient, reader: RunningProfilesReader, closed: AbortSignal): LeaseBook {
  const book = new LeaseBook(
    {
      async isRunning(record, since) {
        if (record.kind === "profiles") return runsSession(record, (await reader.read({ notBefore: since, signal: closed })).ports);
        // A cloud browser's start answers nothing of its run either; one stopping (archiving) is no longer held.
        if (record.kind === "cloudBrowsers") return cloudBrowserHeld(client, record.id, { signal: closed });
        // A phone's power-on reply names no session: whether it is on is all that can be asked.
        try {
          const { data } = await client.call("cloudPhoneInfo", { id: record.id }, { api: record.api, signal: closed });
          return PHONE_POWERED_STATUSES.has(Number(data.envStatus));
        } catch (error) {
          // 33300: there is no such phone any more (deleted elsewhere, or by a batch delete that stopped part way).
          if (error instanceof MoreLoginApiError && error.code === PHONE_NOT_FOUND) return false;
          throw error;
        }
      },
      close(kind, id, api) {
        if (kind === "profiles") return client.call("closeProfile", { envId: id }, { signal: closed });
        if (kind === "cloudBrowsers") return client.call("cloudBrowserStop", { envId: id }, { signal: closed });
        return client.call("powerOffCloudPhone", { id }, { api, signal: closed });
      },
    },
    closed,
  );
  reader.onAnswer((answer) => book.sawRunning("profiles", answer.ports, answer.readAt));
  return book;
}

/** Deletes that end what the book holds: the path (on either API) and the kind and field of the IDs deleted. */
const DELETES = new Map<string, { kind: CapacityKind; field: string }>();
for (const [definition, kind, field] of [
  [ENDPOINTS.deleteProfiles as EndpointDefinition, "profiles", "envIds"],
  [ENDPOINTS.deleteCloudPhones, "phones", "ids"],
] as const) {
  for (const path of [definition.path, definition.twinPath]) if (path) DELETES.set(path, { kind, field });
}

/** Tells the book what a successful call did (started, closed or deleted a profile, powered a phone); returns its result. */
export function noteCall<R extends { data: unknown }>(book: LeaseBook, call: NotedCall, result: R): R {
  const data = result.data;
  if (call.capacity) {
    const id = targetOf(call.capacity, call.json, data);
    if (id !== "" && !id.startsWith("#")) book.noted(call.capacity, call.api, id, sessionPortOf(call.capacity, data));
    else if (call.capacity.effect === "freeAll") book.noted(call.capacity, call.api, "");
  } else {
    const deleted = DELETES.get(call.path);
    if (deleted && data !== false) book.deleted(deleted.kind, idsIn(call.json, deleted.field));
  }
  return result;
}

/** The debug port a profile start answered: the session its entry belongs to. */
function sessionPortOf(role: CapacityRole, data: unknown): string | undefined {
  if (role.effect !== "take" || role.kind !== "profiles" || data === null || typeof data !== "object") return undefined;
  const port = (data as { debugPort?: unknown }).debugPort;
  return typeof port === "string" || typeof port === "number" ? String(port) : undefined;
}

function idsIn(json: string | undefined, field: string): string[] {
  try {
    const body = JSON.parse(json ?? "{}") as Record<string, unknown>;
    const ids = body[field];
    return Array.isArray(ids) ? ids.map(String) : [];
  } catch {
    return [];
  }
}

/** What closeOnStop did: how many it closed (powered off), and the failures, for one warning. */
export interface ClosedOnStop {
  closed: number;
  failed: unknown[];
}

/**
 * closeOnStop: closes every profile, powers off every phone and stops every cloud browser the client
 * started that still runs (one shared read for the profiles, `cloudPhoneInfo` per phone, a `page` call
 * per cloud browser), then forgets them all. `signal` ends
 * what has not gone through by then (a close still waiting for its place under pacing counts as failed).
 */
export async function closeEverything(client: MoreLoginClient, signal?: AbortSignal): Promise<ClosedOnStop> {
  // What the journal held is taken in first: a stop right after the start closes that too.
  await client.leases.flushed();
  const held = client.leases.entries();
  const outcome: ClosedOnStop = { closed: 0, failed: [] };
  const profiles = held.filter((record) => record.kind === "profiles");
  const phones = held.filter((record) => record.kind === "phones");
  const clouds = held.filter((record) => record.kind === "cloudBrowsers");
  const closes: Array<Promise<unknown>> = [];
  if (profiles.length > 0) {
    try {
      const running = (await client.runningProfiles.read({ signal })).ports;
      for (const record of profiles) if (runsSession(record, running)) closes.push(client.call("closeProfile", { envId: record.id }, { signal }));
    } catch (error) {
      outcome.failed.push(error);
    }
  }
  for (const record of phones) {
    closes.push(
      client.call("cloudPhoneInfo", { id: record.id }, { api: record.api, signal }).then(({ data }): Promise<unknown> | string => {
        if (!PHONE_POWERED_STATUSES.has(Number(data.envStatus))) return "not running";
        return client.call("powerOffCloudPhone", { id: record.id }, { api: record.api, signal });
      }),
    );
  }
  for (const record of clouds) {
    closes.push(
      cloudBrowserHeld(client, record.id, { signal }).then((running): Promise<unknown> | string => (running ? client.call("cloudBrowserStop", { envId: record.id }, { signal }) : "not running")),
    );
  }
  for (const result of await Promise.allSettled(closes)) {
    if (result.status === "rejected") outcome.failed.push(result.reason);
    else if (result.value !== "not running") outcome.closed++;
  }
  await client.leases.clear();
  return outcome;
}

/**
 * The leases' stage, first in every call's way: a start, close, power or delete (of profiles or phones) that went through is
 * entered in the lease book (a delete answers once the book's journal has it); any other call passes straight on.
 */
export function leaseStage(book: LeaseBook): Stage {
  return {
    name: "leases",
    through(exchange, next) {
      const { call } = exchange;
      if (!call.capacity && !DELETES.has(call.path)) return next(exchange);
      if (call.capacity) return next(exchange).then((read) => noteCall(book, call, read));
      // A delete's reply comes back once the journal no longer holds what it deleted: a restart never
      // powers off (closes) a phone (profile) that is gone.
      return next(exchange).then(async (read) => {
        noteCall(book, call, read);
        await book.flushed();
        return read;
      });
    },
  };
}
