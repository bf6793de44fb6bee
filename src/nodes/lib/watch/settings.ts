import type { Node, NodeAPI } from "node-red";
import { MoreLoginInputError, describeValue, type ApiName } from "../../../client";
import { createTranslator } from "../shell/i18n";
import { idsOf } from "../profile/ids";
import { evaluateProperty } from "../shell/properties";
import { DEFAULT_INTERVAL_SECONDS, MIN_INTERVAL_SECONDS, WATCH_EVENTS, WATCH_KINDS, WATCH_WHERE, type WatchEvent, type WatchKind, type WatchSource, type WatchWhere } from "./kinds";
import { isChecked } from "../shell/checkbox";

export interface WatchSettings {
  kind: WatchKind;
  /** Profiles are only on the Local API. */
  api: ApiName;
  /** What each poll reads: for profiles, the desktop client's (`where` local), the cloud's or both; otherwise the kind itself. */
  sources: readonly WatchSource[];
  intervalMs: number;
  /** Only these profiles or phones (for runs: the phones they run on); empty = all. */
  ids: ReadonlySet<string>;
  events: ReadonlySet<WatchEvent>;
  initial: boolean;
}

const ID_SOURCES = new Set(["str", "env"]);

function kindOf(value: unknown): WatchKind {
  if (value === undefined || value === "") return "profiles";
  const kind = WATCH_KINDS.find((name) => name === value);
  if (!kind) throw new MoreLoginInputError(`watch must be one of ${WATCH_KINDS.join(", ")}, not ${describeValue(value)}`);
  return kind;
}

function apiOf(kind: WatchKind, value: unknown): ApiName {
  if (kind === "profiles" || value === undefined || value === "" || value === "local") return "local";
  if (value === "open") return "open";
  throw new MoreLoginInputError(`api must be local or open, not ${describeValue(value)}`);
}

/** A profiles watch's `where`: saved flows have none and keep watching the desktop client only (no cloud calls). */
function sourcesOf(kind: WatchKind, value: unknown): WatchSource[] {
  if (kind !== "profiles") return [kind];
  const where: WatchWhere | undefined = value === undefined || value === null || value === "" ? "local" : WATCH_WHERE.find((name) => name === value);
  if (!where) throw new MoreLoginInputError(`where must be one of ${WATCH_WHERE.join(", ")}, not ${describeValue(value)}`);
  return where === "local" ? ["profiles"] : where === "cloud" ? ["cloudBrowsers"] : ["profiles", "cloudBrowsers"];
}

function intervalOf(value: unknown): number {
  if (value === undefined || value === null || value === "") return DEFAULT_INTERVAL_SECONDS * 1000;
  const seconds = typeof value === "number" || typeof value === "string" ? Number(value) : Number.NaN;
  if (!Number.isFinite(seconds) || seconds < MIN_INTERVAL_SECONDS || seconds > 86_400) {
    throw new MoreLoginInputError(`interval must be a number of seconds from ${MIN_INTERVAL_SECONDS} to 86400, not ${describeValue(value)}`);
  }
  return Math.round(seconds * 1000);
}

function eventsOf(kind: WatchKind, value: unknown): Set<WatchEvent> {
  const known: readonly WatchEvent[] = WATCH_EVENTS[kind];
  let names: unknown[];
  if (value === undefined || value === null || value === "") names = [];
  else if (typeof value === "string") names = value.split(/[\s,]+/).filter((name) => name !== "");
  else if (Array.isArray(value)) names = value;
  else throw new MoreLoginInputError(`events must be a list of event names, not ${typeof value}`);
  if (names.length === 0) return new Set(known);
  const chosen = new Set<WatchEvent>();
  for (const name of names) {
    const event = known.find((candidate) => candidate === name);
    if (!event) throw new MoreLoginInputError(`events: ${describeValue(name)} is not an event of a ${kind} watch (${known.join(", ")})`);
    chosen.add(event);
  }
  return chosen;
}

/** Reads and checks a watch node's settings; a bad one is a MoreLoginInputError that says which and why. */
export async function watchSettings(RED: NodeAPI, node: Node, def: Record<string, unknown>): Promise<WatchSettings> {
  const kind = kindOf(def.watch);
  const idsType = def.idsType === undefined || def.idsType === "" ? "str" : def.idsType;
  if (typeof idsType !== "string" || !ID_SOURCES.has(idsType)) throw new MoreLoginInputError(`ids must be a string or an environment variable, not ${describeValue(idsType)}`);
  const ids = idsOf(await evaluateProperty(RED, node, {}, def.ids, idsType, "ids"), "ids", createTranslator(RED));
  return {
    kind,
    api: apiOf(kind, def.api),
    sources: sourcesOf(kind, def.where),
    intervalMs: intervalOf(def.interval),
    ids: new Set(ids),
    events: eventsOf(kind, def.events),
    initial: isChecked(def.initial),
  };
}
