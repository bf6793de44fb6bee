import { isErrorValue, MoreLoginError } from "../../../client";

const MASK = "***";

/** Text with each secret (of 1 character or more) replaced by ***. */
export function hideSecrets(text: string, secrets: readonly unknown[]): string {
  let hidden = text;
  for (const secret of secrets) if (typeof secret === "string" && secret !== "") hidden = hidden.split(secret).join(MASK);
  return hidden;
}

/**
 * Runs a call whose body holds secrets a message or a node gave (a proxy's password, a site account's
 * password and OTP secret), keeping them out of the error it may end in: its text and MoreLogin's
 * `msg`, which an echoing server or a reply that quotes the request could fill with them.
 */
export async function withoutSecrets<T>(secrets: readonly unknown[], call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (isErrorValue(error) && secrets.some((secret) => typeof secret === "string" && secret !== "")) {
      const hide = (text: string | undefined): string | undefined => (text === undefined ? undefined : hideSecrets(text, secrets));
      Object.assign(error, { message: hide(error.message) }, error instanceof MoreLoginError ? { apiMsg: hide(error.apiMsg) } : {});
    }
    throw error;
  }
}
