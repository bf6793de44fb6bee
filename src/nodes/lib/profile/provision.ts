import type { Node } from "node-red";
import { MoreLoginInputError, describeValue, isPlainObjectValue } from "../../../client";
import type { ActionContext } from "../shell/action-node";
import { overlayDeep } from "../shell/properties";
import { idsOf } from "./ids";
import { moreLoginCookies } from "./morelogin-cookies";

/** The profile node's credentials (type password) and the `accountInfo` field each is sent as. */
export const ACCOUNT_SECRETS = { accountPassword: "password", otpSecret: "otpSecret" } as const;

/** The node's fields createAdvanced lays over its settings (blank ones are not sent). */
const NODE_FIELDS = ["envName", "groupId", "proxyId"] as const;

type Json = Record<string, unknown>;

/** What createAdvanced sends, the secrets in it (kept out of any error) and the name that makes it happen once. */
export interface Provision {
  body: Json;
  secrets: string[];
  envName?: string;
}

/** The node's `settings` as an object: blank is none; JSON text is read (a fixed value or one from msg, context or env). */
function settingsOf(value: unknown, t: ActionContext["t"]): Json {
  if (value === undefined) return {};
  let parsed = value;
  if (typeof value === "string") {
    try {
      parsed = JSON.parse(value);
    } catch {
      throw new MoreLoginInputError(t("morelogin-profile.error.settingsJson"));
    }
  }
  if (!isPlainObjectValue(parsed)) throw new MoreLoginInputError(t("morelogin-profile.error.settings", { value: describeValue(parsed) }));
  return structuredClone(parsed);
}

/** The secrets the account holds, in the order of ACCOUNT_SECRETS. */
function secretsOf(account: unknown): string[] {
  if (!isPlainObjectValue(account)) return [];
  return Object.values(ACCOUNT_SECRETS).flatMap((field) => (typeof account[field] === "string" && account[field] !== "" ? [account[field]] : []));
}

/** The node's account secrets (its credentials) as accountInfo fields. */
function credentialAccount(node: Node): Json {
  const credentials = ((node as Node<Record<string, unknown>>).credentials ?? {}) as Json;
  const account: Json = {};
  for (const [credential, field] of Object.entries(ACCOUNT_SECRETS)) {
    const value = credentials[credential];
    if (typeof value === "string" && value !== "") account[field] = value;
  }
  return account;
}

/**
 * The createAdvanced body: the node's settings, then its own fields (name, group, proxy, tags), then its
 * credentials (account password, OTP secret) in accountInfo, then an object msg.payload, each merged
 * deeply over the one before. Settings saved in the flow (a fixed JSON value) may hold no secret: they
 * would be in flows.json. `cookies` in any format is converted to MoreLogin's string; `cookieDomain`
 * (the node's, or the body's, which wins) is where a `name=value; …` header's cookies go, and is not sent.
 */
export function provisionBody(context: ActionContext): Provision {
  const { def, fields, msg, node, t } = context;
  const settings = settingsOf(fields.settings, t);
  const settingsType = def.settingsType === undefined || def.settingsType === "" ? "json" : def.settingsType;
  if (settingsType === "json" && secretsOf(settings.accountInfo).length > 0) throw new MoreLoginInputError(t("morelogin-profile.error.secretInSettings"));
  const own: Json = {};
  for (const name of NODE_FIELDS) if (fields[name] !== undefined) own[name] = String(fields[name]);
  if (fields.tagIds !== undefined) own.tagIds = idsOf(fields.tagIds, "tagIds", t);
  const account = credentialAccount(node);
  let body = overlayDeep(overlayDeep(settings, own), Object.keys(account).length > 0 ? { accountInfo: account } : {});
  if (isPlainObjectValue(msg.payload)) body = overlayDeep(body, msg.payload);
  const domain = body.cookieDomain ?? fields.cookieDomain;
  delete body.cookieDomain;
  if (body.cookies !== undefined) body.cookies = moreLoginCookies(body.cookies, domain === undefined ? undefined : String(domain));
  const envName = typeof body.envName === "string" && body.envName !== "" ? body.envName : undefined;
  return { body, secrets: secretsOf(body.accountInfo), ...(envName === undefined ? {} : { envName }) };
}
