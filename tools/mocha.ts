import { join } from "node:path";
import { ROOT } from "./sandbox";

/** Mocha's command line for the TypeScript tests, without .mocharc's list of files: the caller names them. */
export function mochaArgs(timeoutMs: number): string[] {
  return [
    join(ROOT, "node_modules", "mocha", "bin", "mocha.js"),
    "--no-config",
    "--require",
    "tsx/cjs",
    "--require",
    join(ROOT, "tools", "mocha-hooks.ts"),
    "--extension",
    "ts",
    "--timeout",
    String(timeoutMs),
  ];
}
