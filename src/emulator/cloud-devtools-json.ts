/**
 * Chromium's DevTools JSON (`/json/version`, `/json/list`) as a cloud runtime's gateway serves it: every
 * WebSocket address of the browser's own debug port moved to the gateway, with the runtime's token.
 */

export interface Hosts {
  /** The browser's debug port as Chromium writes it, "127.0.0.1:9222". */
  browser: string;
  /** The gateway's, "127.0.0.1:16167". */
  gateway: string;
  token: string;
}

export function rewriteDevtoolsJson(value: unknown, hosts: Hosts): unknown {
  if (typeof value === "string") return rewriteText(value, hosts);
  if (Array.isArray(value)) return value.map((item) => rewriteDevtoolsJson(item, hosts));
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, rewriteDevtoolsJson(item, hosts)]));
  }
  return value;
}

function rewriteText(text: string, { browser, gateway, token }: Hosts): string {
  // webSocketDebuggerUrl: ws://127.0.0.1:9222/devtools/page/<id>
  const ws = `ws://${browser}/`;
  if (text.startsWith(ws)) {
    const rest = text.slice(ws.length);
    return `ws://${gateway}/${rest}${rest.includes("?") ? "&" : "?"}token=${token}`;
  }
  // devtoolsFrontendUrl: ...inspector.html?ws=127.0.0.1:9222/devtools/page/<id> (the frontend adds "ws://")
  const parameter = `ws=${browser}/`;
  const at = text.indexOf(parameter);
  if (at === -1 || !"?&".includes(text[at - 1] ?? "")) return text;
  const pathStart = at + parameter.length - 1;
  const pathEnd = text.slice(pathStart).search(/[&#]/);
  const end = pathEnd === -1 ? text.length : pathStart + pathEnd;
  return `${text.slice(0, at)}ws=${gateway}${text.slice(pathStart, end)}${encodeURIComponent(`?token=${token}`)}${text.slice(end)}`;
}
