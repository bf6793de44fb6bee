import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";

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

/** Each value of a catalog that is not an object, by its dotted key ("morelogin.status.items"). */
function leaves(value: unknown, prefix = ""): Map<string, unknown> {
  const out = new Map<string, unknown>();
  if (value !== null && typeof value === "object" && !Array.isArray(value)) {
    for (const [key, child] of Object.entries(value)) {
      for (const [path, leaf] of leaves(child, prefix ? `${prefix}.${key}` : key)) out.set(path, leaf);
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

describe("locales: every language has every text en-US has", () => {
  it("has at least one translation besides en-US", () => {
    assert.ok(translations.includes("zh-CN"), `languages found: ${translations.join(", ")}`);
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
