/**
 * Phase 4, Open API cold start: 1,000 messages reach a morelogin-list-apps node at once, on a config
 * node that has no token yet. Counts the token grants the emulator made and the messages per second.
 */
import { startEmulatorProcess } from "./emulator-process";
import { round } from "./measure";
import { BenchRuntime } from "./node-red-runtime";

export interface ColdStartResult {
  messages: number;
  succeeded: number;
  tokenGrants: number;
  tokenRequests: number;
  appPageRequests: number;
  seconds: number;
  perSecond: number;
}

export async function coldStart(messages = 1_000): Promise<ColdStartResult> {
  const emulator = await startEmulatorProcess({ apps: 30 });
  try {
    const runtime = await BenchRuntime.start(emulator, [
      { id: "bench-apps", type: "morelogin-list-apps", server: "config1", pageNum: "1", pageNumType: "num", pageSize: "10", pageSizeType: "num", output: "array" },
    ]);
    try {
      const begin = performance.now();
      const outcomes = await Promise.allSettled(Array.from({ length: messages }, () => runtime.run("bench-apps", { payload: "" })));
      const seconds = (performance.now() - begin) / 1000;
      const stats = await emulator.stats();
      return {
        messages,
        succeeded: outcomes.filter((outcome) => outcome.status === "fulfilled").length,
        tokenGrants: stats.tokensGranted,
        tokenRequests: stats.tokenRequests,
        appPageRequests: stats.requests["open POST /cloudphone/app/page"] ?? 0,
        seconds: round(seconds),
        perSecond: Math.round(messages / seconds),
      };
    } finally {
      await runtime.stop();
    }
  } finally {
    await emulator.stop();
  }
}
