/**
 * The package's shared runtime catalog (built, in dist/), read by the i18next that Node-RED itself uses,
 * with Node-RED's settings (`__name__` placeholders): so a test sees the words and the plural forms a
 * user sees in that language.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";

interface I18next {
  createInstance(options: Record<string, unknown>): { init(): unknown; t(key: string, values?: Record<string, unknown>): string };
}

const nodeRedDir = process.env.MORELOGIN_NODE_RED || dirname(require.resolve("node-red/package.json"));
const utilDir = dirname(require.resolve("@node-red/util/package.json", { paths: [nodeRedDir] }));
const i18next = require(require.resolve("i18next", { paths: [utilDir] })) as I18next;

export type Language = "en-US" | "zh-CN";

/**
 * `t(key, values)` over every node's built catalog in dist/nodes/locales/<lang>/ (each holds the shared
 * `morelogin` texts and its own node type's), as the nodes see them in Node-RED, each its own and the shared.
 */
export function translator(lang: Language): (key: string, values?: Record<string, unknown>) => string {
  const folder = join(__dirname, "..", "..", "dist", "nodes", "locales", lang);
  const catalog: Record<string, unknown> = {};
  for (const file of readdirSync(folder).filter((name) => name.endsWith(".json") && !name.startsWith("_"))) {
    Object.assign(catalog, JSON.parse(readFileSync(join(folder, file), "utf8")) as Record<string, unknown>);
  }
  const instance = i18next.createInstance({
    lng: lang,
    fallbackLng: false,
    resources: { [lang]: { runtime: catalog } },
    defaultNS: "runtime",
    initAsync: false,
    initImmediate: false,
    showSupportNotice: false,
    keySeparator: ".",
    nsSeparator: ":",
    interpolation: { escapeValue: false, prefix: "__", suffix: "__" },
  });
  instance.init();
  return (key, values) => instance.t(key, values);
}
