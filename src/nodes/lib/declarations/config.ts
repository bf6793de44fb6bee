import { DEFAULT_LOCAL_URL, DEFAULT_OPEN_URL, ruleSources } from "../../../client";

/** What Node-RED's editor sends in place of a password credential it has stored. */
export const STORED = "__PWRD__";

/** The config node's credentials, as Node-RED stores them and the editor shows them. */
export const CONFIG_CREDENTIALS = {
  localToken: { type: "password" },
  apiId: { type: "text" },
  apiKey: { type: "password" },
} as const;

export type CredentialName = keyof typeof CONFIG_CREDENTIALS;
export const CREDENTIAL_NAMES = Object.keys(CONFIG_CREDENTIALS) as CredentialName[];

/**
 * What the editor script gets as `RED.settings.moreloginConfigEditor`: the constants and checks it
 * shares with the runtime, so that each has one owner.
 */
export const EDITOR_SETTINGS = {
  stored: STORED,
  credentials: CONFIG_CREDENTIALS,
  defaults: { localUrl: DEFAULT_LOCAL_URL, openUrl: DEFAULT_OPEN_URL },
  rules: ruleSources(),
};
