const JWT_LIKE = /eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/g;
const BEARER = /(bearer\s+)[^\s"',;]+/gi;
/** A credential in a URL's query string: a cloud browser's `cdpUrl` and `accessUrl` carry `?token=…`. */
const QUERY_CREDENTIAL = /([?&](?:token|access_token|auth|key|secret|signature|sig)=)[^&#\s"'<>]+/gi;
const MASK = "***";

/**
 * Text with the secrets that show by their shape replaced by ***: anything that looks like a JWT, any
 * bearer credential, and a URL's token in its query string (`https://runtime1.morelogin.com:16167?token=***`).
 * For everything a user may see that can hold a URL: status, logs, error texts, progress.
 */
export function redactSecrets(text: string): string {
  return text.replace(JWT_LIKE, MASK).replace(BEARER, `$1${MASK}`).replace(QUERY_CREDENTIAL, `$1${MASK}`);
}

/**
 * Builds a function that removes secrets from text: the secrets it is given (read at call time, so a
 * token fetched later is covered too), and those redactSecrets finds by their shape.
 */
export function createRedactor(secrets: () => Array<string | undefined>): (text: string) => string {
  return (text: string): string => {
    let result = text;
    for (const secret of secrets()) {
      if (secret && secret.length >= 4) result = result.split(secret).join(MASK);
    }
    return redactSecrets(result);
  };
}
