import type { IncomingMessage } from "node:http";
import { parseJsonExact } from "../client/exact-json";

export const MAX_BODY_BYTES = 1024 * 1024;
/** Past this much discarded input the sender is ignored and the socket dropped. */
const MAX_DISCARD_BYTES = 64 * 1024 * 1024;

export type RawBody = { kind: "ok"; text: string; bytes: Buffer } | { kind: "tooLarge" } | { kind: "aborted" };

/** Reads the whole body; over the limit, keeps draining (so the answer can be read) but stores nothing. */
export function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<RawBody> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
      else chunks.length = 0;
      if (size > MAX_DISCARD_BYTES) req.socket.destroy();
    });
    req.on("end", () => {
      if (size > limit) return resolve({ kind: "tooLarge" });
      const bytes = Buffer.concat(chunks);
      resolve({ kind: "ok", text: bytes.toString("utf8"), bytes });
    });
    req.on("error", () => resolve({ kind: "aborted" }));
  });
}

export type ParsedBody = { kind: "empty" } | { kind: "json"; value: unknown } | { kind: "invalid" };

/**
 * JSON.parse (no reviver, no merging into existing objects, so `__proto__` keys stay plain data), except
 * that an integer a JavaScript number cannot hold exactly becomes its decimal string, as MoreLogin's
 * int64 parsing keeps it: a 19-digit ID sent as a JSON number (the official CLI's `proxy delete`) names
 * the same record as the quoted ID.
 */
export function parseJson(text: string): ParsedBody {
  if (text.trim() === "") return { kind: "empty" };
  try {
    return { kind: "json", value: parseJsonExact(text) };
  } catch {
    return { kind: "invalid" };
  }
}
