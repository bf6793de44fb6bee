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

/** Texts kept per translator; status texts repeat (counts, pages), so this stays small. */
const CACHE_LIMIT = 512;

/**
 * RED._ with the node set's catalog; where the runtime returns the bare key (no catalog loaded, as in
 * node-red-node-test-helper), the English text is used, so nobody ever sees a key instead of words.
 * Status texts are asked for on every message: each text is worked out once and then remembered
 * (the runtime's language is set when it starts).
 */
export function createTranslator(RED: NodeAPI): Translate {
  const cache = new Map<string, string>();
  const translate: Translate = (key, values) => {
    const translated = RED._(key, values as Record<string, string | number> | undefined);
    if (translated !== key) return translated;
    const template = lookup(english(), key);
    if (typeof template !== "string") return key;
    return template.replace(/__(\w+)__/g, (whole, name: string) => (values?.[name] === undefined ? whole : String(values[name])));
  };
  return (key, values) => {
    const id = values === undefined ? key : cacheKey(key, values);
    if (id === undefined) return translate(key, values);
    let text = cache.get(id);
    if (text === undefined) {
      if (cache.size >= CACHE_LIMIT) cache.clear();
      text = translate(key, values);
      cache.set(id, text);
    }
    return text;
  };
}

/** A key for texts whose values are all numbers or short strings; undefined for anything else. */
function cacheKey(key: string, values: Record<string, unknown>): string | undefined {
  let id = key;
  for (const name in values) {
    const value = values[name];
    if (typeof value === "number" || (typeof value === "string" && value.length <= 32 && !value.includes("\u0000"))) id += `\u0000${name}=${value}`;
    else return undefined;
  }
  return id;
}
