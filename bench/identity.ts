/**
 * `identity_overhead_ms`: the browser node's `identity` on a started profile behind an emulated proxy,
 * minus an `open` of the same IP-echo page through the same node on the same profile: what the check
 * costs beyond the one page load it needs (a tab of its own and its closing, the page's reads, WebRTC's
 * gathering). Alternating, median of each side.
 */
import { startEmulator } from "../src/emulator";
import { CHROMIUM } from "../test/support/chromium";
import { median, round } from "./measure";
import { BenchRuntime } from "./node-red-runtime";

const RUNS = 15;

export interface IdentityResult {
  /** Milliseconds per run, message in to message out. */
  identityMs: number[];
  openMs: number[];
}

async function timed(run: () => Promise<void>): Promise<number> {
  const begin = performance.now();
  await run();
  return performance.now() - begin;
}

export async function identityOverhead(): Promise<IdentityResult> {
  const emulator = await startEmulator({ browser: CHROMIUM, profiles: 1 });
  try {
    const [profile] = emulator.data.profiles;
    const proxy = emulator.emulatedProxies().find((candidate) => candidate.protocol === "http");
    if (!profile || !proxy) throw new Error("the emulator has no profile or no HTTP proxy");
    const post = (path: string, body: unknown): Promise<Response> =>
      fetch(`${emulator.localUrl}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    await post("/api/env/update", { envId: profile.id, proxyId: proxy.id });
    const { data } = (await (await post("/api/env/start", { envId: profile.id })).json()) as { data: { debugPort: string } };
    const address = { localUrl: emulator.localUrl, openUrl: emulator.openUrl, apiId: emulator.credentials.apiId, apiKey: emulator.credentials.apiKey };
    const runtime = await BenchRuntime.start(address, [
      { id: "step-identity", type: "morelogin-browser", action: "identity", echoUrl: emulator.echoUrl, echoUrlType: "str" },
      { id: "step-echo-open", type: "morelogin-browser", action: "open", url: emulator.echoUrl, urlType: "str", wires: [["step-echo-close"]] },
      { id: "step-echo-close", type: "morelogin-browser", action: "closePage" },
    ]);
    try {
      const msg = { payload: { webSocketDebuggerUrl: `http://127.0.0.1:${data.debugPort}` } };
      const identity = (): Promise<void> => runtime.run("step-identity", msg);
      // An open in a new tab, closed again: the page load identity needs, with the same tab's life.
      const open = (): Promise<void> => runtime.run("step-echo-open", msg);
      await identity();
      await open();
      const result: IdentityResult = { identityMs: [], openMs: [] };
      for (let index = 0; index < RUNS; index++) {
        const [first, second] = index % 2 === 0 ? [identity, open] : [open, identity];
        const firstMs = await timed(first);
        const secondMs = await timed(second);
        result.identityMs.push(round(first === identity ? firstMs : secondMs, 1));
        result.openMs.push(round(first === identity ? secondMs : firstMs, 1));
      }
      return result;
    } finally {
      await runtime.stop();
    }
  } finally {
    await emulator.close();
  }
}

export function identityOverheadMs(result: IdentityResult): number {
  return round(median(result.identityMs) - median(result.openMs), 1);
}
