import type { Counter, Gauge, Histogram, Registry } from "prom-client";
import { NO_COUNTS, type LedgerCounts } from "../../../batch/ledger";
import { CAPACITY_KINDS, addTo, batchCounts, batchSources, configSources } from "./sources";

type PromClient = typeof import("prom-client");

/** The package's metrics, on a Registry of its own (never prom-client's global one, which other packages share). */
export interface MoreLoginMetrics {
  registry: Registry;
  requests: Counter<"config" | "api" | "endpoint" | "outcome">;
  rateLimited: Counter<"config" | "api">;
  paceWait: Histogram<"config" | "api">;
  journalSync: Histogram<"journal">;
}

const ITEM_STATES = Object.keys(NO_COUNTS) as (keyof LedgerCounts)[];
const PACE_BUCKETS = [0.05, 0.25, 1, 2.5, 5, 10, 30, 60, 120, 300];
const SYNC_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1];

let loaded: MoreLoginMetrics | undefined;

/**
 * The metrics, made at first use: prom-client takes some 50 ms to load, so a Node-RED that never calls
 * MoreLogin or scrapes does not pay it at its start.
 */
export function moreloginMetrics(): MoreLoginMetrics {
  loaded ??= create(require("prom-client") as PromClient);
  return loaded;
}

function create(prom: PromClient): MoreLoginMetrics {
  const registry = new prom.Registry();
  const registers = [registry];
  const metrics: MoreLoginMetrics = {
    registry,
    requests: new prom.Counter({
      name: "morelogin_requests_total",
      help: "Requests sent to MoreLogin (a retry is one more), by config node, API, endpoint name and outcome (ok, or the error kind).",
      labelNames: ["config", "api", "endpoint", "outcome"],
      registers,
    }),
    rateLimited: new prom.Counter({
      name: "morelogin_rate_limited_total",
      help: "Requests MoreLogin refused as too frequent (HTTP 429 or code 429), by config node and API.",
      labelNames: ["config", "api"],
      registers,
    }),
    paceWait: new prom.Histogram({
      name: "morelogin_pace_wait_seconds",
      help: "Seconds a request waited for its turn under the config node's pacing (or a rate-limit hold) before it was sent; requests sent at once are not counted.",
      labelNames: ["config", "api"],
      buckets: PACE_BUCKETS,
      registers,
    }),
    journalSync: new prom.Histogram({
      name: "morelogin_journal_fsync_seconds",
      help: "Seconds each fdatasync of a journal took (batch: a batch node's; leases: a config node's).",
      labelNames: ["journal"],
      buckets: SYNC_BUCKETS,
      registers,
    }),
  };
  fleetGauges(prom, registers);
  batchGauges(prom, registers);
  return metrics;
}

/** A gauge's two label values (a node's label, then a kind or state) and a figure. */
type SummedRow = [string, string, number];

/** Sets `gauge` afresh to each pair of label values' sum: two nodes of one name count together rather than hide each other. */
function setSums<L extends string>(gauge: Gauge<L>, node: L, part: L, rows: readonly SummedRow[]): void {
  gauge.reset();
  const totals = new Map<string, number>();
  for (const [label, which, value] of rows) addTo(totals, JSON.stringify([label, which]), value);
  for (const [key, value] of totals) {
    const [label, which] = JSON.parse(key) as [string, string];
    gauge.set({ [node]: label, [part]: which } as Partial<Record<L, string>>, value);
  }
}

/** A kind's figures in a config node's lease book. */
type KindFigures = { running: number; leased: number };

/** Read at each scrape from what the config nodes' lease books already know: no request is sent for them. */
function fleetGauges(prom: PromClient, registers: Registry[]): void {
  const perKind = (read: (figures: KindFigures) => number) =>
    function (this: Gauge<"config" | "kind">): void {
      const rows = [...configSources]
        .filter((source) => !source.client.isClosed)
        .flatMap((source) => {
          const counts = source.client.leases.counts();
          return CAPACITY_KINDS.map((kind): SummedRow => [source.label, kind, read(counts[kind])]);
        });
      setSums(this, "config", "kind", rows);
    };
  new prom.Gauge({
    name: "morelogin_running",
    help: "Profiles, cloud phones and cloud browsers (kind) the config node started and that still run, as its lease book knows them.",
    labelNames: ["config", "kind"],
    registers,
    collect: perKind((figures) => figures.running),
  });
  new prom.Gauge({
    name: "morelogin_leases_open",
    help: "Of those, the ones with a lease that has not ended.",
    labelNames: ["config", "kind"],
    registers,
    collect: perKind((figures) => figures.leased),
  });
}

function batchGauges(prom: PromClient, registers: Registry[]): void {
  new prom.Gauge({
    name: "morelogin_batch_items",
    help: "Items of each batch node's running batch (or of the last one that ended) by state; done, failed, timedOut, interrupted and cancelled add up to its total once it ends.",
    labelNames: ["batch", "state"],
    registers,
    collect() {
      const rows = [...batchSources].flatMap((source) => {
        const counts = batchCounts(source.work);
        return ITEM_STATES.map((state): SummedRow => [source.label, state, counts[state]]);
      });
      setSums(this, "batch", "state", rows);
    },
  });
  new prom.Gauge({
    name: "morelogin_queue_workers",
    help: "Node-REDs at work on the running batch of a batch node's queue (heard from within the worker timeout); only batch nodes with a queue.",
    labelNames: ["batch"],
    registers,
    collect() {
      this.reset();
      for (const source of batchSources) if (source.queued) this.set({ batch: source.label }, source.work.workers()?.length ?? 0);
    },
  });
  new prom.Gauge({
    name: "morelogin_redis_up",
    help: "1 while the Redis of a batch node's queue answers, 0 while it cannot be reached; only batch nodes with a queue.",
    labelNames: ["batch"],
    registers,
    collect() {
      this.reset();
      for (const source of batchSources) if (source.queued) this.set({ batch: source.label }, source.work.trouble()?.kind === "unreachable" ? 0 : 1);
    },
  });
}
