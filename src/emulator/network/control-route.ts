import type { IncomingMessage, ServerResponse } from "node:http";
import { readCondition } from "./condition";
import type { ProxyNetwork } from "./proxy-network";

/** The emulator's own route over its proxies, outside the APIs (no token, rate limit, faults or statistics). */
export const PROXIES_PATH = "/emulator/proxies";
/** A condition is a few fields; anything longer is not one. */
const MAX_BODY_BYTES = 4_096;

function sendJson(res: ServerResponse, status: number, value: unknown): void {
  const text = `${JSON.stringify(value, null, 2)}\n`;
  res.writeHead(status, { "Content-Type": "application/json; charset=utf-8", "Content-Length": Buffer.byteLength(text), "Cache-Control": "no-store" });
  res.end(text);
}

async function bodyOf(req: IncomingMessage): Promise<unknown> {
  let text = "";
  for await (const chunk of req) {
    text += String(chunk);
    if (text.length > MAX_BODY_BYTES) throw new RangeError("the body is too large for a proxy condition");
  }
  try {
    return JSON.parse(text === "" ? "{}" : text);
  } catch {
    throw new RangeError("the body must be JSON");
  }
}

async function setCondition(network: ProxyNetwork, key: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  try {
    const condition = readCondition(await bodyOf(req));
    if (!(await network.setCondition(key, condition))) return sendJson(res, 404, { error: `no emulated proxy has the ID or name "${key}"` });
    sendJson(res, 200, network.find(key));
  } catch (error) {
    sendJson(res, 400, { error: error instanceof RangeError ? error.message : "the condition could not be set" });
  }
}

function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * GET /emulator/proxies lists the emulated proxies; GET /emulator/proxies/<ID or name> shows one; POST
 * there with `{dead, delayMs, exit}` replaces its condition. False when the path is not this route's.
 */
export function answerProxyControl(network: ProxyNetwork, req: IncomingMessage, res: ServerResponse): boolean {
  const path = new URL(req.url ?? "/", "http://emulator").pathname;
  if (path !== PROXIES_PATH && !path.startsWith(`${PROXIES_PATH}/`)) return false;
  const key = decoded(path.slice(PROXIES_PATH.length + 1));
  if (req.method === "GET" && key === "") sendJson(res, 200, network.list());
  else if (req.method === "GET") {
    const found = network.find(key);
    sendJson(res, found ? 200 : 404, found ?? { error: `no emulated proxy has the ID or name "${key}"` });
  } else if (req.method === "POST" && key !== "") {
    setCondition(network, key, req, res).catch(() => res.destroy());
  } else sendJson(res, 405, { error: "GET /emulator/proxies[/<ID or name>] or POST /emulator/proxies/<ID or name>" });
  return true;
}
