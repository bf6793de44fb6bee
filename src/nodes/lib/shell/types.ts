import type { Node, NodeDef, NodeMessage } from "node-red";
import type { FlowError, MoreLoginClient } from "../../../client";
import type { PageHandle } from "../../../browser";
import type { CredentialName } from "../declarations/config";

export interface ConfigNodeDef extends NodeDef {
  localUrl: string;
  openUrl: string;
  /** Requests per minute, and long operations at once; blank, or missing in an older flow = the default. */
  localRpm?: string | number;
  openRpm?: string | number;
  concurrency?: string | number;
  /** Profiles running and cloud phones powered on at once; blank, 0, or missing in an older flow = no limit. */
  maxProfiles?: string | number;
  maxPhones?: string | number;
  maxCloudBrowsers?: string | number;
  /** The default lease of its nodes' starts and power-ons, in seconds; blank, 0 or missing = none. */
  lease?: string | number;
  /** Close every profile and power off every phone it started when it stops; missing = off. */
  closeOnStop?: boolean;
  /** MoreLogin's server edition: log in with the API ID and Key before Local calls; missing = off. */
  localLogin?: boolean | string;
}

export type ConfigCredentials = Partial<Record<CredentialName, string>>;

export interface ConfigNode extends Node<ConfigCredentials> {
  localUrl: string;
  openUrl: string;
  /** Whether the client logs in to MoreLogin's server edition (the `localLogin` checkbox). */
  localLogin: boolean;
  /** The shared client, or undefined when the settings are unusable (see `clientError`). */
  client?: MoreLoginClient;
  clientError?: string;
  /** The default lease of its nodes' starts and power-ons, in seconds (0 = none). */
  leaseSeconds: number;
}

/** What every operation node's definition has. */
export interface OperationNodeDef extends NodeDef {
  server: string;
  [property: string]: unknown;
}

/** A started profile as it travels with the message, for close profile and the browser node. */
export interface ProfileHandle {
  envId: string;
  /** A local profile's debug port; a cloud browser has none. */
  debugPort?: string;
  /** "cloud" for a cloud browser (its cdpUrl carries its token); absent for a profile in the desktop client. */
  where?: "cloud";
  cdpUrl?: string;
  webSocketDebuggerUrl?: string;
  /** When the lease on it runs out (ISO time), when it was started with one. */
  leaseUntil?: string;
}

/** What flows see as `msg.morelogin`. */
export interface MoreLoginMessageInfo {
  api: string;
  path: string;
  requestId?: string;
  pages?: number;
  truncated?: boolean;
  error?: FlowError;
  /** Set by start profile and profile status (running); kept by every later MoreLogin node. */
  profile?: ProfileHandle;
  /** Set by the browser node: the tab it acted on, for the next browser node. */
  page?: PageHandle;
  /** Set by the batch node on each item (`{id, item, index, total, attempt}`); kept by every MoreLogin node, which adds its `requests` and `perMinute`. */
  batch?: Record<string, unknown>;
  /** Whatever else a flow put in msg.morelogin travels on too. */
  [field: string]: unknown;
}

export interface MoreLoginMessage extends NodeMessage {
  morelogin?: MoreLoginMessageInfo;
  [property: string]: unknown;
}
