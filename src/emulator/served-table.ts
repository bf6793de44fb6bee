import { SERVED_PATH } from "./served";
import type { ServedCounts } from "./types";

/** With more rows than this, the table shows only those that are not one start and one close (or power-on and power-off), none refused. */
const FULL_TABLE_ROWS = 40;

interface Row {
  kind: "profile" | "phone";
  id: string;
  name: string;
  /** Starts or power-ons, closes or power-offs, refused calls. */
  counts: [number, number, number];
}

const plural = (count: number, one: string, many: string): string => `${count} ${count === 1 ? one : many}`;

function rowsOf(counts: ServedCounts): Row[] {
  return [
    ...Object.entries(counts.profiles).map(([id, p]): Row => ({ kind: "profile", id, name: p.name, counts: [p.starts, p.closes, p.refused] })),
    ...Object.entries(counts.phones).map(([id, p]): Row => ({ kind: "phone", id, name: p.name, counts: [p.powerOns, p.powerOffs, p.refused] })),
  ];
}

const isPlain = (row: Row): boolean => row.counts[0] === 1 && row.counts[1] === 1 && row.counts[2] === 0;

function summary(rows: Row[], kind: Row["kind"]): string {
  const mine = rows.filter((row) => row.kind === kind);
  const on = mine.filter((row) => row.counts[0] > 0).length;
  const twice = mine.filter((row) => row.counts[0] > 1).length;
  const off = mine.filter((row) => row.counts[1] > 0).length;
  const refused = mine.reduce((sum, row) => sum + row.counts[2], 0);
  const [started, closed] = kind === "profile" ? ["started", "closed"] : ["powered on", "powered off"];
  const again = twice === 0 ? "none more than once" : `${twice} of them more than once`;
  return `  ${kind === "profile" ? "Profiles" : "Cloud phones"}: ${on} ${started} (${again}), ${off} ${closed}; ${plural(refused, "call", "calls")} refused`;
}

function table(rows: Row[]): string[] {
  const header = ["", "ID", "name", "starts / power-ons", "closes / power-offs", "refused"];
  const cells = [header, ...rows.map((row) => [row.kind, row.id, row.name, ...row.counts.map(String)])];
  const widths = header.map((_, column) => Math.max(...cells.map((line) => (line[column] ?? "").length)));
  return cells.map((line) => `  ${line.map((cell, column) => (column >= 3 ? cell.padStart(widths[column] ?? 0) : cell.padEnd(widths[column] ?? 0))).join("  ")}`.trimEnd());
}

/** What the emulator served, for its console at exit: a summary, then a table (the unusual rows only, when there are many). */
export function servedReport(counts: ServedCounts): string {
  const rows = rowsOf(counts);
  const lines = [`What the emulator served (GET ${SERVED_PATH} answers the same, as JSON):`];
  if (rows.length === 0) return `${lines[0]}\n  no profile was started or closed, no cloud phone powered on or off\n`;
  lines.push(summary(rows, "profile"), summary(rows, "phone"));
  const shown = rows.length > FULL_TABLE_ROWS ? rows.filter((row) => !isPlain(row)) : rows;
  if (shown.length > 0) lines.push(...table(shown));
  if (shown.length < rows.length) lines.push(`  (${plural(rows.length - shown.length, "more was", "more were")} started and closed, or powered on and off, exactly once, with none refused)`);
  return `${lines.join("\n")}\n`;
}
