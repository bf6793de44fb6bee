/**
 * Phase 19, provisioning from a CSV at the API's pace: example 20 as shipped (catalogue → file in →
 * csv → batch of five → row → settings → create with settings) on a CSV of 360 rows, each naming a
 * group, a tag, a proxy, a time zone, languages, a site, an account and a cookies file of its own, on
 * a config node with the default pacing of 120 requests a minute, against an emulator (a process of
 * its own) that refuses more than 120 a minute as MoreLogin does. One create a row: the API's bound is
 * 120 rows a minute. Real time, as phase 16: the client's window is MoreLogin's 60 s (about 3 minutes).
 *
 * The pace shows in bursts: the window lets a minute's requests go at once and the next ones only as
 * those age out of it, so rows end in a burst each minute. `rowsPerMinute` is measured over whole
 * windows, from the first row the window held back (the first to end more than 30 s after the CSV was
 * sent) to the row 240 later (two windows of creates), as a long CSV runs from its second minute on;
 * `wholeRunPerMinute` counts from the inject to the last row, the first minute's free burst included.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { NodeMessage } from "node-red";
import { EXAMPLE_CONFIG_ID, ROOT, type FlowNode } from "../tools/sandbox";
import { writeBulkCsv } from "../test/support/bulk-csv";
import { changeNode, csvNode, fileNode, functionNode, helper, injectNode, switchNode } from "../test/support/node-red";
import { startEmulatorProcess } from "./emulator-process";
import { round } from "./measure";
import { BenchRuntime } from "./node-red-runtime";
import { runAlone } from "./run-alone";

export const PROVISION_ROWS = 360;
const PER_MINUTE = 120;
/** Rows measured in the steady part: two windows of creates. */
const STEADY_ROWS = 240;
/** A row that ends later than this after the inject waited for the window. */
const HELD_BACK_MS = 30_000;
const DEADLINE_MS = 6 * 60_000;
const EXAMPLE = join(ROOT, "examples", "20 Create profiles from a CSV.json");

export interface ProvisionResult {
  rows: number;
  perMinute: number;
  parallel: number;
  created: number;
  failed: number;
  /** Requests the emulator refused with 429 (pacing that works keeps this at 0). */
  refused: number;
  seconds: number;
  /** Rows a minute over two whole windows after the first (the figure judged). */
  rowsPerMinute: number;
  /** rowsPerMinute ÷ the API's bound (120 requests a minute, one create a row). */
  ofBound: number;
  /** Rows a minute from the inject to the last row, the first minute's burst included. */
  wholeRunPerMinute: number;
}

/** Example 20's nodes as the bench runtime loads them: its Debug nodes as helper nodes, no comments, its own config node left out (the runtime's takes its id), the inject naming `csv`. */
function exampleNodes(csv: string): FlowNode[] {
  const nodes = JSON.parse(readFileSync(EXAMPLE, "utf8")) as FlowNode[];
  return nodes
    .filter((node) => node.type !== "comment" && node.type !== "morelogin-config")
    .map((node) => {
      if (node.type === "debug") return { id: node.id, type: "helper", name: node.name, wires: [] };
      if (node.type === "inject") return { ...node, props: (node.props as Array<{ p: string; v?: string }>).map((prop) => (prop.p === "filename" ? { ...prop, v: csv } : prop)) };
      return node;
    });
}

const byName = (nodes: FlowNode[], name: string): string => {
  const found = nodes.find((node) => node.type === "helper" && node.name === name);
  if (!found) throw new Error(`example 20 has no Debug node "${name}"`);
  return found.id;
};

export async function provision(): Promise<ProvisionResult> {
  const work = mkdtempSync(join(tmpdir(), "morelogin-bench-provision-"));
  // The default seed's names: groups "Group 1" to "Group 5", six tags, proxies "Proxy 001" to "Proxy 008".
  const csv = writeBulkCsv(
    work,
    {
      groups: ["Group 1", "Group 2", "Group 3"].map((groupName) => ({ groupName })),
      tags: ["Shopping", "Social", "Ads", "Email", "Testing", "VIP"].map((tagName) => ({ tagName })),
      proxies: Array.from({ length: 8 }, (_, index) => ({ proxyName: `Proxy ${String(index + 1).padStart(3, "0")}` })),
    },
    PROVISION_ROWS,
    false,
  );
  const emulator = await startEmulatorProcess({ profiles: 5, rateLimitPerMinute: PER_MINUTE, rateLimitRetryAfter: false });
  try {
    const nodes = exampleNodes(csv);
    const runtime = await BenchRuntime.startWith([{ id: EXAMPLE_CONFIG_ID, emulator, settings: { localRpm: String(PER_MINUTE), openRpm: String(PER_MINUTE) } }], nodes, [
      functionNode,
      changeNode,
      fileNode,
      csvNode,
      switchNode,
      injectNode,
    ]);
    try {
      const endedAt: number[] = [];
      let failed = 0;
      helper.getNode(byName(nodes, "each profile")).on("input", () => endedAt.push(performance.now()));
      helper.getNode(byName(nodes, "error")).on("input", () => failed++);
      const summary = new Promise<string>((resolve) => helper.getNode(byName(nodes, "summary")).on("input", (msg: NodeMessage) => resolve(String(msg.payload))));
      const inject = nodes.find((node) => node.type === "inject");
      if (!inject) throw new Error("example 20 has no inject node");
      const began = performance.now();
      helper.getNode(inject.id).receive({} as NodeMessage);
      let deadline: NodeJS.Timeout | undefined;
      const said = await Promise.race([
        summary,
        new Promise<never>((_, reject) => {
          deadline = setTimeout(() => reject(new Error(`the CSV was not done within ${DEADLINE_MS / 60_000} minutes`)), DEADLINE_MS);
        }),
      ]).finally(() => clearTimeout(deadline));
      const end = performance.now();
      if (endedAt.length !== PROVISION_ROWS || failed > 0) throw new Error(`${endedAt.length} of ${PROVISION_ROWS} rows created, ${failed} failed: ${said}`);
      const first = endedAt.findIndex((at) => at - began > HELD_BACK_MS);
      const last = first + STEADY_ROWS;
      if (first < 0 || last >= endedAt.length) throw new Error(`too few rows after the first window to measure two more (${first} ended in it)`);
      const rowsPerMinute = (STEADY_ROWS / ((endedAt[last] as number) - (endedAt[first] as number))) * 60_000;
      return {
        rows: PROVISION_ROWS,
        perMinute: PER_MINUTE,
        parallel: Number(nodes.find((node) => node.type === "morelogin-batch")?.parallel),
        created: endedAt.length,
        failed,
        refused: (await emulator.stats()).rateLimited,
        seconds: round((end - began) / 1000, 1),
        rowsPerMinute: round(rowsPerMinute, 1),
        ofBound: round(rowsPerMinute / PER_MINUTE, 3),
        wholeRunPerMinute: round((PROVISION_ROWS / (end - began)) * 60_000, 1),
      };
    } finally {
      await runtime.stop();
    }
  } finally {
    await emulator.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

/** `npx tsx bench/provision.ts`: this phase alone, its figures printed as JSON. */
if (require.main === module) runAlone(provision);
