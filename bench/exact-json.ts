/**
 * Phase 8, what exact big-integer parsing costs: every reply the client reads goes through
 * `parseJsonExact` (src/client/exact-json.ts) instead of `JSON.parse`. Its regex pre-check looks for
 * an integer of 16 digits or more after `:`, `[` or `,`; a reply without one goes straight to
 * JSON.parse, a reply with one is scanned and its unsafe integers quoted first. Measured on the
 * emulator's own list replies (10 and 100 profiles; IDs are quoted strings, as MoreLogin sends them),
 * as they are, with one ID sent as a bare number, and with every ID a bare number.
 */
import assert from "node:assert/strict";
import { Pool } from "undici";
import { startEmulatorProcess } from "./emulator-process";
import { inRotatingRounds, median, round } from "./measure";
import { PAGE_PATH } from "./raw-undici";

// The built client (what `npm run build` made), as the nodes run it.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { parseJsonExact } = require("../dist/client/exact-json.js") as typeof import("../src/client/exact-json");

export const PARSE_VARIANTS = ["plain", "exact", "exactOne", "exactAll"] as const;
export type ParseVariant = (typeof PARSE_VARIANTS)[number];

export const PARSE_LABELS: Record<ParseVariant, string> = {
  plain: "JSON.parse, reply as sent (IDs quoted)",
  exact: "parseJsonExact, no unsafe integer (pre-check only)",
  exactOne: "parseJsonExact, one ID as a bare number",
  exactAll: "parseJsonExact, every ID as a bare number",
};

export interface ParseFigure {
  /** Median of the rounds, microseconds per reply. */
  us: number;
  /** µs per reply ÷ JSON.parse's µs per reply, median of the per-round ratios. */
  vsPlain: number;
}

export interface ExactJsonPage {
  profiles: number;
  bytes: number;
  /** Bare-number IDs in the exactAll variant. */
  unsafeIntegers: number;
  variants: Record<ParseVariant, ParseFigure>;
}

export interface ExactJsonResult {
  rounds: number;
  pages: ExactJsonPage[];
}

const ROUNDS = 11;
/** Parses per variant per round: about 20 ms of work each. */
const ITERATIONS: Record<number, number> = { 10: 2_000, 100: 200 };

/** The text of one list reply, straight from the emulator. */
async function replyText(localUrl: string, pageSize: number): Promise<string> {
  const pool = new Pool(localUrl, { connections: 1 });
  try {
    const response = await pool.request({ path: PAGE_PATH, method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ pageNo: 1, pageSize }) });
    return await response.body.text();
  } finally {
    await pool.destroy();
  }
}

const ID_FIELD = /"id":"(\d{16,})"/g;

let sink = 0;

function timePerParse(parse: (text: string) => unknown, text: string, iterations: number): number {
  const begin = performance.now();
  for (let i = 0; i < iterations; i++) {
    const value = parse(text) as { code?: number };
    sink += value.code === 0 ? 1 : 2;
  }
  return ((performance.now() - begin) * 1000) / iterations;
}

async function measurePage(localUrl: string, pageSize: number): Promise<ExactJsonPage> {
  const plain = await replyText(localUrl, pageSize);
  const ids = [...plain.matchAll(ID_FIELD)].map((match) => match[1] as string);
  if (ids.length < pageSize) throw new Error(`expected ${pageSize} profile IDs in the reply, found ${ids.length}`);
  const first = ids[0] as string;
  const texts: Record<ParseVariant, string> = {
    plain,
    exact: plain,
    exactOne: plain.replace(`"id":"${first}"`, `"id":${first}`),
    exactAll: plain.replace(ID_FIELD, '"id":$1'),
  };
  const parsers: Record<ParseVariant, (text: string) => unknown> = { plain: JSON.parse, exact: parseJsonExact, exactOne: parseJsonExact, exactAll: parseJsonExact };
  // What is measured must be right: the same value as JSON.parse, and exact IDs where they were bare.
  assert.deepEqual(parseJsonExact(plain), JSON.parse(plain));
  assert.deepEqual(parseJsonExact(texts.exactOne), JSON.parse(plain));
  assert.deepEqual(parseJsonExact(texts.exactAll), JSON.parse(plain));
  assert.notEqual(String((JSON.parse(texts.exactOne) as { data: { dataList: Array<{ id: unknown }> } }).data.dataList[0]?.id), first, "a bare 19-digit ID is rounded by JSON.parse");

  const iterations = ITERATIONS[pageSize] ?? 200;
  // Warm-up: every variant compiled and its regexes hot.
  for (const variant of PARSE_VARIANTS) timePerParse(parsers[variant], texts[variant], iterations);
  const measured = await inRotatingRounds(PARSE_VARIANTS, [iterations], ROUNDS, (variant, times) => timePerParse(parsers[variant], texts[variant], times));
  const usOf = (variant: ParseVariant): number[] => measured[variant][0] ?? [];
  const variants = {} as Record<ParseVariant, ParseFigure>;
  for (const variant of PARSE_VARIANTS) {
    const perRound = usOf(variant).map((us, index) => us / (usOf("plain")[index] as number));
    variants[variant] = { us: round(median(usOf(variant)), 1), vsPlain: round(median(perRound), 2) };
  }
  return { profiles: pageSize, bytes: Buffer.byteLength(plain), unsafeIntegers: ids.length, variants };
}

export async function exactJson(): Promise<ExactJsonResult> {
  const emulator = await startEmulatorProcess({ profiles: 100 });
  try {
    const pages = [await measurePage(emulator.localUrl, 10), await measurePage(emulator.localUrl, 100)];
    if (sink === 0) throw new Error("nothing was parsed");
    return { rounds: ROUNDS, pages };
  } finally {
    await emulator.stop();
  }
}
