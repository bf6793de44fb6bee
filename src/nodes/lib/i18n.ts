import type { NodeAPI } from "node-red";

export type Translate = (key: string, values?: Record<string, unknown>) => string;

/** RED._ with the node set's catalog (Node-RED picks the language and falls back to English). */
export function createTranslator(RED: NodeAPI): Translate {
  return (key, values) => RED._(key, values as Record<string, string | number> | undefined);
}
