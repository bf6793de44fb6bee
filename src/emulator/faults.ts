import type { ApiName, FaultKind, FaultRates, ScriptedFault } from "./types";

export interface FaultPlan {
  /** The fault that replaces the normal answer, if any. */
  kind?: Exclude<FaultKind, "latency">;
  /** Extra delay before answering (from a latency fault or the random latency range). */
  delayMs: number;
  retryAfterSeconds: number;
}

export interface FaultTarget {
  api: ApiName;
  path: string;
  method: string;
}

const RANDOM_KINDS = ["http503", "http502html", "reset", "malformed", "tooMany", "rateLimited", "hang", "echo"] as const;

const isTokenRoute = (t: FaultTarget): boolean => t.api === "open" && t.path === "/oauth2/token";
const isHealthProbe = (t: FaultTarget): boolean => t.api === "local" && t.path === "/status";

/** Decides, per request, which fault (if any) to inject: scripted faults first, then random dice. */
export class FaultInjector {
  private rates: FaultRates;
  private readonly queue: { fault: ScriptedFault; remaining: number }[] = [];

  constructor(rates: FaultRates = {}) {
    this.rates = { ...rates };
  }

  setRates(rates: FaultRates): void {
    this.rates = { ...rates };
  }

  script(fault: ScriptedFault): void {
    const times = fault.times ?? 1;
    if (times > 0) this.queue.push({ fault: { ...fault }, remaining: Math.floor(times) });
  }

  plan(target: FaultTarget): FaultPlan {
    return this.scripted(target) ?? this.random(target);
  }

  private matches(fault: ScriptedFault, target: FaultTarget): boolean {
    if (fault.api !== undefined && fault.api !== target.api) return false;
    if (fault.path !== undefined) return fault.path === target.path;
    if (fault.kind === "tokenFailure") return isTokenRoute(target);
    // A fault without a path never hits the health probe; name "/status" to fault it.
    return !isHealthProbe(target);
  }

  private scripted(target: FaultTarget): FaultPlan | undefined {
    const index = this.queue.findIndex((entry) => this.matches(entry.fault, target));
    const entry = this.queue[index];
    if (entry === undefined) return undefined;
    if (--entry.remaining <= 0) this.queue.splice(index, 1);
    const { kind, latencyMs = 0, retryAfterSeconds = this.rates.retryAfterSeconds ?? 1 } = entry.fault;
    if (kind === "latency") return { delayMs: Math.max(0, latencyMs), retryAfterSeconds };
    if (kind === "tokenFailure" && !isTokenRoute(target)) return { delayMs: 0, retryAfterSeconds };
    return { kind, delayMs: 0, retryAfterSeconds };
  }

  private random(target: FaultTarget): FaultPlan {
    const plan: FaultPlan = { delayMs: this.randomLatency(), retryAfterSeconds: this.rates.retryAfterSeconds ?? 1 };
    if (isHealthProbe(target)) return { ...plan, delayMs: 0 };
    if (isTokenRoute(target)) {
      if (Math.random() < (this.rates.tokenFailure ?? 0)) plan.kind = "tokenFailure";
      return plan;
    }
    for (const kind of RANDOM_KINDS) {
      if (Math.random() < (this.rates[kind] ?? 0)) {
        plan.kind = kind;
        break;
      }
    }
    return plan;
  }

  private randomLatency(): number {
    const range = this.rates.latencyMs;
    if (!range) return 0;
    const [min, max] = range;
    if (!(max > 0)) return 0;
    const low = Math.max(0, min);
    return low + Math.random() * Math.max(0, max - low);
  }
}
