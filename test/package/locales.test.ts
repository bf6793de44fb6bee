import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import type { CredentialField, FieldDeclaration } from "../../src/nodes/lib/declarations/declaration";
import { NODE_DECLARATIONS } from "../../src/nodes/lib/declarations/node-declarations";
import { BATCH_TYPE, BROWSER_TYPE, NODE_TYPES, OPERATION_TYPES, QUEUE_TYPE, WATCH_TYPE } from "../support/node-types";

/**
 * Every language in nodes/locales has what en-US has, and nothing else: the same catalogs with the same
 * keys and placeholders, the same help pages and shared fragments, each page for the same node type with
 * the same include markers, and the same structure (sections, properties, links, code).
 */
const LOCALES = join(__dirname, "..", "..", "nodes", "locales");
const SOURCE = "en-US";
const translations = readdirSync(LOCALES)
  .filter((lang) => lang !== SOURCE && statSync(join(LOCALES, lang)).isDirectory())
  .sort();

/** Files under a language's folder, as relative paths with "/" (e.g. "_help/errors.html"). */
function filesOf(lang: string): string[] {
  const root = join(LOCALES, lang);
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? walk(join(dir, entry.name)) : [relative(root, join(dir, entry.name)).split("\\").join("/")]));
  return walk(root).sort();
}

const read = (lang: string, file: string): string => readFileSync(join(LOCALES, lang, file), "utf8");

/** i18next's plural suffixes (JSON v4): "items_one" and "items_other" are the key "items", counted. */
const PLURAL_SUFFIX = /_(?:zero|one|two|few|many|other)$/;

/**
 * Each value of a catalog that is not an object, by its dotted key ("morelogin.status.items"). A key's
 * plural forms count as the key itself: each language has the forms its plural rules need (English
 * "_one" and "_other", Chinese none), so the same key in two languages may have different forms.
 */
function leaves(value: unknown, prefix = ""): Map<string, unknown> {
  const out = new Map<string, unknown>();
  if (value !== null && typeof value === "object" && !Array.isArray(value)) {
    for (const [key, child] of Object.entries(value)) {
      const name = typeof child === "string" ? key.replace(PLURAL_SUFFIX, "") : key;
      for (const [path, leaf] of leaves(child, prefix ? `${prefix}.${name}` : name)) out.set(path, leaf);
    }
  } else {
    out.set(prefix, value);
  }
  return out;
}

/** The first capture group of every match of a global pattern. */
const captures = (text: string, pattern: RegExp): string[] => [...text.matchAll(pattern)].map((match) => match[1] ?? "");

const placeholders = (text: string): string[] => captures(text, /__(\w+)__/g).sort();

interface HelpShape {
  helpNames: string[];
  includes: string[];
  /** Opening tags that give a page its shape, in order: sections, property lists, lists, links with their targets. */
  outline: string[];
  /** What `<code>` elements hold, in order: identifiers, paths and quoted runtime texts stay as they are. */
  code: string[];
}

function helpShape(html: string): HelpShape {
  return {
    helpNames: captures(html, /data-help-name="([^"]*)"/g),
    // The marker exactly as scripts/build.mjs replaces it: a marker written any other way stays a comment.
    // Its parameters' values are words of the page's language; their names are the same in every language.
    includes: [...html.matchAll(/<!-- include ([\w-]+)((?:\s+\w+=(?:"[^"]*"|'[^']*'))*) -->/g)].map((match) => [match[1], ...captures(match[2] ?? "", /(\w+)=/g).sort()].join(" ")),
    outline: [...html.matchAll(/<(h[1-6]|dl|dt|dd|ul|ol|li|script)\b([^>]*)>|<a\b[^>]*\bhref="([^"]*)"/g)].map((match) => {
      if (match[3] !== undefined) return `a ${match[3]}`;
      const className = /\bclass="([^"]*)"/.exec(match[2] ?? "")?.[1];
      return className ? `${match[1]}.${className}` : (match[1] ?? "");
    }),
    code: captures(html, /<code>([\s\S]*?)<\/code>/g),
  };
}

