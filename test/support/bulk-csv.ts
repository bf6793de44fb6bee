import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/**
 * A CSV of example 20's columns for a bulk run: BULK_ROWS profile rows (spreadsheet rows 2 to
 * BULK_ROWS + 1, the header being row 1), each naming the emulator's groups, tags and proxies by name
 * and a cookies file of its own (JSON, Netscape and header in turn, each holding `sid=row<N>`), with
 * the bad rows of BULK_BAD_ROWS (or none: the benchmark's rows).
 */
export const BULK_ROWS = 500;

/** The rows that must fail, each alone, and what their failure says. */
export const BULK_BAD_ROWS: ReadonlyArray<{ row: number; error: RegExp }> = [
  // A name MoreLogin refuses (over 100 characters).
  { row: 57, error: /envName.*100/ },
  { row: 233, error: /^MoreLogin has no group "Group 404"$/ },
  // A cookies file with a malformed line: the line is named, the cookie's value never.
  { row: 444, error: /line 2 of cookies .*secure/ },
];

const goodName = (row: number): string => `Bulk ${String(row).padStart(4, "0")}`;
/** The name of row `row`'s profile in the CSV with its bad rows. */
export const bulkName = (row: number): string => (row === 57 ? `Bulk ${"x".repeat(101)}` : goodName(row));

const TIME_ZONES = ["Europe/Berlin", "America/New_York", "Asia/Tokyo"];
const SITES = ["amazon.de", "ebay.com", "https://shop.example.org"];

function cookiesFile(folder: string, row: number, host: string, malformed: boolean): string {
  const dot = host.startsWith("www.") ? host.slice(3) : `.${host}`;
  const formats = [
    { file: `row-${row}.json`, text: JSON.stringify([{ name: "sid", value: `row${row}`, domain: dot, path: "/", secure: true }]) },
    { file: `row-${row}.txt`, text: `# Netscape HTTP Cookie File\n${dot}\tTRUE\t/\tFALSE\t0\tsid\trow${row}\n` },
    { file: `row-${row}-header.txt`, text: `sid=row${row}` },
  ];
  const chosen = formats[row % formats.length] as { file: string; text: string };
  const text = malformed && row === 444 ? `# Netscape HTTP Cookie File\n${dot}\tTRUE\t/\tMAYBE\t0\tsid\trow${row}\n` : chosen.text;
  writeFileSync(join(folder, "cookies", chosen.file), text);
  return `cookies/${chosen.file}`;
}

/** The names a CSV gives the emulator's groups, tags and proxies. */
export interface NamedLists {
  groups: ReadonlyArray<{ groupName: string }>;
  tags: ReadonlyArray<{ tagName: string }>;
  proxies: ReadonlyArray<{ proxyName: string }>;
}

/** Writes the CSV of `rows` profile rows and its cookies files into `folder`; returns the CSV's path. */
export function writeBulkCsv(folder: string, data: NamedLists, rows = BULK_ROWS, withBadRows = true): string {
  mkdirSync(join(folder, "cookies"), { recursive: true });
  const lines = ["name,proxy,group,tags,time zone,language,cookies file,site,username,password"];
  const bad = (row: number): boolean => withBadRows && BULK_BAD_ROWS.some((entry) => entry.row === row);
  for (let row = 2; row <= rows + 1; row++) {
    const site = SITES[row % SITES.length] as string;
    const host = site.startsWith("http") ? new URL(site).hostname : site;
    const group = bad(row) && row === 233 ? "Group 404" : data.groups[row % 3]?.groupName;
    const cells = [
      bad(row) ? bulkName(row) : goodName(row),
      data.proxies[row % data.proxies.length]?.proxyName,
      group,
      data.tags[row % data.tags.length]?.tagName,
      TIME_ZONES[row % TIME_ZONES.length],
      "en-US;de-DE",
      cookiesFile(folder, row, host, bad(row)),
      site,
      `user${row}`,
      `Bulk-pass-${row}`,
    ];
    lines.push(cells.map((cell) => String(cell ?? "")).join(","));
  }
  const csv = join(folder, "profiles.csv");
  writeFileSync(csv, `${lines.join("\n")}\n`);
  return csv;
}
