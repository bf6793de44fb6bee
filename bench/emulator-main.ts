/**
 * The emulator's own process for the benchmark: starts the compiled emulator with the options given
 * as JSON in argv[2], prints its URLs (its IP echo's too) and credentials as one JSON line, and answers "stats" requests
 * over the IPC channel (the cold-start phase counts token grants). Stops on SIGINT/SIGTERM or when
 * the parent goes away.
 */
import type { EmulatorOptions } from "../src/emulator";

// The built emulator (what `npm run build` made), not the TypeScript sources.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { startEmulator } = require("../dist/emulator/index.js") as typeof import("../src/emulator");

async function main(): Promise<void> {
  const options = JSON.parse(process.argv[2] ?? "{}") as EmulatorOptions;
  const emulator = await startEmulator({ ...options, localPort: 0, openPort: 0 });
  const stop = (): void => {
    emulator.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  process.on("disconnect", stop);
  process.on("message", (message: { type?: string }) => {
    if (message?.type === "stats") process.send?.({ type: "stats", stats: emulator.stats });
    if (message?.type === "reset") {
      emulator.resetStats();
      process.send?.({ type: "reset" });
    }
  });
  const { apiId, apiKey } = emulator.credentials;
  process.stdout.write(`${JSON.stringify({ localUrl: emulator.localUrl, openUrl: emulator.openUrl, echoUrl: emulator.echoUrl, apiId, apiKey })}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`bench emulator: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
