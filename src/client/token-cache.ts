export interface GrantedToken {
  accessToken: string;
  expiresInSeconds: number;
}

interface CachedToken {
  value: string;
  refreshAt: number;
}

/** The longest a token is given up before it expires; short-lived tokens give up a quarter of their life. */
const MAX_REFRESH_MARGIN_MS = 60_000;

/**
 * Holds the Open API bearer token in memory. Every caller shares one token; however many callers wait,
 * only one token request is in flight; a token is reused until shortly before it expires.
 */
export class TokenCache {
  private token?: CachedToken;
  private pending?: Promise<CachedToken>;

  constructor(
    private readonly grant: () => Promise<GrantedToken>,
    private readonly now: () => number = Date.now,
  ) {}

  /** The token, when one is held and not due for renewal. */
  current(): string | undefined {
    return this.token && this.now() < this.token.refreshAt ? this.token.value : undefined;
  }

  async get(): Promise<string> {
    const current = this.current();
    if (current !== undefined) return current;
    this.pending ??= this.fetch();
    return (await this.pending).value;
  }

  /** Drops the token the server refused, unless a newer one has already replaced it. */
  invalidate(value: string): void {
    if (this.token?.value === value) this.token = undefined;
  }

  clear(): void {
    this.token = undefined;
  }

  private async fetch(): Promise<CachedToken> {
    const requestedAt = this.now();
    try {
      const granted = await this.grant();
      const lifetimeMs = granted.expiresInSeconds * 1000;
      const margin = Math.min(MAX_REFRESH_MARGIN_MS, lifetimeMs / 4);
      const token = { value: granted.accessToken, refreshAt: requestedAt + lifetimeMs - margin };
      this.token = token;
      return token;
    } finally {
      this.pending = undefined;
    }
  }
}
