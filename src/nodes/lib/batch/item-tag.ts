import type { BatchTag } from "../../../batch";

/** The tag an item message carries back in msg.morelogin.batch, or undefined when the message carries none. */
export function tagOf(msg: Record<string, unknown>): BatchTag | undefined {
  const morelogin = msg.morelogin as { batch?: unknown } | undefined;
  const tag = morelogin?.batch as Partial<BatchTag> | undefined;
  if (!tag || typeof tag !== "object" || typeof tag.id !== "string") return undefined;
  return { id: tag.id, item: String(tag.item ?? ""), index: Number(tag.index), total: Number(tag.total), attempt: Number(tag.attempt ?? 1), requests: tag.requests, perMinute: tag.perMinute };
}
