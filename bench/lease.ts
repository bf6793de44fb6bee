/**
 * Phase 12, leases: 50 profiles started through the start profile node with leases of 2 to 4 s and
 * never closed. The figure is, per lease, the time from its end (`msg.morelogin.profile.leaseUntil`)
 * to the moment its close reaches the API, timed by a pass-through proxy in front of the emulator's
 * Local API (a process of its own). Target: p99 at most 2,000 ms.
 */
import { createServer, request, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { NodeMessage } from "node-red";
import { helper } from "../test/support/node-red";
import { startEmulatorProcess } from "./emulator-process";
import { median, percentile, round } from "./measure";
import { BenchRuntime } from "./node-red-runtime";

export const LEASES = 50;
const SHORTEST_LEASE_S = 2;
const LONGEST_LEASE_S = 4;
const CLOSE_PATH = "/api/env/close";

export interface LeaseResult {
  leases: number;
  /** Leases whose close reached the API. */
  closed: number;
  /** Closes that reached the API more than once for one profile. */
  duplicates: number;
  /** Per lease: ms from its end to its close at the API (negative: closed early). */
  lagMs: number[];
  medianMs: number;
  p99Ms: number;
  /** The earliest close relative to its lease's end: must not be below 0. */
  earliestMs: number;
}

/** Forwards every request to `target` and notes when each close arrives, by profile ID. */
async function closeTimer(target: string): Promise<{ url: string; closes: Map<string, number[]>; close(): Promise<void> }> {
  const closes = new Map<string, number[]>();
  const upstream = new URL(target);
  const server = createServer((incoming: IncomingMessage, outgoing: ServerResponse) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => {
      const body = Buffer.concat(chunks);
      if (incoming.url === CLOSE_PATH) {
        const envId = String((JSON.parse(body.toString() || "{}") as { envId?: unknown }).envId ?? "");
        closes.set(envId, [...(closes.get(envId) ?? []), Date.now()]);
      }
      const forwarded = request({ host: upstream.hostname, port: upstream.port, path: incoming.url, method: incoming.method, headers: incoming.headers }, (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      });
      forwarded.on("error", () => outgoing.destroy());
      forwarded.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    closes,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export async function leasePhase(): Promise<LeaseResult> {
  const emulator = await startEmulatorProcess({ profiles: LEASES });
  const timer = await closeTimer(emulator.localUrl);
  try {
    const runtime = await BenchRuntime.startWith(
      [{ id: "config-lease", emulator: { ...emulator, localUrl: timer.url } }],
      [{ id: "lease-start", type: "morelogin-start-profile", server: "config-lease" }],
    );
    try {
      const until = new Map<string, number>();
      helper.getNode("collect").on("input", (msg: NodeMessage & { morelogin?: { profile?: { envId: string; leaseUntil?: string } } }) => {
        const profile = msg.morelogin?.profile;
        if (profile?.leaseUntil) until.set(profile.envId, Date.parse(profile.leaseUntil));
      });
      const ids = await profileIds(emulator.localUrl);
      await Promise.all(ids.map((envId, index) => runtime.run("lease-start", { payload: envId, lease: SHORTEST_LEASE_S + ((LONGEST_LEASE_S - SHORTEST_LEASE_S) * index) / ids.length })));
      const deadline = Date.now() + (LONGEST_LEASE_S + 30) * 1000;
      while (ids.some((envId) => !timer.closes.has(envId)) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      const lagMs = ids.filter((envId) => timer.closes.has(envId) && until.has(envId)).map((envId) => (timer.closes.get(envId)?.[0] ?? 0) - (until.get(envId) ?? 0));
      const sorted = [...lagMs].sort((a, b) => a - b);
      return {
        leases: ids.length,
        closed: lagMs.length,
        duplicates: [...timer.closes.values()].filter((times) => times.length > 1).length,
        lagMs,
        medianMs: round(median(sorted)),
        p99Ms: round(percentile(sorted, 0.99)),
        earliestMs: round(sorted[0] ?? Number.NaN),
      };
    } finally {
      await runtime.stop();
    }
  } finally {
    await timer.close();
    await emulator.stop();
  }
}

async function profileIds(localUrl: string): Promise<string[]> {
  const response = await fetch(`${localUrl}/api/env/page`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ pageNo: 1, pageSize: LEASES }) });
  const page = ((await response.json()) as { data?: { dataList?: Array<{ id: string }> } }).data?.dataList ?? [];
  return page.map((profile) => profile.id).slice(0, LEASES);
}
