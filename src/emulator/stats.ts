import type { EmulatorStats, FaultKind, LoggedRequest } from "./types";

const FAULT_KINDS: readonly FaultKind[] = ["latency", "http503", "http502html", "reset", "malformed", "tooMany", "rateLimited", "hang", "tokenFailure", "echo"];

export function emptyStats(): EmulatorStats {
  const faultsInjected = Object.fromEntries(FAULT_KINDS.map((kind) => [kind, 0])) as Record<FaultKind, number>;
  return { requests: {}, tokensGranted: 0, tokenRequests: 0, faultsInjected, rateLimited: 0, peakRunningProfiles: 0, peakPoweredPhones: 0 };
}

/** Zeroes the counters in place, so references callers hold stay live. */
export function resetStats(stats: EmulatorStats): void {
  for (const key of Object.keys(stats.requests)) delete stats.requests[key];
  for (const kind of FAULT_KINDS) stats.faultsInjected[kind] = 0;
  stats.tokensGranted = 0;
  stats.tokenRequests = 0;
  stats.rateLimited = 0;
  stats.peakRunningProfiles = 0;
  stats.peakPoweredPhones = 0;
}

/** Records how many profiles run and phones are powered now, if that is the most since the last reset. */
export function notePeaks(stats: EmulatorStats, counts: { profiles: number; phones: number }): void {
  stats.peakRunningProfiles = Math.max(stats.peakRunningProfiles, counts.profiles);
  stats.peakPoweredPhones = Math.max(stats.peakPoweredPhones, counts.phones);
}

export function countRequest(stats: EmulatorStats, key: string): void {
  stats.requests[key] = (stats.requests[key] ?? 0) + 1;
}

/** Keeps the most recent `size` requests, oldest first. */
export class RequestLog {
  readonly entries: LoggedRequest[] = [];

  constructor(private readonly size: number) {}

  add(entry: LoggedRequest): void {
    if (this.size <= 0) return;
    this.entries.push(entry);
    if (this.entries.length > this.size) this.entries.splice(0, this.entries.length - this.size);
  }

  clear(): void {
    this.entries.length = 0;
  }
}
