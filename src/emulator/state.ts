import { TokenIssuer } from "./auth";
import { BrowserSessions } from "./browser-sessions";
import { generateData } from "./data";
import { FaultInjector } from "./faults";
import type { ResolvedOptions } from "./options";
import { RateLimiter } from "./rate-limit";
import { emptyStats, RequestLog } from "./stats";
import { TEAM_ID, TEAM_NAME } from "./team";
import { Timers } from "./timers";
import type { ApiName, EmulatorData, EmulatorStats, Profile } from "./types";

/** Everything the routes and the request pipeline share. */
export class EmulatorState {
  readonly data: EmulatorData;
  readonly profilesById = new Map<string, { profile: Profile; uniqueId: number }>();
  readonly stats: EmulatorStats = emptyStats();
  readonly log: RequestLog;
  readonly faults: FaultInjector;
  readonly limiters: Record<ApiName, RateLimiter>;
  readonly tokens: TokenIssuer;
  readonly sessions = new BrowserSessions();
  readonly timers = new Timers();
  localToken: string | undefined;
  /** Whether a rate-limited reply carries Retry-After (the published one does not). */
  rateLimitRetryAfter: boolean;

  constructor(readonly options: ResolvedOptions) {
    this.data = generateData(options);
    this.data.profiles.forEach((profile, index) => {
      this.profilesById.set(profile.id, { profile, uniqueId: index + 1 });
    });
    this.log = new RequestLog(options.requestLogSize);
    this.faults = new FaultInjector(options.faults);
    this.limiters = { local: new RateLimiter(options.rateLimitPerMinute), open: new RateLimiter(options.rateLimitPerMinute) };
    this.tokens = new TokenIssuer(options.tokenLifetimeSeconds, TEAM_ID, TEAM_NAME);
    this.localToken = options.localToken;
    this.rateLimitRetryAfter = options.rateLimitRetryAfter;
  }

  /** The profile's serial number (shown in the UI as P-<n>): its 1-based position in the data set. */
  profileByUniqueId(uniqueId: number): Profile | undefined {
    return this.data.profiles[uniqueId - 1];
  }
}
