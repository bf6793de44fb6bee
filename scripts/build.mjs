// Builds dist/: compiles src/ with tsc, then puts each node's .html, its message catalog and the icons
// beside the compiled node files, where Node-RED looks for them.
import { execFileSync } from "node:child_process";
import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { editorHtml } from "./editor-html.mjs";

const root = new URL("..", import.meta.url).pathname;
const dist = join(root, "dist");
const editorDir = join(root, "nodes");
const nodesOut = join(dist, "nodes");

rmSync(dist, { recursive: true, force: true });
execFileSync(process.execPath, [join(root, "node_modules/typescript/bin/tsc"), "-p", join(root, "tsconfig.json")], {
  stdio: "inherit",
});

// Operation nodes' dialogs are written from their declarations; the config node's is by hand in nodes/.
mkdirSync(nodesOut, { recursive: true });
for (const file of readdirSync(editorDir)) {
  if (file.endsWith(".html")) copyFileSync(join(editorDir, file), join(nodesOut, file));
}
const { NODE_DECLARATIONS } = createRequire(import.meta.url)(join(nodesOut, "lib", "declarations", "node-declarations.js"));
for (const declaration of Object.values(NODE_DECLARATIONS)) {
  writeFileSync(join(nodesOut, `${declaration.type}.html`), editorHtml(declaration));
}

function deepMerge(base, extra) {
  const out = { ...base };
  for (const [key, value] of Object.entries(extra)) {
    const both = value && typeof value === "object" && out[key] && typeof out[key] === "object";
    out[key] = both ? deepMerge(out[key], value) : value;
  }
  return out;
}
const readJson = (file) => JSON.parse(readFileSync(file, "utf8"));

// Every node file has its own catalog namespace, so the shared catalogs (files starting with "_")
// are merged into each node's own catalog.
const nodeFiles = Object.values(readJson(join(root, "package.json"))["node-red"].nodes).map((file) => file.replace(/^dist\/nodes\//, "").replace(/\.js$/, ""));
const localesDir = join(editorDir, "locales");
for (const lang of readdirSync(localesDir)) {
  const langDir = join(localesDir, lang);
  const files = readdirSync(langDir).sort();
  const shared = files.filter((file) => file.startsWith("_") && file.endsWith(".json")).reduce((acc, file) => deepMerge(acc, readJson(join(langDir, file))), {});
  mkdirSync(join(nodesOut, "locales", lang), { recursive: true });
  for (const nodeFile of nodeFiles) {
    const own = join(langDir, `${nodeFile}.json`);
    const catalog = existsSync(own) ? deepMerge(shared, readJson(own)) : shared;
    writeFileSync(join(nodesOut, "locales", lang, `${nodeFile}.json`), JSON.stringify(catalog, null, 2));
  }
  for (const file of files.filter((name) => name.endsWith(".html") && !name.startsWith("_"))) {
    const page = withSharedHelp(readFileSync(join(langDir, file), "utf8"), join(langDir, "_help"), file);
    if (page.includes("<!-- include")) throw new Error(`${lang}/${file}: an include marker the build cannot read: ${page.match(/<!-- include.*-->/)?.[0]}`);
    writeFileSync(join(nodesOut, "locales", lang, file), page);
  }
}

/**
 * Help pages share sections written once per language in `_help/<name>.html`:
 * `<!-- include NAME key="value" key='value' -->` puts the section there with each `__key__` replaced.
 */
function withSharedHelp(page, helpDir, file) {
  return page.replace(/<!-- include ([\w-]+)((?:\s+\w+=(?:"[^"]*"|'[^']*'))*) -->\n?/g, (_, name, params) => {
    const fragment = join(helpDir, `${name}.html`);
    if (!existsSync(fragment)) throw new Error(`${file} includes "${name}", but ${fragment} does not exist`);
    let text = readFileSync(fragment, "utf8");
    for (const [, key, doubleQuoted, singleQuoted] of params.matchAll(/(\w+)=(?:"([^"]*)"|'([^']*)')/g)) {
      text = text.replaceAll(`__${key}__`, () => doubleQuoted ?? singleQuoted);
    }
    const missing = text.match(/__\w+__/);
    if (missing) throw new Error(`${file} includes "${name}" without a value for ${missing[0]}`);
    return text;
  });
}

const iconsDir = join(root, "icons");
mkdirSync(join(nodesOut, "icons"), { recursive: true });
for (const file of readdirSync(iconsDir)) copyFileSync(join(iconsDir, file), join(nodesOut, "icons", file));

const cli = join(dist, "emulator", "cli.js");
if (existsSync(cli)) chmodSync(cli, 0o755);
