import { CapacityLimit, type CapacityKind, type CapacityRole, type CapacityUsage, type RunningRead, type RunningReader } from "./capacity";
import type { ApiName, HttpMethod } from "./types";
import type { WaitOptions } from "./wait-queue";

/** The config node's caps: profiles running, cloud phones powered on and cloud browsers starting or running at once (0 = no limit). */
export interface CapacitySettings {
  maxProfiles: number;
  maxPhones: number;
  maxCloudBrowsers: number;
}

export const DEFAULT_CAPACITY: CapacitySettings = { maxProfiles: 0, maxPhones: 0, maxCloudBrowsers: 0 };

/** What the caps need to know of a call: where it goes, its body, and what it does to the running set. */
export interface CappedCall {
  api: ApiName;
  method: HttpMethod;
  path: string;
  json?: string;
  capacity?: CapacityRole;
}

/**
 * The three caps of one client, and which call takes or frees a place in which: profile starts take one
 * (keyed by `envId`, or `uniqueId` when that is all the call names), closes free it, close-all frees
 * all; cloud-phone power-on and restart take one (keyed by `id`), power-off frees it; a cloud browser's
 * start takes one (keyed by `envId`), its stop frees it.
 */
export class Capacities {
  private readonly limits: Record<CapacityKind, CapacityLimit>;

  constructor(settings: CapacitySettings, readers: Record<CapacityKind, RunningReader>, closed: AbortSignal) {
    this.limits = {
      profiles: new CapacityLimit(settings.maxProfiles, readers.profiles, closed, "profiles"),
      phones: new CapacityLimit(settings.maxPhones, readers.phones, closed, "phones"),
      cloudBrowsers: new CapacityLimit(settings.maxCloudBrowsers, readers.cloudBrowsers, closed, "cloudBrowsers"),
    };
  }

  /** A read of the running set someone else asked for: the cap of that kind learns from it too. */
  observed(kind: CapacityKind, answer: RunningRead): void {
    this.limits[kind].observed(answer);
  }

  usage(kind: CapacityKind): CapacityUsage {
    return this.limits[kind].usage;
  }

  /** Runs the call within its cap: after waiting for a place, or telling the cap that one is free. */
  async run<T extends { data: unknown }>(call: CappedCall, options: WaitOptions, send: () => Promise<T>): Promise<T> {
    const role = call.capacity;
    if (!role || this.limits[role.kind].limit <= 0) return send();
    const limit = this.limits[role.kind];
    if (role.effect === "take") {
      const context = { api: call.api, method: call.method, path: call.path };
      return limit.take(keyOf(role.kind, call.json), call.api, options, context, send, (result) => startedId(role.kind, result.data));
    }
    const result = await send();
    if (role.effect === "freeAll") limit.freedAll();
    else limit.freed(keyOf(role.kind, call.json));
    return result;
  }
}

/** The profile or phone a start, close or power call acted on: the reply's own ID when it names one. */
export function targetOf(role: CapacityRole, json: string | undefined, data: unknown): string {
  return (role.effect === "take" ? startedId(role.kind, data) : undefined) ?? keyOf(role.kind, json);
}

/** The ID a call names: what the running set is keyed by. */
function keyOf(kind: CapacityKind, json: string | undefined): string {
  let body: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(json ?? "{}");
    if (parsed !== null && typeof parsed === "object" && !Array.isArray(parsed)) body = parsed as Record<string, unknown>;
  } catch {
    // Not JSON: the call fails on its own; it names no ID to count.
  }
  if (kind === "phones") return text(body.id);
  const envId = text(body.envId);
  return envId !== "" ? envId : `#${text(body.uniqueId)}`;
}

function text(value: unknown): string {
  return typeof value === "string" || typeof value === "number" ? String(value) : "";
}

/** A start's reply names the profile it started, also when the call named it by serial number. */
function startedId(kind: CapacityKind, data: unknown): string | undefined {
  if (kind !== "profiles" || data === null || typeof data !== "object") return undefined;
  const envId = (data as { envId?: unknown }).envId;
  return typeof envId === "string" && envId !== "" ? envId : undefined;
}
