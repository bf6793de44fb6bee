import type { Node } from "node-red";
import { helper } from "./node-red";

type Spy = { args: unknown[][]; resetHistory: () => void };

const JWT_LIKE = /eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\./;
/** A bearer credential of 8 characters or more; "Bearer ***", a masked one, is none. */
const BEARER = /bearer\s+(?!\*\*\*)[^\s"'\\,;]{8,}/i;

/**
 * Searches what a user could see (messages out, errors caught, status texts, log lines) for
 * secrets: the given values, any bearer token, anything shaped like a JWT. Keeps only the findings,
 * so a long run does not hold on to what it scanned.
 */
export class SecretScanner {
  readonly findings: string[] = [];
  scanned = 0;

  constructor(private readonly secrets: string[]) {}

  scan(value: unknown): void {
    const text = typeof value === "string" ? value : safeJson(value);
    this.scanned++;
    for (const secret of this.secrets) if (secret && text.includes(secret)) this.findings.push(`secret in: ${text.slice(0, 200)}`);
    if (JWT_LIKE.test(text) || BEARER.test(text)) this.findings.push(`token in: ${text.slice(0, 200)}`);
  }

  /** Scans every status and log call the test helper's spies recorded, then forgets them. */
  scanRuntime(anyNode: Node): void {
    const prototype = Object.getPrototypeOf(anyNode) as Record<string, unknown>;
    for (const method of ["status", "error", "warn", "log", "send"]) {
      const spy = prototype[method] as Partial<Spy>;
      if (method !== "send") {
        spy.args?.forEach((args) => {
          this.scan(args);
        });
      }
      spy.resetHistory?.();
    }
    const log = helper.log() as unknown as Spy;
    log.args.forEach((args) => {
      this.scan(args);
    });
    log.resetHistory();
  }
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value, (_key, item: unknown) => (item instanceof Error ? `${item.name}: ${item.message}` : item));
  } catch {
    return String(value);
  }
}
