/**
 * `npm run docs:screenshots`: runs the browser tests of the editor and of the Dashboard pages (examples 14 and 16) with their
 * screenshots written to docs/images/, so the pictures of the docs show exactly what the tests saw.
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { mochaArgs } from "./mocha";
import { ROOT } from "./sandbox";

const result = spawnSync(process.execPath, [...mochaArgs(180_000), "test/e2e/editor.test.ts", "test/e2e/browser-example.test.ts", "test/e2e/dashboard.test.ts", "test/e2e/batch-dashboard.test.ts"], {
  cwd: ROOT,
  stdio: "inherit",
  env: { ...process.env, CI: "true", MORELOGIN_SCREENSHOTS_DIR: join(ROOT, "docs", "images") },
});
process.exit(result.status ?? 1);
