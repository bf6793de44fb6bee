import { createHmac, randomBytes, randomUUID } from "node:crypto";
import { CODES } from "./codes";
import { fail, type Reply } from "./replies";

/** Local API: the `Authorization` header must equal the token exactly (no "Bearer"). */
export function checkLocalToken(header: string | undefined, token: string | undefined): Reply | undefined {
  if (token === undefined) return undefined;
  if (header === undefined || header === "") return fail(CODES.authMissing, "API authentication info missing");
  if (header !== token) return fail(CODES.authFailed, "API authentication failed");
  return undefined;
}

/** With the `login` option: a Local call before the server has logged in (the code is assumed: MoreLogin's "API authentication info missing"). */
export function checkServerLogin(state: { options: { login: boolean }; loggedIn: boolean }): Reply | undefined {
  return state.options.login && !state.loggedIn ? fail(CODES.authMissing, "API authentication info missing: log in with /api/user/login first") : undefined;
}

export const invalidToken = (): Reply => fail(CODES.invalidToken, "Token expired or invalid", 401);

const base64url = (value: string | Buffer): string => Buffer.from(value).toString("base64url");

export interface Grant {
  accessToken: string;
  expiresIn: number;
}

/** Open API OAuth tokens: HS256 JWT-like strings this emulator signed, valid until expiry or revocation. */
export class TokenIssuer {
  private readonly secret = randomBytes(32);
  /** Issued tokens and when they expire (epoch ms). */
  private readonly issued = new Map<string, number>();
  private grantsSincePrune = 0;

  constructor(
    private readonly lifetimeSeconds: number,
    private readonly subject: string,
    private readonly teamName: string,
  ) {}

  grant(now = Date.now()): Grant {
    this.pruneNow(now);
    const iat = Math.floor(now / 1000);
    const header = base64url(JSON.stringify({ typ: "JWT", alg: "HS256" }));
    const claims = { sub: this.subject, name: this.teamName, iat, exp: iat + Math.ceil(this.lifetimeSeconds), jti: randomUUID() };
    const payload = base64url(JSON.stringify(claims));
    const signature = createHmac("sha256", this.secret).update(`${header}.${payload}`).digest("base64url");
    const accessToken = `${header}.${payload}.${signature}`;
    this.issued.set(accessToken, now + this.lifetimeSeconds * 1000);
    return { accessToken, expiresIn: this.lifetimeSeconds };
  }

  /** Checks an `Authorization` header value of the form "Bearer <token>". */
  isValid(header: string | undefined, now = Date.now()): boolean {
    const match = /^Bearer (\S+)$/i.exec(header ?? "");
    const token = match?.[1];
    if (token === undefined) return false;
    const expiresAt = this.issued.get(token);
    return expiresAt !== undefined && now < expiresAt;
  }

  revokeAll(): void {
    this.issued.clear();
  }

  /** Drops expired tokens now and then, so a long benchmark does not grow the map forever. */
  private pruneNow(now: number): void {
    if (++this.grantsSincePrune < 1000) return;
    this.grantsSincePrune = 0;
    for (const [token, expiresAt] of this.issued) if (expiresAt <= now) this.issued.delete(token);
  }
}
