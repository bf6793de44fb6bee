import type { PhoneServed, ProfileServed, ServedCounts } from "./types";

/** The emulator's own route that answers "what was I asked?", on both ports, outside the APIs. */
export const SERVED_PATH = "/emulator/served";

/**
 * How often each profile was started and closed and each cloud phone powered on, off and deleted, by
 * API request: the answers with code 0 by action, and the calls of the same kinds that named it and
 * were refused with a MoreLogin code (a close of a profile that is not running, a power-on of a phone
 * that is on, a delete of one that resets). Requests refused before their route (rate limit, faults,
 * credentials) are not counted.
 */
export class ServedLog {
  private readonly profiles = new Map<string, ProfileServed>();
  private readonly phones = new Map<string, PhoneServed>();

  constructor(
    private readonly profileName: (envId: string) => string | undefined,
    private readonly phoneName: (id: string) => string | undefined,
  ) {}

  profile(envId: string, action: "start" | "close", served: boolean): void {
    const name = this.profileName(envId);
    if (name === undefined) return;
    const entry = this.profiles.get(envId) ?? { name, starts: 0, closes: 0, refused: 0 };
    if (!served) entry.refused++;
    else if (action === "start") entry.starts++;
    else entry.closes++;
    this.profiles.set(envId, entry);
  }

  /** A delete is noted before the phone leaves the emulator (a phone never activated does), so that its name is known. */
  phone(id: string, action: "powerOn" | "powerOff" | "delete", served: boolean): void {
    const name = this.phoneName(id);
    if (name === undefined) return;
    const entry = this.phones.get(id) ?? { name, powerOns: 0, powerOffs: 0, deletes: 0, refused: 0 };
    if (!served) entry.refused++;
    else if (action === "powerOn") entry.powerOns++;
    else if (action === "powerOff") entry.powerOffs++;
    else entry.deletes++;
    this.phones.set(id, entry);
  }

  /** A copy, in the order each profile and phone was first named. */
  snapshot(): ServedCounts {
    const copy = <T extends object>(entries: Map<string, T>): Record<string, T> => Object.fromEntries([...entries].map(([id, entry]) => [id, { ...entry }]));
    return { profiles: copy(this.profiles), phones: copy(this.phones) };
  }

  clear(): void {
    this.profiles.clear();
    this.phones.clear();
  }
}