/**
 * Keys a JSON text gives twice in one object: JSON.parse keeps the last, so the first text is lost
 * without a word (a second "page" under morelogin.status once replaced the list nodes' page count).
 */
function duplicateKeys(text: string): string[] {
  const objects: Array<Set<string>> = [];
  const found: string[] = [];
  const tokens = /"(?:[^"\\]|\\.)*"\s*:?|[{}]/g;
  for (const match of text.matchAll(tokens)) {
    const token = match[0];
    if (token === "{") objects.push(new Set());
    else if (token === "}") objects.pop();
    else if (token.endsWith(":")) {
      const key = JSON.parse(token.slice(0, -1).trim()) as string;
      const keys = objects.at(-1);
      if (keys?.has(key)) found.push(key);
      keys?.add(key);
    }
  }
  return found;
}

describe("locales: every language has every text en-US has", () => {
  it("has at least one translation besides en-US", () => {
    assert.ok(translations.includes("zh-CN"), `languages found: ${translations.join(", ")}`);
  });

  it("no catalog gives a key twice in one object", () => {
    assert.deepEqual(duplicateKeys('{"a": {"page": "x", "b": "page:", "page": "y"}, "c": {"page": 1}}'), ["page"], "the scan finds a repeated key, and only that");
    const repeated = [SOURCE, ...translations].flatMap((lang) =>
      filesOf(lang)
        .filter((file) => file.endsWith(".json"))
        .flatMap((file) => duplicateKeys(read(lang, file)).map((key) => `${lang}/${file}: ${key}`)),
    );
    assert.deepEqual(repeated, []);
  });

  const sourceFiles = filesOf(SOURCE);

  for (const lang of translations) {
    describe(lang, () => {
      it("has the same catalogs, help pages and help fragments", () => {
        const files = filesOf(lang);
        const onlyInSource = sourceFiles.filter((file) => !files.includes(file));
        const onlyInTranslation = files.filter((file) => !sourceFiles.includes(file));
        assert.deepEqual({ [`only in ${SOURCE}`]: onlyInSource, [`only in ${lang}`]: onlyInTranslation }, { [`only in ${SOURCE}`]: [], [`only in ${lang}`]: [] });
      });

      for (const file of sourceFiles.filter((name) => name.endsWith(".json"))) {
        it(`${file}: the same keys, each with the same __placeholders__`, function () {
          if (!filesOf(lang).includes(file)) this.skip();
          const source = leaves(JSON.parse(read(SOURCE, file)));
          const translated = leaves(JSON.parse(read(lang, file)));
          const missing = [...source.keys()].filter((key) => !translated.has(key));
          const extra = [...translated.keys()].filter((key) => !source.has(key));
          assert.deepEqual({ missing, extra }, { missing: [], extra: [] }, `${lang}/${file} differs from ${SOURCE}/${file}`);
          for (const [key, text] of source) {
            const other = translated.get(key);
            assert.equal(typeof other, typeof text, `${lang}/${file}: ${key} is ${JSON.stringify(other)}`);
            if (typeof text !== "string" || typeof other !== "string") continue;
            assert.ok(other.trim() !== "", `${lang}/${file}: ${key} is empty`);
            assert.deepEqual(placeholders(other), placeholders(text), `${lang}/${file}: ${key} must keep the placeholders of "${text}"`);
          }
        });
      }

      for (const file of sourceFiles.filter((name) => name.endsWith(".html"))) {
        it(`${file}: the same node type, include markers, sections, links and code`, function () {
          if (!filesOf(lang).includes(file)) this.skip();
          const source = helpShape(read(SOURCE, file));
          const translated = helpShape(read(lang, file));
          assert.deepEqual(translated.helpNames, source.helpNames, `${lang}/${file}: data-help-name`);
          assert.deepEqual(translated.includes, source.includes, `${lang}/${file}: <!-- include … --> markers`);
          assert.deepEqual(translated.outline, source.outline, `${lang}/${file}: headings, dl/dt/dd, lists and links`);
          assert.deepEqual(translated.code, source.code, `${lang}/${file}: <code> is not translated`);
        });
      }
    });
  }
});

