import type { NodeAPI } from "node-red";

export type Translate = (key: string, values?: Record<string, unknown>) => string;

/** How many distinct texts a translator keeps: status texts repeat ("5 items, page 1/3"), so few are needed. */
const REMEMBERED_TEXTS = 256;

/**
 * RED._ with the node set's catalog (Node-RED picks the language and falls back to English). Texts
 * made from plain values are remembered: a node at one message at a time translates its status for
 * every message, and i18next's plural and interpolation work costs more than the rest of the node
 * (`node_vs_floor_c1` in docs/PERFORMANCE.md).
 */
export function createTranslator(RED: NodeAPI): Translate {
  const texts = new Map<string, string>();
  return (key, values) => {
    const id = values === undefined ? key : rememberable(key, values);
    if (id === undefined) return RED._(key, values as Record<string, string | number> | undefined);
    let text = texts.get(id);
    if (text === undefined) {
      text = RED._(key, values as Record<string, string | number> | undefined);
      if (texts.size >= REMEMBERED_TEXTS) texts.clear();
      texts.set(id, text);
    }
    return text;
  };
}

/** The key and its values as one string, or undefined when a value is not a string, number or boolean. */
function rememberable(key: string, values: Record<string, unknown>): string | undefined {
  let id = key;
  for (const name in values) {
    const value = values[name];
    if (typeof value !== "string" && typeof value !== "number" && typeof value !== "boolean") return undefined;
    id += `\u0000${name}\u0001${String(value)}`;
  }
  return id;
}
