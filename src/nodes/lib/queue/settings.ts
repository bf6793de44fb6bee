import { hostname } from "node:os";
import type { Node } from "node-red";

/** What a batch node needs of a `morelogin-queue` config node to join its queue. */
export interface QueueSettings {
  url: string;
  username?: string;
  password?: string;
  worker: string;
  workerTimeoutMs: number;
  /** host:port/db, for texts: never the URL's user info. */
  where: string;
}

export interface QueueCredentials {
  username?: string;
  password?: string;
}

/** A `morelogin-queue` config node: where the Redis of a batch shared by several Node-REDs is, and this Node-RED's name in it. */
export interface QueueConfigNode extends Node<QueueCredentials> {
  /** The settings, or the words of what is wrong with them. */
  queueSettings: QueueSettings | string;
}

export const DEFAULT_URL = "redis://127.0.0.1:6379/0";
export const DEFAULT_WORKER_TIMEOUT_SECONDS = 30;
export const MIN_WORKER_TIMEOUT_SECONDS = 5;
export const MAX_WORKER_TIMEOUT_SECONDS = 3600;

/** A problem with the settings: a catalog key (morelogin-queue.error.*) and its values. */
export interface QueueSettingsProblem {
  key: "url" | "urlPassword" | "workerTimeout";
  values?: Record<string, string>;
}

/** The settings from the node's properties, or what is wrong with them (which never repeats the URL: it may hold a password). */
export function queueSettings(def: Record<string, unknown>, credentials: QueueCredentials, uiPort: unknown): QueueSettings | QueueSettingsProblem {
  const text = typeof def.url === "string" && def.url.trim() !== "" ? def.url.trim() : DEFAULT_URL;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { key: "url" };
  }
  if (url.protocol !== "redis:" && url.protocol !== "rediss:") return { key: "url" };
  if (url.password !== "") return { key: "urlPassword" };
  const seconds = def.workerTimeout === undefined || def.workerTimeout === "" ? DEFAULT_WORKER_TIMEOUT_SECONDS : Number(def.workerTimeout);
  if (!Number.isFinite(seconds) || seconds < MIN_WORKER_TIMEOUT_SECONDS || seconds > MAX_WORKER_TIMEOUT_SECONDS) {
    return { key: "workerTimeout", values: { min: String(MIN_WORKER_TIMEOUT_SECONDS), max: String(MAX_WORKER_TIMEOUT_SECONDS) } };
  }
  const named = typeof def.worker === "string" ? def.worker.trim() : "";
  const username = credentials.username || (url.username !== "" ? decodeURIComponent(url.username) : undefined);
  const db = url.pathname.replace(/^\//, "") || "0";
  return {
    url: text,
    username,
    password: credentials.password || undefined,
    worker: named !== "" ? named : `${hostname()}:${typeof uiPort === "number" || typeof uiPort === "string" ? uiPort : 1880}`,
    workerTimeoutMs: Math.round(seconds * 1000),
    where: `${url.protocol}//${url.host}/${db}`,
  };
}
