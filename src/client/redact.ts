const JWT_LIKE = /eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/g;
const BEARER = /(bearer\s+)[^\s"',;]+/gi;
const MASK = "***";

/**
 * Builds a function that removes secrets from text: the secrets it is given (read at call time, so a
 * token fetched later is covered too), anything that looks like a JWT, and any bearer credential.
 */
export function createRedactor(secrets: () => Array<string | undefined>): (text: string) => string {
  return (text: string): string => {
    let result = text;
    for (const secret of secrets()) {
      if (secret && secret.length >= 4) result = result.split(secret).join(MASK);
    }
    return result.replace(JWT_LIKE, MASK).replace(BEARER, `$1${MASK}`);
  };
}