/**
 * Every catalog key the package uses, found where it is used: the declarations the editor dialogs are
 * written from, the editor script, the config node's dialog, and the string literals of the runtime
 * (src/nodes/<type>.ts for that type, src/nodes/lib for every type). A key built from a template is
 * expanded over the values it can take; a template the test does not know fails, so none slips by.
 */
const ROOT = join(__dirname, "..", "..");
const readRoot = (...path: string[]): string => readFileSync(join(ROOT, ...path), "utf8");

/** The runtime's error kinds, from the ErrorKind type (the status shows `morelogin.status.<kind>`). */
const ERROR_KINDS = captures(/export type ErrorKind =([\s\S]*?);/.exec(readRoot("src", "client", "errors.ts"))?.[1] ?? "", /"([\w-]+)"/g);

function declaredActions(type: string): string[] {
  const declaration = (NODE_DECLARATIONS as Record<string, { fields: readonly FieldDeclaration[] }>)[type];
  const action = declaration?.fields.find((field) => field.name === "action");
  return action?.input === "select" ? action.options.map((option) => option.value) : [];
}

/** `${…}` in a key: the values it stands for in this node type's code (`code` is the source file's). */
function expansions(expression: string, type: string, file: string, code: string): string[] {
  if (/\baction\b/.test(expression)) {
    const actions = declaredActions(type);
    assert.ok(actions.length > 0, `${file}: a key is built from \${${expression}}, but ${type} has no action select`);
    return actions;
  }
  // Kinds with a `case` of their own in the same file get another text there (api: "error, code …").
  if (/\bkind\b/.test(expression)) return ERROR_KINDS.filter((kind) => !code.includes(`case "${kind}":`));
  // A settings problem's key (`${read.key}`): the values of the `key:` union in the node type's src/nodes/lib/<name>/settings.ts.
  if (/\.key$/.test(expression)) {
    const settings = join("src", "nodes", "lib", type.replace(/^morelogin-/, ""), "settings.ts");
    const union = existsSync(join(ROOT, settings)) ? /\bkey: ((?:"[\w-]+"(?:\s*\|\s*)?)+);/.exec(readRoot(settings))?.[1] : undefined;
    assert.ok(union, `${file}: a key is built from \${${expression}}, but ${settings} declares no \`key: "a" | "b"\` union`);
    return captures(union, /"([\w-]+)"/g);
  }
  assert.fail(`${file}: a catalog key is built from \${${expression}}: teach test/package/locales.test.ts its values`);
}

