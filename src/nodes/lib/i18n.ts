import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { NodeAPI } from "node-red";

export type Translate = (key: string, values?: Record<string, unknown>) => string;

let englishCatalog: unknown;

/** The built English catalog beside the compiled nodes, for runtimes that have no catalog loaded. */
function english(): unknown {
  if (englishCatalog === undefined) {
    try {
      englishCatalog = JSON.parse(readFileSync(join(__dirname, "..", "locales", "en-US", "morelogin-config.json"), "utf8"));
    } catch {
      englishCatalog = {};
    }
  }
  return englishCatalog;
}

function lookup(catalog: unknown, key: string): unknown {
  return key.split(".").reduce<unknown>((node, part) => (node && typeof node === "object" ? (node as Record<string, unknown>)[part] : undefined), catalog);
}

/**
 * RED._ with the node set's catalog; where the runtime returns the bare key (no catalog loaded, as in
 * node-red-node-test-helper), the English text is used, so nobody ever sees a key instead of words.
 */
export function createTranslator(RED: NodeAPI): Translate {
  return (key, values) => {
    const translated = RED._(key, values as Record<string, string | number> | undefined);
    if (translated !== key) return translated;
    const template = lookup(english(), key);
    if (typeof template !== "string") return key;
    return template.replace(/__(\w+)__/g, (whole, name: string) => (values?.[name] === undefined ? whole : String(values[name])));
  };
}
