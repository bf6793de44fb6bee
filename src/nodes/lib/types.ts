import type { Node, NodeDef, NodeMessage } from "node-red";
import type { FlowError, MoreLoginClient } from "../../client";
import type { PageHandle } from "../../browser";
import type { CredentialName } from "./config-settings";

export interface ConfigNodeDef extends NodeDef {
  localUrl: string;
  openUrl: string;
  /** Requests per minute, and long operations at once; blank or missing = the default (added in 0.2). */
  localRpm?: string | number;
  openRpm?: string | number;
  concurrency?: string | number;
  /** Profiles running and cloud phones powered on at once; blank, missing or 0 = no limit (added in 0.3). */
  maxProfiles?: string | number;
  maxPhones?: string | number;
  /** MoreLogin's server edition: log in with the API ID and Key before Local calls (added in 0.4; missing = off). */
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
}

/** What every operation node's definition has. */
export interface OperationNodeDef extends NodeDef {
  server: string;
  [property: string]: unknown;
}

/** A started profile as it travels with the message, for close profile and the browser node. */
export interface ProfileHandle {
  envId: string;
  debugPort: string;
  cdpUrl?: string;
  webSocketDebuggerUrl?: string;
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
}

export interface MoreLoginMessage extends NodeMessage {
  morelogin?: MoreLoginMessageInfo;
  [property: string]: unknown;
}
