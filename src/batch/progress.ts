import { endedOf } from "./ledger";
import type { BatchProgress, Translate } from "./types";

export type { BatchProgress } from "./types";

export interface BatchStatus {
  fill: "blue" | "yellow" | "green" | "red";
  shape: "dot" | "ring";
  text: string;
}

const NUMBER = new Intl.NumberFormat("en-US");

/** "1,234 of 5,000 · 3 failed · 2 interrupted · ETA 2 h 10 min", in the runtime's language. */
export function statusOf(progress: BatchProgress, paused: boolean, t: Translate): BatchStatus {
  const ended = endedOf(progress) + progress.cancelled;
  const failed = progress.failed + progress.timedOut;
  const parts = [t("morelogin-batch.status.of", { ended: NUMBER.format(ended), total: NUMBER.format(progress.total) })];
  if (failed > 0) parts.push(t("morelogin-batch.status.failed", { count: NUMBER.format(failed) }));
  if (progress.interrupted > 0) parts.push(t("morelogin-batch.status.interrupted", { count: NUMBER.format(progress.interrupted) }));
  const twice = progress.workedTwice?.length ?? 0;
  if (twice > 0) parts.push(t("morelogin-batch.status.workedTwice", { count: NUMBER.format(twice) }));
  const workers = progress.workers?.filter((figures) => !figures.gone).length ?? 0;
  if (workers > 0) parts.push(t("morelogin-batch.status.workers", { count: workers }));
  const finished = progress.endedAt !== null;
  if (finished) {
    if (progress.cancelled > 0) parts.push(t("morelogin-batch.status.cancelled"));
    // Green only when every item was done (or cancelled on command): anything else is a list of things to look at.
    const fill = failed > 0 ? "red" : progress.interrupted > 0 || twice > 0 ? "yellow" : "green";
    return { fill, shape: fill === "green" ? "dot" : "ring", text: parts.join(" · ") };
  }
  if (paused) return { fill: "yellow", shape: "dot", text: [t("morelogin-batch.status.paused"), ...parts].join(" · ") };
  if (progress.pacedPerMinute !== null && progress.pacedPerMinute !== undefined) parts.push(t("morelogin-batch.status.paced", { rate: NUMBER.format(Math.round(progress.pacedPerMinute)) }));
  if (progress.etaMs !== null && progress.etaMs > 0) parts.push(t("morelogin-batch.status.eta", { time: durationText(progress.etaMs, t) }));
  return { fill: "blue", shape: "dot", text: parts.join(" · ") };
}

/** "45 s", "12 min", "2 h 10 min" (and the same in Chinese). */
export function durationText(ms: number, t: Translate): string {
  const seconds = Math.max(1, Math.round(ms / 1000));
  if (seconds < 60) return t("morelogin-batch.duration.seconds", { s: seconds });
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return t("morelogin-batch.duration.minutes", { m: minutes });
  return t("morelogin-batch.duration.hours", { h: NUMBER.format(Math.floor(minutes / 60)), m: minutes % 60 });
}
