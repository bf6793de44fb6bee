/**
 * The ways a user builds msg.payload in front of a MoreLogin node, as Node-RED's own core nodes build it:
 * a function node (whose code runs in a vm context of its own, so its objects come from another realm), a
 * change node from JSON and from JSONata, an inject node's JSON, and the JSON body of an HTTP In node.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { changeNode, functionNode, httpInNode, injectNode, TAB, type FlowNode } from "./node-red";

export const SOURCES = ["function", "change (JSON)", "change (JSONata)", "inject (JSON)", "http in (JSON body)"] as const;
export type Source = (typeof SOURCES)[number];

/** The id of each source's node in the flow. */
export const SOURCE_IDS: Record<Source, string> = {
  function: "src-function",
  "change (JSON)": "src-change-json",
  "change (JSONata)": "src-change-jsonata",
  "inject (JSON)": "src-inject",
  "http in (JSON body)": "src-http",
};

/** The HTTP Response node that answers the HTTP In node's request. */
export const HTTP_RESPONSE_ID = "src-http-response";

type NodeModule = (RED: unknown) => void;
type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * The test helper gives each load a new `RED.httpNode` (an Express app) that no server serves: this
 * server passes every request to the one the last load gave the HTTP In node.
 */
export class HttpNodeServer {
  private app: Handler | undefined;
  private server: Server | undefined;
  url = "";

  /** The HTTP In module, noting the `RED.httpNode` it registers its routes on. */
  readonly httpInModule: NodeModule = (RED) => {
    this.app = (RED as { httpNode: Handler }).httpNode;
    httpInNode(RED);
  };

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      if (this.app) this.app(req, res);
      else res.writeHead(503).end();
    });
    await new Promise<void>((resolve) => this.server?.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

/** The core modules the sources need, besides the HTTP In one (which HttpNodeServer wraps). */
export const SOURCE_MODULES = [functionNode, changeNode, injectNode];

/**
 * The five source nodes, each building `payload` and wired to `target`, and the HTTP Response node that
 * answers the request of the HTTP In node (listening on POST `url`).
 */
export function sourceNodes(payload: unknown, target: string, url: string): FlowNode[] {
  const json = JSON.stringify(payload);
  const wired = { z: TAB, wires: [[target]] };
  return [
    // A user's code: an object (or array) literal, made inside the function node's vm context.
    { id: SOURCE_IDS.function, type: "function", name: "build payload", func: `msg.payload = ${json};\nreturn msg;`, outputs: 1, noerr: 0, initialize: "", finalize: "", libs: [], ...wired },
    changeTo(SOURCE_IDS["change (JSON)"], json, "json", wired),
    // JSON is a JSONata expression too: it evaluates to the same value.
    changeTo(SOURCE_IDS["change (JSONata)"], json, "jsonata", wired),
    { id: SOURCE_IDS["inject (JSON)"], type: "inject", props: [{ p: "payload" }], payload: json, payloadType: "json", repeat: "", crontab: "", once: false, topic: "", ...wired },
    { id: SOURCE_IDS["http in (JSON body)"], type: "http in", url, method: "post", upload: false, swaggerDoc: "", ...wired },
    { id: HTTP_RESPONSE_ID, type: "http response", z: TAB, statusCode: "", headers: {} },
  ];
}

function changeTo(id: string, to: string, tot: "json" | "jsonata", wired: { z: string; wires: string[][] }): FlowNode {
  return { id, type: "change", rules: [{ t: "set", p: "payload", pt: "msg", to, tot }], ...wired };
}
