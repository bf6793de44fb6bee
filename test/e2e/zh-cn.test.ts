import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { browserSkipReason, dragFromPalette, openEditor, openNode, ourErrors, settle, showSidebar, type EditorSession } from "./editor-session";

const RESULTS = join(__dirname, "..", "..", "test-results");
/** What Node-RED serves: the built catalogs and help pages (the package is packed from dist/). */
const BUILT = join(__dirname, "..", "..", "dist", "nodes", "locales");
const TYPE = "morelogin-list-profiles";

type Catalog = { [key: string]: string | Catalog };

const catalog = (lang: string): Catalog => JSON.parse(readFileSync(join(BUILT, lang, `${TYPE}.json`), "utf8")) as Catalog;

function text(from: Catalog, key: string): string {
  const found = key.split(".").reduce<string | Catalog | undefined>((node, part) => (node && typeof node === "object" ? node[part] : undefined), from);
  if (typeof found !== "string") throw new Error(`${key} is not a text of the ${TYPE} catalog`);
  return found;
}

/** The text of some HTML as a browser shows it, whitespace collapsed. */
const plain = (html: string): string =>
  html
    .replace(/<[^>]+>/g, "")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ")
    .trim();

describe("editor in Chinese (zh-CN): a MoreLogin node's dialog and help, in chromium", function () {
  this.timeout(180_000);
  let session: EditorSession;
  let nodeId = "";
  let zh: Catalog;
  let en: Catalog;

  before(async function () {
    const skipped = browserSkipReason();
    if (skipped) {
      console.log(`    browser tests skipped on purpose (${skipped}): the editor was not tested in Chinese`);
      this.skip();
    }
    zh = catalog("zh-CN");
    en = catalog("en-US");
    // Node-RED's editor takes its language from the browser's (navigator.language).
    session = await openEditor(undefined, "zh-CN");
  });

  afterEach(async function () {
    if (this.currentTest?.state === "failed" && session) {
      await session.page.screenshot({ path: join(RESULTS, `failed-zh-cn-${this.currentTest.title.replace(/\W+/g, "-").slice(0, 60)}.png`) }).catch(() => undefined);
    }
  });

  after(async () => {
    await session?.close();
  });

  it("the palette shows the node under its Chinese name", async () => {
    const { page } = session;
    nodeId = await dragFromPalette(page, TYPE, TYPE, 300, 160);
    const label = page.locator(`.red-ui-palette-node[data-palette-type="${TYPE}"] .red-ui-palette-label`);
    assert.equal((await label.innerText()).trim(), text(zh, `${TYPE}.paletteLabel`));
    assert.equal(text(zh, `${TYPE}.paletteLabel`), "环境列表");
  });

  it("the edit dialog's labels, placeholders and options are the zh-CN catalog's texts", async () => {
    const { page } = session;
    await openNode(page, nodeId);
    const tray = page.locator("#red-ui-editor-stack .red-ui-tray").last();
    // Node-RED prefixes each key of a node's template with its catalog ("node-red-contrib-morelogin/<type>:").
    const shown = await tray.locator("[data-i18n]").evaluateAll((elements) =>
      elements.map((element) => ({
        keys: element.getAttribute("data-i18n") ?? "",
        text: (element.textContent ?? "").trim(),
        placeholder: element.getAttribute("placeholder") ?? "",
      })),
    );
    const checked: string[] = [];
    for (const { keys, text: shownText, placeholder } of shown) {
      for (const entry of keys.split(";")) {
        const match = /^(?:\[(\w+)\])?(?:([^:]+):)?(.+)$/.exec(entry);
        const [, attribute, namespace, key] = match ?? [];
        if (!key || namespace === "node-red" || !key.startsWith("morelogin")) continue;
        const expected = text(zh, key);
        assert.equal(attribute === "placeholder" ? placeholder : shownText, expected, `${entry} shows the zh-CN text`);
        if (expected !== text(en, key)) checked.push(key);
      }
    }
    for (const key of ["morelogin.label.pageNo", "morelogin.label.pageSize", "morelogin.label.allPages", "morelogin.output.split", `${TYPE}.label.groupId`, `${TYPE}.placeholder.envName`]) {
      assert.ok(checked.includes(key), `${key} is in the dialog, in Chinese (checked: ${checked.join(", ")})`);
    }
    assert.equal((await page.locator('label[for="node-input-pageSize"]').innerText()).trim(), "每页条数");
    await page.locator("#node-dialog-cancel").click();
    await page.locator("#node-dialog-cancel").waitFor({ state: "detached" });
    await settle(page);
  });

  it("the help sidebar shows the Chinese help page, with the shared sections included", async () => {
    const { page } = session;
    await page.locator(`[id="${nodeId}"] .red-ui-flow-node`).click();
    await showSidebar(page, "help");
    const help = page.locator(".red-ui-sidebar-help-stack .red-ui-help").first();
    // The help of the selected node, titled with its palette label.
    await help.locator("h1.red-ui-help-title", { hasText: text(zh, `${TYPE}.paletteLabel`) }).waitFor({ state: "visible" });
    const helpPage = readFileSync(join(BUILT, "zh-CN", `${TYPE}.html`), "utf8");
    const firstParagraph = plain(/<p>([\s\S]*?)<\/p>/.exec(helpPage)?.[1] ?? "");
    assert.match(firstParagraph, /环境/);
    const paragraphs = (await help.locator("p").allInnerTexts()).map((paragraph) => paragraph.replace(/\s+/g, " ").trim());
    assert.equal(paragraphs[0], firstParagraph);
    const headings = [...helpPage.matchAll(/<h3>([\s\S]*?)<\/h3>/g)].map((match) => plain(match[1] ?? ""));
    assert.deepEqual(headings, ["输入", "输出", "详细", "错误", "状态", "参考"]);
    assert.deepEqual(
      (await help.locator("h3").allInnerTexts()).map((heading) => heading.trim()),
      headings,
    );
    // The shared errors fragment, translated too.
    assert.ok(
      paragraphs.some((paragraph) => paragraph.includes("Catch 节点")),
      paragraphs.join("\n"),
    );
  });

  it("the editor logged no errors from the MoreLogin nodes", () => {
    assert.deepEqual(ourErrors(session.errors), []);
    assert.deepEqual(
      session.errors.filter((error) => error.startsWith("page error:")),
      [],
    );
  });
});
