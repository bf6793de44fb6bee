import type { NodeAPI } from "node-red";
import { MoreLoginClient, RULES, isPlainObjectValue, messageOf, type ClientSettings } from "../../../client";
import { CONFIG_CREDENTIALS, CREDENTIAL_NAMES, STORED, type CredentialName } from "../declarations/config";
import type { ConfigCredentials, ConfigNode } from "../shell/types";

/** What a user needs to reach MoreLogin with settings the deployed config node does not have. */
export const CHANGE_PERMISSION = "morelogin-config.write";

/** What the editor posts: a config node's id and the URLs and credentials it has in the dialog. */
export interface EditorSettings {
  id?: string;
  localUrl?: string;
  openUrl?: string;
  /** The dialog's Server login checkbox; absent = as deployed. */
  localLogin?: boolean;
  credentials: Partial<Record<CredentialName, string>>;
}

/** A config node as deployed: the live node, and its settings and credentials as saved (before `${...}`). */
interface DeployedConfig {
  node: ConfigNode;
  saved: { localUrl?: unknown; openUrl?: unknown; localLogin?: unknown };
  savedCredentials: ConfigCredentials;
}

/** An editor request that cannot be served, with the HTTP status that says why. */
export class EditorRequestError extends Error {
  constructor(
    readonly status: 400 | 403 | 503,
    message: string,
  ) {
    super(message);
  }
}

export interface EditorClient {
  client: MoreLoginClient;
  /** A client made for this request only, closed when the request ends. */
  temporary: boolean;
}

export function parseEditorSettings(body: unknown): EditorSettings {
  if (!isPlainObjectValue(body)) return { credentials: {} };
  const text = (field: string, value: unknown): string | undefined => {
    if (value === undefined || value === null) return undefined;
    if (typeof value !== "string") throw new EditorRequestError(400, `${field} must be a string`);
    return value;
  };
  const posted = body.credentials ?? {};
  if (!isPlainObjectValue(posted)) throw new EditorRequestError(400, "credentials must be an object");
  const credentials: EditorSettings["credentials"] = {};
  for (const name of CREDENTIAL_NAMES) {
    const value = text(`credentials.${name}`, posted[name]);
    if (value !== undefined) credentials[name] = value;
  }
  const localLogin = body.localLogin;
  if (localLogin !== undefined && localLogin !== null && typeof localLogin !== "boolean") throw new EditorRequestError(400, "localLogin must be true or false");
  return {
    id: text("id", body.id) || undefined,
    localUrl: text("localUrl", body.localUrl),
    openUrl: text("openUrl", body.openUrl),
    ...(typeof localLogin === "boolean" ? { localLogin } : {}),
    credentials,
  };
}

export function findDeployedConfig(RED: NodeAPI, id: string | undefined): DeployedConfig | undefined {
  if (!id) return undefined;
  const node = RED.nodes.getNode(id) as ConfigNode | null;
  if (node?.type !== "morelogin-config") return undefined;
  let saved: DeployedConfig["saved"] = {};
  RED.nodes.eachNode((def) => {
    if (def.id === id) saved = def as DeployedConfig["saved"];
  });
  const savedCredentials = (RED.nodes.getCredentials(id) as ConfigCredentials | undefined) ?? {};
  return { node, saved, savedCredentials };
}

/**
 * What in the posted settings the deployed config node does not have, in words; empty when the
 * request only asks for what the deployed flows can already reach. "As deployed" is a value left
 * out, the saved URL or API ID itself, or for a password the stored-password placeholder (an empty
 * one when none is stored). A typed password always counts as a change, even one equal to the
 * stored password: otherwise a reader could test guesses of it.
 */
