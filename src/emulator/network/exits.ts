/** The seeded places' time zones (proxy-data.ts's PLACES); MoreLogin's rows carry no time zone, so these are the emulator's. */
const ZONES_BY_CITY: Readonly<Record<string, string>> = {
  "Los Angeles": "America/Los_Angeles",
  "New York": "America/New_York",
  London: "Europe/London",
  Berlin: "Europe/Berlin",
  Tokyo: "Asia/Tokyo",
  Singapore: "Asia/Singapore",
};

const ZONES_BY_COUNTRY: Readonly<Record<string, string>> = {
  US: "America/New_York",
  GB: "Europe/London",
  DE: "Europe/Berlin",
  JP: "Asia/Tokyo",
  SG: "Asia/Singapore",
};

/** The time zone of a row's city, else of its country, else UTC. */
export function timeZoneOf(countryCode: string, city: string | null): string {
  return (city === null ? undefined : ZONES_BY_CITY[city]) ?? ZONES_BY_COUNTRY[countryCode.toUpperCase()] ?? "UTC";
}
