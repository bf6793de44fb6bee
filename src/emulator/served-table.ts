import { SERVED_PATH } from "./served";
import type { ServedCounts } from "./types";

/** With more rows than this, the table shows only the unusual ones (see isPlain). */
const FULL_TABLE_ROWS = 40;

interface Row {
  kind: "profile" | "phone";
  id: string;
  name: string;
  /** Starts or power-ons, closes or power-offs, refused calls. */
  counts: [number, number, number];
  /** Deletes served (phones only). */
  deletes?: number;
}

const plural = (count: number, one: string, many: string): string => `${count} ${count === 1 ? one : many}`;

function rowsOf(counts: ServedCounts): Row[] {
  return [
    ...Object.entries(counts.profiles).map(([id, p]): Row => ({ kind: "profile", id, name: p.name, counts: [p.starts, p.closes, p.refused] })),
    ...Object.entries(counts.phones).map(([id, p]): Row => ({ kind: "phone", id, name: p.name, counts: [p.powerOns, p.powerOffs, p.refused], deletes: p.deletes })),
  ];
}

const deleted = (row: Row): boolean => (row.deletes ?? 0) > 0;

/**
 * Nothing unusual: none refused, and one start and one close (power-on and power-off), or for a phone
 * deleted once, at most one power-on (and its power-off) before.
 */
function isPlain(row: Row): boolean {
  const [on, off, refused] = row.counts;
  if (refused > 0) return false;
  if ((row.deletes ?? 0) === 0) return on === 1 && off === 1;
  return row.deletes === 1 && on <= 1 && off <= on;
}

/** A deleted phone is counted as deleted, not as powered on or off. */
function summary(rows: Row[], kind: Row["kind"]): string {
  const mine = rows.filter((row) => row.kind === kind);
  const kept = mine.filter((row) => !deleted(row));
  const on = kept.filter((row) => row.counts[0] > 0).length;
  const twice = kept.filter((row) => row.counts[0] > 1).length;
  const off = kept.filter((row) => row.counts[1] > 0).length;
  const refused = mine.reduce((sum, row) => sum + row.counts[2], 0);
  const [started, closed] = kind === "profile" ? ["started", "closed"] : ["powered on", "powered off"];
  const again = twice === 0 ? "none more than once" : `${twice} of them more than once`;
  const gone = kind === "phone" ? `, ${mine.length - kept.length} deleted` : "";
  return `  ${kind === "profile" ? "Profiles" : "Cloud phones"}: ${on} ${started} (${again}), ${off} ${closed}${gone}; ${plural(refused, "call", "calls")} refused`;
}

function table(rows: Row[]): string[] {
  const header = ["", "ID", "name", "starts / power-ons", "closes / power-offs", "refused", "deletes"];
  const cells = [header, ...rows.map((row) => [row.kind, row.id, row.name, ...row.counts.map(String), row.deletes === undefined ? "" : String(row.deletes)])];
  const widths = header.map((_, column) => Math.max(...cells.map((line) => (line[column] ?? "").length)));
  return cells.map((line) => `  ${line.map((cell, column) => (column >= 3 ? cell.padStart(widths[column] ?? 0) : cell.padEnd(widths[column] ?? 0))).join("  ")}`.trimEnd());
}

/** What the emulator served, for its console at exit: a summary, then a table (the unusual rows only, when there are many). */
export function servedReport(counts: ServedCounts): string {
  const rows = rowsOf(counts);
  const lines = [`What the emulator served (GET ${SERVED_PATH} answers the same, as JSON):`];
  if (rows.length === 0) return `${lines[0]}\n  no profile was started or closed, no cloud phone powered on, off or deleted\n`;
  lines.push(summary(rows, "profile"), summary(rows, "phone"));
  const shown = rows.length > FULL_TABLE_ROWS ? rows.filter((row) => !isPlain(row)) : rows;
  if (shown.length > 0) lines.push(...table(shown));
  if (shown.length < rows.length)
    lines.push(`  (${plural(rows.length - shown.length, "more was", "more were")} started and closed, or powered on and off or deleted, exactly once, with none refused)`);
  return `${lines.join("\n")}\n`;
}
