/**
 * Phase 12, MoreLogin's server edition: 1,000 list-profiles messages reach the node at once, on a
 * config node with `localLogin` that has not logged in yet, against the emulator's `login` mode.
 * Counts the logins the emulator saw: one login however many calls wait.
 */
import { CONFIG_ID } from "../test/support/node-red";
import { startEmulatorProcess } from "./emulator-process";
import { round } from "./measure";
import { BenchRuntime } from "./node-red-runtime";

export interface ServerLoginResult {
  messages: number;
  succeeded: number;
  logins: number;
  pageRequests: number;
  seconds: number;
}

export async function serverLogin(messages = 1_000): Promise<ServerLoginResult> {
  const emulator = await startEmulatorProcess({ login: true });
  try {
    const runtime = await BenchRuntime.startWith(
      [{ id: CONFIG_ID, emulator, settings: { localLogin: "true" } }],
      [{ id: "bench-list", type: "morelogin-list-profiles", server: CONFIG_ID, pageNo: "1", pageNoType: "num", pageSize: "10", pageSizeType: "num", output: "array" }],
    );
    try {
      const begin = performance.now();
      const outcomes = await Promise.allSettled(Array.from({ length: messages }, () => runtime.run("bench-list", { payload: "" })));
      const seconds = (performance.now() - begin) / 1000;
      const stats = await emulator.stats();
      return {
        messages,
        succeeded: outcomes.filter((outcome) => outcome.status === "fulfilled").length,
        logins: stats.requests["local POST /api/user/login"] ?? 0,
        pageRequests: stats.requests["local POST /api/env/page"] ?? 0,
        seconds: round(seconds),
      };
    } finally {
      await runtime.stop();
    }
  } finally {
    await emulator.stop();
  }
}
