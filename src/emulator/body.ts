import type { IncomingMessage } from "node:http";

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

/** JSON.parse only: no reviver, no merging into existing objects, so `__proto__` keys stay plain data. */
export function parseJson(text: string): ParsedBody {
  if (text.trim() === "") return { kind: "empty" };
  try {
    return { kind: "json", value: JSON.parse(text) as unknown };
  } catch {
    return { kind: "invalid" };
  }
}
