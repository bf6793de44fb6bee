import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { dragFromPalette, openEditor, openNode, ourErrors, untilEditorAtRest, showSidebar, type EditorSession } from "./editor-session";
import { useEditorSession } from "./use-editor-session";

/** What Node-RED serves: the built catalogs and help pages (the package is packed from dist/). */
const BUILT = join(__dirname, "..", "..", "dist", "nodes", "locales");
const TYPE = "morelogin-list-profiles";

type Catalog = { [key: string]: string | Catalog };

/** The workflow nodes (0.2): each with an action select whose rows come and go. */
const WORKFLOW_TYPES = ["morelogin-profile-status", "morelogin-profile", "morelogin-cloud-phone", "morelogin-automation", "morelogin-browser"];

const catalog = (lang: string, type = TYPE): Catalog => JSON.parse(readFileSync(join(BUILT, lang, `${type}.json`), "utf8")) as Catalog;

function text(from: Catalog, key: string): string {
  const found = key.split(".").reduce<string | Catalog | undefined>((node, part) => (node && typeof node === "object" ? node[part] : undefined), from);
  if (typeof found !== "string") throw new Error(`${key} is not a text of the catalog`);
  return found;
}

interface ShownText {
  keys: string;
  text: string;
  placeholder: string;
}

/** Each MoreLogin key on the open dialog's elements that is not the zh-CN text of `zh`, and the keys that were. */
async function dialogTexts(page: EditorSession["page"], zh: Catalog): Promise<{ wrong: string[]; checked: string[] }> {
  const tray = page.locator("#red-ui-editor-stack .red-ui-tray").last();
  const shown: ShownText[] = await tray.locator("[data-i18n]").evaluateAll((elements) =>
    elements.map((element) => ({
      keys: element.getAttribute("data-i18n") ?? "",
      text: (element.textContent ?? "").trim(),
      placeholder: element.getAttribute("placeholder") ?? "",
    })),
  );
  const wrong: string[] = [];
  const checked: string[] = [];
  for (const { keys, text: shownText, placeholder } of shown) {
    for (const entry of keys.split(";")) {
      // Node-RED prefixes each key of a node's template with its catalog ("node-red-contrib-morelogin/<type>:").
      const match = /^(?:\[(\w+)\])?(?:([^:]+):)?(.+)$/.exec(entry);
      const [, attribute, namespace, key] = match ?? [];
      if (!key || namespace === "node-red" || !key.startsWith("morelogin")) continue;
      const actual = attribute === "placeholder" ? placeholder : shownText;
      if (actual === text(zh, key)) checked.push(key);
      else wrong.push(`${entry} shows ${JSON.stringify(actual)}`);
    }
  }
  return { wrong, checked };
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
  let nodeId = "";
  let zh: Catalog;
  let en: Catalog;

  // Node-RED's editor takes its language from the browser's (navigator.language).
  const session = useEditorSession("the editor in Chinese", "zh-cn-", () => openEditor(undefined, "zh-CN"));
  before(() => {
    zh = catalog("zh-CN");
    en = catalog("en-US");
  });

  it("the palette shows the node under its Chinese name", async () => {
    const { page } = session();
    nodeId = await dragFromPalette(page, TYPE, TYPE, 300, 160);
    const label = page.locator(`.red-ui-palette-node[data-palette-type="${TYPE}"] .red-ui-palette-label`);
    assert.equal((await label.innerText()).trim(), text(zh, `${TYPE}.paletteLabel`));
    assert.equal(text(zh, `${TYPE}.paletteLabel`), "环境列表");
  });

  it("the edit dialog's labels, placeholders and options are the zh-CN catalog's texts", async () => {
    const { page } = session();
    await openNode(page, nodeId);
    const { wrong, checked: shown } = await dialogTexts(page, zh);
    assert.deepEqual(wrong, [], "dialog texts that are not the zh-CN catalog's");
    const checked = shown.filter((key) => text(zh, key) !== text(en, key));
    for (const key of ["morelogin.label.pageNo", "morelogin.label.pageSize", "morelogin.label.allPages", "morelogin.output.split", `${TYPE}.label.groupId`, `${TYPE}.placeholder.envName`]) {
      assert.ok(checked.includes(key), `${key} is in the dialog, in Chinese (checked: ${checked.join(", ")})`);
    }
    assert.equal((await page.locator('label[for="node-input-pageSize"]').innerText()).trim(), "每页条数");
    await page.locator("#node-dialog-cancel").click();
    await page.locator("#node-dialog-cancel").waitFor({ state: "detached" });
    await untilEditorAtRest(page);
  });

  it("the help sidebar shows the Chinese help page, with the shared sections included", async () => {
    const { page } = session();
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

  it("the workflow nodes' palette names, dialogs (every action's rows) and help are in Chinese", async () => {
    const { page } = session();
    let y = 260;
    for (const type of WORKFLOW_TYPES) {
      const zhType = catalog("zh-CN", type);
      const id = await dragFromPalette(page, type, type, 300, y);
      y += 60;
      const label = page.locator(`.red-ui-palette-node[data-palette-type="${type}"] .red-ui-palette-label`);
      assert.equal((await label.innerText()).trim(), text(zhType, `${type}.paletteLabel`));
      await openNode(page, id);
      const { wrong, checked } = await dialogTexts(page, zhType);
      assert.deepEqual(wrong, [], `${type}: dialog texts that are not the zh-CN catalog's`);
      // Every label, placeholder and option the declaration names is in the dialog, hidden rows included.
      assert.ok(checked.includes("morelogin.label.timeout"), `${type}: ${checked.join(", ")}`);
      if (type !== "morelogin-profile-status") assert.ok(checked.includes("morelogin.label.action") && checked.some((key) => key.startsWith(`${type}.action.`)), `${type}: ${checked.join(", ")}`);
      await page.locator("#node-dialog-cancel").click();
      await page.locator("#node-dialog-cancel").waitFor({ state: "detached" });
      await untilEditorAtRest(page);

      await page.locator(`[id="${id}"] .red-ui-flow-node`).click();
      await showSidebar(page, "help");
      const help = page.locator(".red-ui-sidebar-help-stack .red-ui-help").first();
      await help.locator("h1.red-ui-help-title", { hasText: text(zhType, `${type}.paletteLabel`) }).waitFor({ state: "visible" });
      const helpPage = readFileSync(join(BUILT, "zh-CN", `${type}.html`), "utf8");
      const firstParagraph = plain(/<p>([\s\S]*?)<\/p>/.exec(helpPage)?.[1] ?? "");
      assert.match(firstParagraph, /[\u4e00-\u9fff]/, `${type}: the help page is in Chinese`);
      const paragraphs = (await help.locator("p").allInnerTexts()).map((paragraph) => paragraph.replace(/\s+/g, " ").trim());
      assert.equal(paragraphs[0], firstParagraph, `${type}: the help sidebar shows the zh-CN page`);
      assert.ok(
        paragraphs.some((paragraph) => paragraph.includes("Catch 节点")),
        `${type}: the shared errors section is included`,
      );
    }
  });

  it("the editor logged no errors from the MoreLogin nodes", () => {
    assert.deepEqual(ourErrors(session().errors), []);
    assert.deepEqual(
      session().errors.filter((error) => error.startsWith("page error:")),
      [],
    );
  });
});
