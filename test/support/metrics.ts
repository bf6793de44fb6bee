/** One sample of a scrape in Prometheus's text format. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const LINE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

/** The samples of a scrape (comments and blank lines left out). */
export function parseScrape(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    const match = LINE.exec(line);
    if (!match) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, name, value] of (match[2] ?? "").matchAll(LABEL)) labels[name as string] = (value as string).replace(/\\(.)/g, "$1");
    samples.push({ name: match[1] as string, labels, value: Number(match[3]) });
  }
  return samples;
}

/** The value of the sample named `name` whose labels include `labels`, summed over those that match (0 when none does). */
export function sampleValue(samples: readonly Sample[], name: string, labels: Record<string, string> = {}): number {
  return samples.filter((sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value)).reduce((sum, sample) => sum + sample.value, 0);
}

/** Every label value of a scrape. */
export function labelValues(samples: readonly Sample[]): Set<string> {
  return new Set(samples.flatMap((sample) => Object.values(sample.labels)));
}
