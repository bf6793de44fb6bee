import { isPlainObject } from "./values";

/** The IP-echo service the proxy check and the browser's identity action ask when none is named (docs/IDENTITY.md says why this one). */
export const DEFAULT_ECHO_URL = "https://ipinfo.io/json";

/** Where an IP-echo service saw a request come from; a field it did not give is undefined. */
export interface EchoedExit {
  exitIp?: string;
  country?: string;
  timezone?: string;
}

/** Dotted paths into a reply whose fields have other names than the common services' (`data.addr`). */
export interface EchoFields {
  ip?: string;
  country?: string;
  timezone?: string;
}

/**
 * The names the common services use: ipinfo.io and ipapi.co (`ip`, `country`/`country_code`, `timezone`),
 * ip-api.com (`query`, `countryCode`, `timezone`), ipwho.is (`timezone: {id}`), ipify (`ip` alone).
 */
const COMMON: Required<Record<keyof EchoFields, readonly string[]>> = {
  ip: ["ip", "query", "ipAddress", "ip_address"],
  country: ["countryCode", "country_code", "country"],
  timezone: ["timezone", "time_zone", "timeZone"],
};

function at(value: unknown, path: string): unknown {
  let here = value;
  for (const key of path.split(".")) {
    if (!isPlainObject(here) || !Object.hasOwn(here, key)) return undefined;
    here = here[key];
  }
  return here;
}

/** A text, or a time zone given as `{id}` (ipwho.is) or `{name}`. */
function textOf(value: unknown): string | undefined {
  if (typeof value === "string") return value.trim() || undefined;
  if (isPlainObject(value)) return textOf(value.id ?? value.name);
  return undefined;
}

/** A two-letter code where the service gives one, else whatever country text it gives. */
function firstOf(reply: unknown, paths: readonly string[], pick: (value: unknown) => string | undefined = textOf): string | undefined {
  for (const path of paths) {
    const value = pick(at(reply, path));
    if (value !== undefined) return value;
  }
  return undefined;
}

const COUNTRY_CODE = /^[A-Za-z]{2}$/;

/**
 * Reads an echo service's reply (its text or parsed JSON): the common services' fields without
 * configuration, others through `fields`. A plain-text reply that is an address (ipify's text form) is the IP.
 */
export function readEchoReply(body: unknown, fields: EchoFields = {}): EchoedExit {
  let reply = body;
  if (typeof body === "string") {
    const text = body.trim();
    try {
      reply = JSON.parse(text);
    } catch {
      return /^[0-9a-f.:]+$/i.test(text) ? { exitIp: text } : {};
    }
  }
  const country = fields.country
    ? textOf(at(reply, fields.country))
    : (firstOf(reply, COMMON.country, (value) => (typeof value === "string" && COUNTRY_CODE.test(value) ? value : undefined)) ?? firstOf(reply, COMMON.country));
  return {
    exitIp: fields.ip ? textOf(at(reply, fields.ip)) : firstOf(reply, COMMON.ip),
    country: country?.length === 2 ? country.toUpperCase() : country,
    timezone: fields.timezone ? textOf(at(reply, fields.timezone)) : firstOf(reply, COMMON.timezone),
  };
}
