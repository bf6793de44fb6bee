import assert from "node:assert/strict";
import { join } from "node:path";
import { browserSkipReason } from "../support/chromium";
import { type EditorSession, openEditor, SESSION_OPENS_MS } from "./editor-session";

const RESULTS = join(__dirname, "..", "..", "test-results");

/**
 * One editor session for the tests of a describe block: opened before them (or, when the browser tests
 * are skipped on purpose, the block skipped, saying that `what` was not tested), a screenshot in
 * test-results/ of the page as a test failed (`failed-<shotPrefix><title>.png`), closed after them.
 */
export function useEditorSession(what: string, shotPrefix: string, open: () => Promise<EditorSession> = () => openEditor()): () => EditorSession {
  let session: EditorSession | undefined;
  before(async function () {
    this.timeout(SESSION_OPENS_MS);
    const skipped = browserSkipReason();
    if (skipped) {
      console.log(`    browser tests skipped on purpose (${skipped}): ${what} was not tested`);
      this.skip();
    }
    session = await open();
  });
  afterEach(async function () {
    const test = this.currentTest;
    if (test?.state === "failed" && session) {
      await session.page.screenshot({ path: join(RESULTS, `failed-${shotPrefix}${test.title.replace(/\W+/g, "-").slice(0, 60)}.png`) }).catch(() => undefined);
    }
  });
  after(async () => {
    await session?.close();
  });
  return () => {
    assert.ok(session, "the editor session is open");
    return session;
  };
}