/** Catalog keys in a source file's string literals ("morelogin.status.items", `morelogin-profile.status.${action}`), comments aside. */
function keysInSource(text: string, type: string, file: string): string[] {
  const code = text
    .split("\n")
    .filter((line) => !/^\s*(\/\/|\/?\*)/.test(line))
    .join("\n");
  const literals = captures(code, /["'`](morelogin[\w-]*(?:\.(?:[\w-]+|\$\{[^}]+\})){2,})["'`]/g);
  return literals.flatMap((literal) => {
    const parts = literal.split(/(\$\{[^}]+\})/);
    return parts.reduce<string[]>(
      (keys, part) => {
        const values = part.startsWith("${") ? expansions(part.slice(2, -1), type, file, code) : [part];
        return keys.flatMap((key) => values.map((value) => key + value));
      },
      [""],
    );
  });
}

function declarationKeys(type: string): string[] {
  const declaration = (NODE_DECLARATIONS as Record<string, { fields: readonly FieldDeclaration[]; credentials?: readonly CredentialField[] }>)[type];
  if (!declaration) return [];
  const credentialKeys = (declaration.credentials ?? []).flatMap((field) => [field.label, ...(field.placeholder ? [field.placeholder] : [])]);
  return credentialKeys.concat(
    declaration.fields.flatMap((field) => {
      const keys = [field.label];
      if ((field.input === "typed" || field.input === "duration") && field.placeholder) keys.push(field.placeholder);
      if (field.input === "duration") keys.push("morelogin.duration.seconds", "morelogin.duration.minutes", "morelogin.duration.hours");
      if (field.input === "checkbox") keys.push(field.text);
      if (field.input === "select") keys.push(...field.options.flatMap((option) => (option.text ? [option.text] : [])));
      return keys.filter((key) => key !== "");
    }),
  );
}

const LIB = join("src", "nodes", "lib");
/** A node type's own room in src/nodes/lib: the folder named after it (cloud-phone for morelogin-cloud-phone), when it has one. */
const ownRoom = (type: string): string => join(LIB, type.replace(/^morelogin-/, ""));

/** The .ts files under a folder of the repository, in its subfolders too, as paths from the repository's root. */
function sourcesUnder(folder: string, skip: (path: string) => boolean = () => false): string[] {
  return readdirSync(join(ROOT, folder), { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (skip(path)) return [];
    if (entry.isDirectory()) return sourcesUnder(path, skip);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

/**
 * The runtime helpers every node type shares: src/nodes/lib and its rooms, but for the node types' own
 * rooms and the declarations (they build their keys from templates: those are read from the declarations above).
 */
const SHARED_LIB = sourcesUnder(LIB, (path) => path === join(LIB, "declarations") || NODE_TYPES.some((type) => path === ownRoom(type)));

/** The keys each node type's runtime and editor look up in that type's catalog. */
function keysUsedBy(type: string): Set<string> {
  const keys = new Set<string>(declarationKeys(type));
  for (const file of SHARED_LIB) {
    for (const key of keysInSource(readRoot(file), type, file)) keys.add(key);
  }
  const own = join("src", "nodes", `${type}.ts`);
  for (const key of keysInSource(readRoot(own), type, own)) keys.add(key);
  // A node type's own helpers (src/nodes/lib/cloud-phone for morelogin-cloud-phone) use its catalog alone.
  const ownLib = ownRoom(type);
  if (type !== BATCH_TYPE && existsSync(join(ROOT, ownLib))) {
    for (const file of sourcesUnder(ownLib)) {
      for (const key of keysInSource(readRoot(file), type, file)) keys.add(key);
    }
  }
  if (OPERATION_TYPES.includes(type) || type === BROWSER_TYPE) {
    // resources/morelogin-editor.js registers each operation node (and the browser node) with these texts; the build writes its dialog's fixed rows.
    for (const name of ["paletteLabel", "inputLabel", "outputLabel"]) keys.add(`${type}.${name}`);
    for (const key of keysInSource(readRoot("scripts", "editor-html.mjs"), type, "scripts/editor-html.mjs")) keys.add(key);
  } else if (type === WATCH_TYPE) {
    // Its dialog is written by hand: the texts it names, and the palette and output labels it registers.
    for (const name of ["paletteLabel", "outputLabel"]) keys.add(`${type}.${name}`);
    for (const key of captures(readRoot("nodes", `${type}.html`), /data-i18n="(?:\[\w+\])?([^":]+)"/g)) keys.add(key);
  } else if (type === BATCH_TYPE) {
    // Its dialog and editor script are written by hand (the labels it registers are in the script); its runtime texts are in src/batch and src/nodes/lib/batch.
    for (const name of ["paletteLabel", "inputLabel"]) keys.add(`${type}.${name}`);
    const dialog = readRoot("nodes", `${type}.html`);
    for (const key of keysInSource(dialog, type, `nodes/${type}.html`)) keys.add(key);
    for (const key of captures(dialog, /data-i18n="(?:\[\w+\])?([^":]+)"/g)) keys.add(key);
    for (const batchLib of [ownRoom(BATCH_TYPE), join("src", "batch")]) {
      for (const file of readdirSync(join(ROOT, batchLib)).filter((name) => name.endsWith(".ts"))) {
        for (const key of keysInSource(readRoot(batchLib, file), type, `${batchLib}/${file}`)) keys.add(key);
      }
    }
  } else if (type === QUEUE_TYPE) {
    // A config node whose dialog and editor script are written by hand (the palette label it registers is in the script).
    keys.add(`${type}.paletteLabel`);
    const dialog = readRoot("nodes", `${type}.html`);
    for (const key of keysInSource(dialog, type, `nodes/${type}.html`)) keys.add(key);
    for (const key of captures(dialog, /data-i18n="(?:\[\w+\])?([^":]+)"/g)) keys.add(key);
  } else {
    // The config node: its hand-written dialog, and the editor script's texts (read from the config node's catalog).
    for (const key of captures(readRoot("nodes", `${type}.html`), /data-i18n="(?:\[\w+\])?([^":]+)"/g)) keys.add(key);
    for (const script of ["morelogin-editor.js", "morelogin-settings-pickers.js"]) {
      for (const key of keysInSource(readRoot("resources", script), type, `resources/${script}`)) keys.add(key);
    }
  }
  return keys;
}

/** A node type's catalog as Node-RED gets it from the build: the shared catalogs with the type's own laid over them. */
function builtCatalog(lang: string, type: string): Map<string, unknown> {
  const catalog = new Map<string, unknown>();
  const files = filesOf(lang).filter((file) => !file.includes("/") && file.endsWith(".json"));
  for (const file of [...files.filter((name) => name.startsWith("_")), `${type}.json`]) {
    if (!files.includes(file)) continue;
    for (const [key, value] of leaves(JSON.parse(read(lang, file)))) catalog.set(key, value);
  }
  return catalog;
}

describe("locales: every text the package uses is there, in every language", () => {
  const languages = [SOURCE, ...translations];

  it("finds keys where they are used (the scan itself works)", () => {
    assert.ok(ERROR_KINDS.includes("rate-limit") && ERROR_KINDS.includes("input"), `error kinds: ${ERROR_KINDS.join(", ")}`);
    const profile = keysUsedBy("morelogin-profile");
    for (const key of ["morelogin-profile.status.closeAll", "morelogin-profile.action.create", "morelogin.status.rate-limit", "morelogin.label.action"]) {
      assert.ok(profile.has(key), `${key} is among the keys morelogin-profile uses`);
    }
    assert.ok(keysUsedBy("morelogin-config").has("morelogin.picker.forbidden"));
  });

  for (const type of NODE_TYPES) {
    for (const lang of languages) {
      it(`${lang}/${type}: a help page and a catalog, holding every key the node uses`, () => {
        const page = join(LOCALES, lang, `${type}.html`);
        assert.ok(existsSync(page), `${lang}/${type}.html is missing`);
        assert.deepEqual(captures(readFileSync(page, "utf8"), /data-help-name="([^"]*)"/g), [type], `${lang}/${type}.html: data-help-name`);
        assert.ok(existsSync(join(LOCALES, lang, `${type}.json`)), `${lang}/${type}.json is missing`);
        const catalog = builtCatalog(lang, type);
        const missing = [...keysUsedBy(type)].filter((key) => typeof catalog.get(key) !== "string" || String(catalog.get(key)).trim() === "").sort();
        assert.deepEqual(missing, [], `${lang}: keys ${type} uses that its catalog lacks`);
      });
    }

    it(`${type}: every key of its own catalog is used`, () => {
      const used = keysUsedBy(type);
      const own = [...leaves(JSON.parse(read(SOURCE, `${type}.json`))).keys()];
      assert.deepEqual(
        own.filter((key) => !used.has(key)),
        [],
        `${SOURCE}/${type}.json: keys nothing looks up (a typo, or a text left behind)`,
      );
    });
  }

  it("every key of the shared catalogs is used by some node type", () => {
    const used = new Set(NODE_TYPES.flatMap((type) => [...keysUsedBy(type)]));
    const shared = filesOf(SOURCE).filter((file) => file.startsWith("_") && file.endsWith(".json"));
    const unused = shared.flatMap((file) => [...leaves(JSON.parse(read(SOURCE, file))).keys()].filter((key) => !used.has(key)).map((key) => `${file}: ${key}`));
    assert.deepEqual(unused, []);
  });
});
