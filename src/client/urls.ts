import { MoreLoginInputError } from "./errors";
import { RULES } from "./rules";

export const DEFAULT_LOCAL_URL = "http://127.0.0.1:40000";
export const DEFAULT_OPEN_URL = "https://api.morelogin.com";

/** A base URL split into the origin a pool connects to and the path prefix every request gets. */
export interface BaseUrl {
  origin: string;
  basePath: string;
  hostname: string;
  loopback: boolean;
}

export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  if (host.startsWith("::ffff:")) return isLoopbackHost(host.slice("::ffff:".length));
  return RULES.loopbackHost.test(host);
}

export function parseBaseUrl(value: string, label: string): BaseUrl {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw new MoreLoginInputError(`${label} is not a valid URL`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new MoreLoginInputError(`${label} must start with http:// or https://`);
  }
  if (url.username || url.password) {
    throw new MoreLoginInputError(`${label} must not contain a user name or password; use the credential fields`);
  }
  if (url.search || url.hash) {
    throw new MoreLoginInputError(`${label} must not contain a query or fragment`);
  }
  return {
    origin: url.origin,
    basePath: url.pathname.replace(/\/+$/, ""),
    hostname: url.hostname,
    loopback: isLoopbackHost(url.hostname),
  };
}

/** The Open API carries a bearer token: plain http is allowed only to this machine (the emulator). */
export function parseOpenUrl(value: string): BaseUrl {
  const base = parseBaseUrl(value, "Open API URL");
  if (base.origin.startsWith("http:") && !base.loopback) {
    throw new MoreLoginInputError("Open API URL must use https:// (plain http is only allowed to a loopback address)");
  }
  return base;
}

/**
 * Checks a path given by a user or a message for the generic request: it must stay relative to the
 * API's base URL, so it can never reach another host or climb out of the base path.
 */
export function checkRelativePath(path: unknown): string {
  if (typeof path !== "string" || path.length === 0) {
    throw new MoreLoginInputError("request path is missing");
  }
  if (path.length > 2048) throw new MoreLoginInputError("request path is longer than 2048 characters");
  if (!path.startsWith("/") || path.startsWith("//")) {
    throw new MoreLoginInputError("request path must be relative to the API's base URL and start with a single /");
  }
  if (!RULES.relativePath.test(path)) {
    throw new MoreLoginInputError("request path contains characters that are not allowed in a URL path");
  }
  const pathname = path.split("?")[0] ?? "";
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    throw new MoreLoginInputError("request path has a broken %-escape");
  }
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this check refuses
  if (decoded.includes("\\") || /[\u0000-\u001f\u007f]/.test(decoded)) {
    throw new MoreLoginInputError("request path contains characters that are not allowed in a URL path");
  }
  if (RULES.dotSegment.test(decoded)) {
    throw new MoreLoginInputError("request path must not contain . or .. segments");
  }
  if (decoded.startsWith("//")) {
    throw new MoreLoginInputError("request path must be relative to the API's base URL and start with a single /");
  }
  return path;
}