export function changesFromDeployed(settings: EditorSettings, deployed: DeployedConfig | undefined): string[] {
  if (!deployed) return [settings.id ? "the config node is not deployed" : "no deployed config node was named"];
  const changes: string[] = [];
  const differs = (posted: string | undefined, saved: unknown): boolean => posted !== undefined && posted !== (saved ?? "");
  if (differs(settings.localUrl, deployed.saved.localUrl)) changes.push("a Local API URL other than the deployed one");
  if (differs(settings.openUrl, deployed.saved.openUrl)) changes.push("an Open API URL other than the deployed one");
  if (settings.localLogin !== undefined && settings.localLogin !== deployed.node.localLogin) changes.push("a server login setting other than the deployed one");
  for (const name of CREDENTIAL_NAMES) {
    const posted = settings.credentials[name];
    const stored = deployed.savedCredentials[name];
    const asDeployed = CONFIG_CREDENTIALS[name].type === "password" ? posted === undefined || (stored ? posted === STORED : posted === "") : !differs(posted, stored);
    if (!asDeployed) changes.push(`a ${name} of its own`);
  }
  return changes;
}

/** The deployed config node's own client: the pickers and the test then reach exactly what its flows reach. */
export function deployedClient(deployed: DeployedConfig): EditorClient {
  const { client, clientError } = deployed.node;
  if (client && !client.isClosed) return { client, temporary: false };
  if (clientError) throw new EditorRequestError(400, clientError);
  throw new EditorRequestError(503, "the config node is being redeployed: try again in a moment");
}

/** Reads an environment variable as flows may read it, or undefined. */
export type Environment = (name: string) => string | undefined;

/** Node-RED's environment for flows: the process's, less what `envVarExcludes` in settings.js hides. */
export function flowEnvironment(RED: NodeAPI): Environment {
  const listed: unknown = (RED.settings as { envVarExcludes?: unknown }).envVarExcludes;
  const excluded = new Set<unknown>(Array.isArray(listed) ? listed : []);
  return (name) => (excluded.has(name) ? undefined : process.env[name]);
}

/**
 * A client for settings typed into the editor, for users who may change config nodes. `${NAME}` as
 * a whole value is read from `environment`, as Node-RED does for a deployed node, and stays as it is
 * when the variable is not there; a stored credential only ever goes to the URLs the deployed
 * config node sends it to.
 */
export function clientForSettings(settings: EditorSettings, deployed: DeployedConfig | undefined, environment: Environment): EditorClient {
  const substituteEnv = (value: string | undefined): string | undefined => {
    const name = value === undefined ? undefined : RULES.envReference.exec(value)?.[1];
    return name === undefined ? value : (environment(name) ?? value);
  };
  const node = deployed?.node;
  const localUrl = substituteEnv(settings.localUrl) ?? node?.localUrl;
  const openUrl = substituteEnv(settings.openUrl) ?? node?.openUrl;
  const localLogin = settings.localLogin ?? node?.localLogin ?? false;
  // With the server login the API Key also goes to the Local API URL: only where the deployed node sends it.
  const sameUrls = Boolean(node) && localUrl === node?.localUrl && openUrl === node?.openUrl && (!localLogin || node?.localLogin === true);
  const posted = settings.credentials;
  if (!sameUrls && CREDENTIAL_NAMES.some((name) => posted[name] === STORED)) {
    throw new EditorRequestError(
      400,
      "stored credentials are only used with the URLs they were deployed with (and sent to the Local API only when the server login was deployed on): deploy first, or type the credentials again",
    );
  }
  const credential = (name: CredentialName): string | undefined => {
    const value = posted[name];
    if (value === undefined || value === STORED) return sameUrls ? node?.credentials?.[name] : undefined;
    return substituteEnv(value);
  };
  const clientSettings: ClientSettings = {
    localUrl,
    openUrl,
    localToken: credential("localToken"),
    apiId: credential("apiId"),
    apiKey: credential("apiKey"),
    localLogin,
    retry: { attempts: 1 },
    timeouts: { request: 8_000, token: 8_000 },
  };
  try {
    return { client: new MoreLoginClient(clientSettings), temporary: true };
  } catch (error) {
    throw new EditorRequestError(400, messageOf(error));
  }
}
