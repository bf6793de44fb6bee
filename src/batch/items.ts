import { messageOf } from "../client";

/** What the batch node reads from the items of a list and from the message that started it. */

/** An item's ID: its `id`, else its `envId`, else the item itself when it is a string, else its place. */
export function itemIdOf(item: unknown, index: number): string {
  if (item !== null && typeof item === "object") {
    const { id, envId } = item as { id?: unknown; envId?: unknown };
    if (isIdValue(id)) return String(id);
    if (isIdValue(envId)) return String(envId);
  }
  if (typeof item === "string") return item;
  return String(index);
}

function isIdValue(value: unknown): value is string | number {
  return (typeof value === "string" && value !== "") || (typeof value === "number" && Number.isFinite(value));
}

/** Message properties the item messages do not copy: the list itself, the run's own fields, the HTTP in node's live objects. */
const NOT_COPIED = new Set(["_msgid", "payload", "topic", "parts", "command", "error", "req", "res", "_event"]);

/**
 * The properties of the message that started a batch, as each item message carries them: JSON-safe, so
 * the context store keeps them over a restart. A property that is not JSON (a socket, a function) is left out.
 */
export function originOf(msg: Record<string, unknown>): Record<string, unknown> {
  const origin: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(msg)) {
    if (NOT_COPIED.has(key) || value === undefined) continue;
    try {
      const text = JSON.stringify(value);
      if (text !== undefined) origin[key] = JSON.parse(text);
    } catch {
      // not JSON-safe: not carried
    }
  }
  return origin;
}

/** The items of a list as the context store keeps them (JSON-safe), or a reason the list cannot be one. */
export function storableItems(list: unknown[]): unknown[] | string {
  try {
    const text = JSON.stringify(list);
    return JSON.parse(text) as unknown[];
  } catch (error) {
    return messageOf(error);
  }
}
