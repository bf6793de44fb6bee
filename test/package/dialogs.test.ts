import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { NODE_TYPES } from "../support/node-types";

/**
 * The built dialogs (dist/nodes/<type>.html), read as a user sees them in each language: no two rows
 * shown together carry the same label, and a credential sits next to the field it belongs with.
 */
const DIST = join(__dirname, "..", "..", "dist", "nodes");
const EDITOR_LOCALES = join(dirname(require.resolve("@node-red/editor-client/package.json")), "locales");
const LANGUAGES = ["en-US", "zh-CN"] as const;

interface Row {
  field: string;
  labelKey: string;
  actions: string[] | undefined;
}

/** The dialog's rows in order: the input each label is for, its label's catalog key, the actions it shows for. */
function rowsOf(type: string): Row[] {
  const html = readFileSync(join(DIST, `${type}.html`), "utf8");
  const template = html.slice(html.indexOf(`data-template-name="${type}"`));
  return [...template.matchAll(/<div class="form-row[^"]*"(?: data-actions="([^"]*)")?[^>]*>\s*<label for="node-(?:config-)?input-(\w+)"[^>]*>(?:<i [^>]*><\/i>)?\s*<span data-i18n="([^"]+)">/g)].map(
    (match) => ({
      field: match[2] ?? "",
      labelKey: match[3] ?? "",
      actions: match[1] === undefined ? undefined : match[1].split(" "),
    }),
  );
}

function catalogText(lang: string, type: string, key: string): string {
  const [namespace, path] = key.includes(":") ? (key.split(":") as [string, string]) : [type, key];
  const file = namespace === "node-red" ? join(EDITOR_LOCALES, lang, "editor.json") : join(DIST, "locales", lang, `${type}.json`);
  const found = path.split(".").reduce<unknown>((node, part) => (node && typeof node === "object" ? (node as Record<string, unknown>)[part] : undefined), JSON.parse(readFileSync(file, "utf8")));
  assert.equal(typeof found, "string", `${lang}: ${key} of ${type}`);
  return found as string;
}

describe("dialogs: labels a user can tell apart, fields where they belong", () => {
  for (const type of NODE_TYPES.filter((name) => name !== "morelogin-config" && name !== "morelogin-watch")) {
    it(`${type}: no two rows shown together have the same label, in English and Chinese`, () => {
      const rows = rowsOf(type);
      assert.ok(rows.length >= 2, `${type}: rows found`);
      const actions = [...new Set(rows.flatMap((row) => row.actions ?? []))];
      for (const lang of LANGUAGES) {
        for (const action of actions.length > 0 ? actions : [undefined]) {
          const shown = rows.filter((row) => action === undefined || row.actions === undefined || row.actions.includes(action));
          const labels = shown.map((row) => catalogText(lang, type, row.labelKey));
          const repeated = labels.filter((label, index) => labels.indexOf(label) !== index);
          assert.deepEqual(repeated, [], `${lang} ${type}${action ? ` (${action})` : ""}: ${labels.join(" | ")}`);
        }
      }
    });
  }

  it("proxy: the password's row comes right after the username's", () => {
    const fields = rowsOf("morelogin-proxy").map((row) => row.field);
    assert.equal(fields[fields.indexOf("username") + 1], "password", fields.join(", "));
  });
});
