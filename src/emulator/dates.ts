/** Times as the API writes them: "yyyy-MM-dd HH:mm:ss", in UTC (the automation spec's "UTC+0"). */

const pad = (n: number): string => String(n).padStart(2, "0");

export function formatUtc(ms: number): string {
  const d = new Date(ms);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
}

/** "yyyy-MM-dd HH:mm:ss" (read as UTC) or an ISO 8601 date-time; undefined when neither. */
export function parseUtc(text: string): number | undefined {
  const plain = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/.exec(text);
  if (plain) {
    const [, y, mo, d, h, mi, s] = plain.map(Number);
    const ms = Date.UTC(y ?? 0, (mo ?? 1) - 1, d, h, mi, s);
    return formatUtc(ms) === text ? ms : undefined;
  }
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(text)) return undefined;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? undefined : ms;
}
