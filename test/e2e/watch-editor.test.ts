import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { dragFromPalette, openEditor, openEditorPage, openNode, untilEditorAtRest } from "./editor-session";
import { useEditorSession } from "./use-editor-session";

const TYPE = "morelogin-watch";
const BUILT = join(__dirname, "..", "..", "dist", "nodes", "locales");

type Catalog = { [key: string]: string | Catalog };

function text(lang: string, key: string): string {
  const catalog = JSON.parse(readFileSync(join(BUILT, lang, `${TYPE}.json`), "utf8")) as Catalog;
  const found = key.split(".").reduce<string | Catalog | undefined>((node, part) => (node && typeof node === "object" ? node[part] : undefined), catalog);
  if (typeof found !== "string") throw new Error(`${key} is not a text of the ${lang} catalog`);
  return found;
}

/** The rows of the open dialog that show a field of one kind of watch, by what they hold. */
const ROWS = {
  api: "#node-input-api",
  where: "#node-input-where",
  profileEvents: "#node-input-event-profiles-started",
  phoneEvents: "#node-input-event-phones-running",
  runEvents: "#node-input-event-runs-succeeded",
  initial: "#node-input-initial",
} as const;

const SHOWN: Record<string, ReadonlyArray<keyof typeof ROWS>> = {
  profiles: ["where", "profileEvents", "initial"],
  phones: ["api", "phoneEvents", "initial"],
  runs: ["api", "runEvents"],
};

describe("editor: the watch node's dialog in two languages, one Node-RED and one Chromium", function () {
  this.timeout(180_000);
  // The first language's editor; the second is another page of the same Chromium, in a context of its own.
  const first = useEditorSession("the watch dialog (en-US)", "watch-en-US-", () => openEditor(undefined, "en-US"));

  for (const lang of ["en-US", "zh-CN"]) {
    describe(`editor (${lang}): the watch node's dialog shows only the fields of the chosen watch, in chromium`, () => {
      let nodeId = "";

      const session = lang === "en-US" ? first : useEditorSession(`the watch dialog (${lang})`, `watch-${lang}-`, () => openEditorPage(first(), lang));

      it("the palette names the node in the language; it has no input", async () => {
        const { page } = session();
        nodeId = await dragFromPalette(page, TYPE, TYPE, 300, 160);
        const label = page.locator(`.red-ui-palette-node[data-palette-type="${TYPE}"] .red-ui-palette-label`);
        assert.equal((await label.innerText()).trim(), text(lang, `${TYPE}.paletteLabel`));
        assert.equal(await page.locator(`[id="${nodeId}"] .red-ui-flow-port-input`).count(), 0, "no input port");
      });

      it("each watch shows its own rows, labelled in the language, and saves the events ticked", async () => {
        const { page } = session();
        await openNode(page, nodeId);
        assert.equal(await page.locator("#node-input-watch").inputValue(), "profiles", "profiles by default");
        assert.equal(await page.locator("#node-input-where").inputValue(), "local", "the desktop client's profiles by default: no cloud calls");
        assert.equal((await page.locator('label[for="node-input-watch"]').innerText()).trim(), text(lang, `${TYPE}.label.watch`));
        for (const kind of ["profiles", "phones", "runs", "profiles"]) {
          await page.locator("#node-input-watch").selectOption(kind);
          await untilEditorAtRest(page);
          for (const [row, selector] of Object.entries(ROWS)) {
            const visible = await page.locator(selector).isVisible();
            assert.equal(visible, SHOWN[kind]?.includes(row as keyof typeof ROWS), `${kind}: the ${row} row is ${visible ? "shown" : "hidden"}`);
          }
        }
        assert.equal((await page.locator('label[for="node-input-event-profiles-stopped"]').innerText()).trim(), text(lang, `${TYPE}.event.stopped`));

        await page.locator("#node-input-watch").selectOption("phones");
        assert.equal(await page.locator("#node-input-event-phones-added").isChecked(), true, "every event ticked on a new node");
        await page.locator("#node-input-event-phones-added").uncheck();
        await page.locator("#node-input-interval").fill("5");
        await page.locator("#node-dialog-ok").click();
        await page.locator("#node-dialog-ok").waitFor({ state: "detached" });
        await untilEditorAtRest(page);
        const saved = await page.evaluate((id) => {
          const node = (window as unknown as { RED: { nodes: { node: (i: string) => Record<string, unknown> } } }).RED.nodes.node(id);
          return { watch: node.watch, events: node.events, interval: node.interval, initial: node.initial };
        }, nodeId);
        assert.deepEqual(saved, { watch: "phones", events: ["running", "stopped", "changed", "removed"], interval: "5", initial: false });

        await openNode(page, nodeId);
        assert.equal(await page.locator("#node-input-event-phones-added").isChecked(), false, "the saved choice shows again");
        assert.equal(await page.locator("#node-input-event-phones-running").isChecked(), true);
        assert.equal(await page.locator(ROWS.profileEvents).isVisible(), false);
        await page.locator("#node-dialog-cancel").click();
        await page.locator("#node-dialog-cancel").waitFor({ state: "detached" });
      });
    });
  }
});
