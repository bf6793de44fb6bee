import { isErrorValue } from "./errors";

/** TLS failures by code (Node's and OpenSSL's), said as "TLS" and the code. */
const TLS_CODES = /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|HOSTNAME_MISMATCH|ERR_OSSL_)/;

const BY_CODE: Readonly<Record<string, string>> = {
  ECONNREFUSED: "the proxy refused the connection",
  ENOTFOUND: "the proxy's host was not found",
  EAI_AGAIN: "the proxy's host could not be looked up",
  EHOSTUNREACH: "the proxy's host is unreachable",
  ENETUNREACH: "the proxy's network is unreachable",
  ECONNRESET: "the connection was reset",
  EPIPE: "the connection was closed",
  UND_ERR_SOCKET: "the connection was closed",
  UND_ERR_CONNECT_TIMEOUT: "the connection timed out",
  UND_ERR_HEADERS_TIMEOUT: "the echo service did not answer in time",
  UND_ERR_BODY_TIMEOUT: "the echo service did not answer in time",
};

/** What the SOCKS client says (its messages name no credentials), in our words. */
const SOCKS_SAYINGS: readonly [RegExp, string][] = [
  [/Socks5 Authentication failed|Socks5 Auth failed/i, "authentication failed (SOCKS5)"],
  [/no accepted authentication type/i, "authentication failed (SOCKS5: the proxy accepts none of the offered methods)"],
  [/Socks5 proxy rejected connection - (\w+)/, "the proxy could not reach the echo service (SOCKS5: $1)"],
  [/Proxy connection timed out/i, "the connection timed out"],
  [/Socket closed/i, "the proxy closed the connection"],
];

function codeOf(error: Error): string | undefined {
  const code = (error as { code?: unknown }).code;
  return typeof code === "string" ? code : undefined;
}

/** The first cause in the chain that carries a code or a SOCKS message. */
function causes(error: unknown): Error[] {
  const chain: Error[] = [];
  let current = error;
  while (isErrorValue(current) && chain.length < 5) {
    chain.push(current);
    current = (current as { cause?: unknown }).cause;
  }
  return chain;
}

/**
 * Why a check failed, in words: never the thrown message as it is (an echo service or a proxy may put
 * anything in it), only known codes and the SOCKS client's own phrases, mapped to ours.
 */
export function failureText(error: unknown): string {
  for (const cause of causes(error)) {
    const code = codeOf(cause);
    const message = cause.message;
    const status = /Proxy response \((\d{3})\)/.exec(message)?.[1];
    if (status === "407") return "authentication failed (HTTP 407)";
    if (status !== undefined) return `the proxy refused the tunnel (HTTP ${status})`;
    if (code !== undefined && TLS_CODES.test(code)) return `TLS failed (${code})`;
    if (code !== undefined && BY_CODE[code] !== undefined) return BY_CODE[code];
    // The SOCKS client passes a failed connection on as text only: "connect ECONNREFUSED host:port".
    const socksCode = /^connect (E[A-Z]+)\b/.exec(message)?.[1];
    if (socksCode !== undefined && BY_CODE[socksCode] !== undefined) return BY_CODE[socksCode];
    for (const [pattern, words] of SOCKS_SAYINGS) {
      const match = pattern.exec(message);
      if (match) return words.replace("$1", match[1] ?? "");
    }
  }
  const code = causes(error)
    .map(codeOf)
    .find((found) => found !== undefined);
  return code === undefined ? "the check failed" : `the check failed (${code})`;
}
