import type { NodeAPI } from "node-red";
import type { Request, Response } from "express";
import { messageOf } from "../../../client";
import { moreloginMetrics } from "./prometheus";

export const METRICS_PATH = "/morelogin/metrics";

/** Read by whoever may read the package's config nodes, as the editor's other routes of the package are. */
const READ_PERMISSION = "morelogin-config.read";

/** settings.js `morelogin.metricsOnHttpNode: true`: the metrics also on the http node root, for a scraper without a token. */
export function metricsOnHttpNode(RED: NodeAPI): boolean {
  const settings = RED.settings as unknown as { morelogin?: { metricsOnHttpNode?: unknown } };
  return settings.morelogin?.metricsOnHttpNode === true;
}

async function scrape(_req: Request, res: Response): Promise<void> {
  try {
    const { registry } = moreloginMetrics();
    const text = await registry.metrics();
    // As prom-client says it (express's send() would add a charset of its own).
    res.setHeader("content-type", registry.contentType);
    res.end(text);
  } catch (error) {
    res
      .status(500)
      .type("text/plain")
      .send(`metrics failed: ${messageOf(error)}`);
  }
}

/**
 * `GET /morelogin/metrics` in Prometheus's text format, under Node-RED's admin auth; also on the http
 * node root (`httpNodeRoot`, with whatever `httpNodeAuth` guards it) when settings.js asks.
 */
export function registerMetricsRoutes(RED: NodeAPI): void {
  const onHttpNode = metricsOnHttpNode(RED);
  // With both roots at "/" (Node-RED's default) the admin app is asked first: a request without a token
  // goes on to the http node's route, as the setting asks, instead of being refused here.
  const toHttpNode = (req: Request, _res: Response, next: (route?: "router") => void): void => next(onHttpNode && !req.headers.authorization ? "router" : undefined);
  RED.httpAdmin.get(METRICS_PATH, toHttpNode, RED.auth.needsPermission(READ_PERMISSION), (req: Request, res: Response) => void scrape(req, res));
  if (onHttpNode) RED.httpNode.get(METRICS_PATH, (req: Request, res: Response) => void scrape(req, res));
}
