import { Automation } from "./automation-state";
import { TokenIssuer } from "./auth";
import { type BrowserIdentity, browserIdentityOf } from "./browser-identity";
import { BrowserSessions, type Browser } from "./browser-sessions";
import type { ProxyNetwork } from "./network/proxy-network";
import { CloudRuntimes } from "./cloud-runtimes";
import { generateData } from "./data";
import { FaultInjector } from "./faults";
import { IdMint } from "./id-mint";
import type { ResolvedOptions } from "./options";
import { PhoneRuntime } from "./phone-state";
import type { ProfileSettings } from "./profile-settings";
import { RateLimiter } from "./rate-limit";
import { ServedLog } from "./served";
import { emptyStats, notePeaks, RequestLog } from "./stats";
import { TEAM_ID, TEAM_NAME } from "./team";
import { Timers } from "./timers";
import type { ApiName, EmulatorData, EmulatorStats, Profile } from "./types";

/** Everything the routes and the request pipeline share. */
export class EmulatorState {
  readonly data: EmulatorData;
  readonly profilesById = new Map<string, { profile: Profile; uniqueId: number }>();
  private readonly profilesByUniqueId = new Map<number, Profile>();
  private nextUniqueId = 1;
  /** Profiles whose security lock is on (`happen.profileLocks`): only `lock/query` tells. */
  readonly lockedProfiles = new Set<string>();
  /** Detail settings of profiles created or changed through the API; the others have the defaults. */
  readonly profileSettings = new Map<string, ProfileSettings>();
  readonly ids: IdMint;
  readonly stats: EmulatorStats = emptyStats();
  readonly log: RequestLog;
  readonly faults: FaultInjector;
  readonly limiters: Record<ApiName, RateLimiter>;
  readonly tokens: TokenIssuer;
  readonly sessions: BrowserSessions<Browser>;
  /** Profiles run in the cloud (`/api/cloudbrowser`), each with its browser behind a gateway. */
  readonly cloudRuntimes: CloudRuntimes;
  readonly timers: Timers;
  /** The emulated proxies, once they listen (startEmulator sets it). */
  proxies: Pick<ProxyNetwork, "entranceOf" | "exitOf"> | undefined;
  readonly phones: PhoneRuntime;
  readonly automation: Automation;
  readonly served: ServedLog;
  localToken: string | undefined;
  /** With the `login` option: whether a login has succeeded since start (or since `forgetLogin`). */
  loggedIn = false;
  /** Whether a rate-limited reply carries Retry-After (the published one does not). */
  rateLimitRetryAfter: boolean;

  constructor(readonly options: ResolvedOptions) {
    this.timers = new Timers(options.manualClock);
    this.data = generateData(options);
    for (const profile of this.data.profiles) this.register(profile);
    this.ids = new IdMint(options.seed);
    this.log = new RequestLog(options.requestLogSize);
    this.faults = new FaultInjector(options.faults);
    this.limiters = { local: new RateLimiter(options.rateLimitPerMinute), open: new RateLimiter(options.rateLimitPerMinute) };
    this.tokens = new TokenIssuer(options.tokenLifetimeSeconds, TEAM_ID, TEAM_NAME);
    this.sessions = new BrowserSessions(options.browser, { front: async (browser) => browser, identityOf: (envId) => this.browserIdentity(envId) });
    this.cloudRuntimes = new CloudRuntimes(this.timers, options.phoneBootMs, options.browser);
    this.localToken = options.localToken;
    this.rateLimitRetryAfter = options.rateLimitRetryAfter;
    this.phones = new PhoneRuntime(this.data, options, this.timers, () => this.notePeaks());
    this.automation = new Automation(this.phones, options, this.timers, this.ids);
    this.served = new ServedLog(
      (envId) => this.profilesById.get(envId)?.profile.envName,
      (id) => this.phones.get(id)?.phone.envName,
    );
  }

  /** The profile's time zone and language (as set, else its proxy's exit's) and the way to its proxy. */
  async browserIdentity(envId: string): Promise<BrowserIdentity> {
    const proxyId = this.profilesById.get(envId)?.profile.proxy?.id;
    const exit = proxyId === undefined ? undefined : this.proxies?.exitOf(proxyId);
    const proxyServer = proxyId === undefined ? undefined : await this.proxies?.entranceOf(proxyId);
    return browserIdentityOf(this.profileSettings.get(envId), exit, proxyServer);
  }

  /** Updates the peak counters from what runs now. */
  notePeaks(): void {
    notePeaks(this.stats, { profiles: this.sessions.openCount, phones: this.phones.poweredCount() });
  }

  /** The profile's serial number (shown in the UI as P-<n>): seeded profiles are numbered from 1 in order. */
  profileByUniqueId(uniqueId: number): Profile | undefined {
    return this.profilesByUniqueId.get(uniqueId);
  }

  /** Adds a profile at the end of the list with the next serial number; returns that number. */
  addProfile(profile: Profile): number {
    this.data.profiles.push(profile);
    return this.register(profile);
  }

  /** Removes profiles from the list and the lookups; unknown IDs are ignored. */
  removeProfiles(ids: ReadonlySet<string>): void {
    const profiles = this.data.profiles;
    for (let i = profiles.length - 1; i >= 0; i--) {
      const profile = profiles[i];
      if (profile === undefined || !ids.has(profile.id)) continue;
      profiles.splice(i, 1);
      const entry = this.profilesById.get(profile.id);
      if (entry) this.profilesByUniqueId.delete(entry.uniqueId);
      this.profilesById.delete(profile.id);
      this.profileSettings.delete(profile.id);
      this.lockedProfiles.delete(profile.id);
    }
  }

  private register(profile: Profile): number {
    const uniqueId = this.nextUniqueId++;
    this.profilesById.set(profile.id, { profile, uniqueId });
    this.profilesByUniqueId.set(uniqueId, profile);
    return uniqueId;
  }
}
