import type { Trouble } from "../work";

/** Redis's answers to a login it refuses, and to commands it refuses whoever sends them (rights, memory, a replica, a failed save). */
const LOGIN_REFUSED = new Set(["WRONGPASS", "NOAUTH"]);
const COMMAND_REFUSED = new Set(["NOPERM", "OOM", "READONLY", "MISCONF"]);

/** What went wrong with Redis, in a word (an error code, or Redis's own first word), never the message: it can name the address. */
export function troubleOf(error: Error & { code?: unknown }): Trouble {
  const word = typeof error.code === "string" ? error.code : (/^[A-Z][A-Z_]+/.exec(error.message)?.[0] ?? error.name);
  if (LOGIN_REFUSED.has(word)) return { kind: "login", reason: word };
  return { kind: error.name === "ReplyError" && COMMAND_REFUSED.has(word) ? "refused" : "unreachable", reason: word };
}

/** A MULTI that Redis discarded (EXECABORT) fails with the error that made it discard it (NOPERM, OOM). */
export function causeOf(error: Error & { previousErrors?: Error[] }): never {
  throw error.previousErrors?.[0] ?? error;
}

/** The replies of a MULTI, or its first error (a reply of null: the transaction did not run). */
export function repliesOf(replies: Array<[Error | null, unknown]> | null): unknown[] {
  if (!replies) throw new Error("the Redis transaction was aborted");
  return replies.map(([error, value]) => {
    if (error) throw error;
    return value;
  });
}
