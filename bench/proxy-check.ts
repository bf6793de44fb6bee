/**
 * Phase 22, the proxy node's check: 100 proxies from list proxies (their rows, each with its password
 * added as a flow would, since the lists withhold it) checked at concurrency 10 through the emulator's
 * real loopback proxies (HTTP, HTTPS and SOCKS5, some with credentials) and its IP echo, in a real
 * Node-RED; the emulator runs in a process of its own. The figure is the time from the message in to
 * the array out, median of the rounds after a first one that warms up; every proxy must answer alive.
 */
import type { NodeMessage } from "node-red";
import type { EmulatedProxy, ProxyInfo } from "../src/emulator";
import { CONFIG_ID, helper } from "../test/support/node-red";
import { startEmulatorProcess } from "./emulator-process";
import { median, round } from "./measure";
import { BenchRuntime } from "./node-red-runtime";
import { runAlone } from "./run-alone";

const PROXIES = 100;
const CONCURRENCY = 10;
/** Seeded rows: six in eight have a proxy behind them (docs/EMULATOR.md), so this many give more than 100. */
const SEEDED_ROWS = 140;
const ROUNDS = 5;

export interface ProxyCheckResult {
  proxies: number;
  concurrency: number;
  /** Each round's seconds, message in to array out (the warm-up round not counted). */
  roundsSeconds: number[];
  seconds: number;
  alive: number;
}

async function post<T>(url: string, body: unknown): Promise<T> {
  const answer = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  return ((await answer.json()) as { data: T }).data;
}

/** The first 100 rows with a proxy behind them, as list proxies gives them, each with its password. */
async function rowsToCheck(localUrl: string): Promise<Array<ProxyInfo & { password: string | null }>> {
  const emulated = (await (await fetch(`${localUrl}/emulator/proxies`)).json()) as EmulatedProxy[];
  const byId = new Map(emulated.map((proxy) => [proxy.id, proxy]));
  const listed: ProxyInfo[] = [];
  for (let pageNo = 1; listed.length < SEEDED_ROWS; pageNo++) {
    const page = await post<{ dataList: ProxyInfo[] }>(`${localUrl}/api/proxyInfo/page`, { pageNo, pageSize: 100 });
    if (page.dataList.length === 0) break;
    listed.push(...page.dataList);
  }
  const rows = listed.filter((row) => byId.has(row.id)).slice(0, PROXIES);
  if (rows.length < PROXIES) throw new Error(`only ${rows.length} emulated proxies for ${PROXIES}`);
  return rows.map((row) => ({ ...row, password: byId.get(row.id)?.credentials?.password ?? null }));
}

export async function proxyCheck(): Promise<ProxyCheckResult> {
  const emulator = await startEmulatorProcess({ profiles: 1, cloudPhones: 0, proxies: SEEDED_ROWS });
  try {
    const rows = await rowsToCheck(emulator.localUrl);
    // Not "check": Node-RED takes a property whose value is a node's ID (action: "check") for a reference to it.
    const node = {
      id: "checker",
      type: "morelogin-proxy",
      server: CONFIG_ID,
      action: "check",
      echoUrl: emulator.echoUrl,
      echoUrlType: "str",
      concurrency: String(CONCURRENCY),
      concurrencyType: "num",
    };
    const runtime = await BenchRuntime.start(emulator, [node]);
    try {
      let last: unknown;
      helper.getNode("collect").on("input", (msg: NodeMessage) => {
        last = msg.payload;
      });
      const roundsSeconds: number[] = [];
      for (let round = 0; round <= ROUNDS; round++) {
        const began = performance.now();
        await runtime.run("checker", { payload: rows });
        if (round > 0) roundsSeconds.push((performance.now() - began) / 1000);
      }
      const outcomes = last as Array<{ ok: boolean; error: string | null }>;
      const alive = outcomes.filter((outcome) => outcome.ok).length;
      if (alive !== PROXIES) throw new Error(`${alive} of ${PROXIES} alive: ${JSON.stringify(outcomes.find((outcome) => !outcome.ok))}`);
      return { proxies: PROXIES, concurrency: CONCURRENCY, roundsSeconds: roundsSeconds.map((seconds) => round(seconds, 3)), seconds: round(median(roundsSeconds), 3), alive };
    } finally {
      await runtime.stop();
    }
  } finally {
    await emulator.stop();
  }
}

/** `npx tsx bench/proxy-check.ts`: this phase alone, its figures printed as JSON. */
if (require.main === module) runAlone(proxyCheck);
