import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

/** One answer of the stub: a JSON text (so it can hold integers beyond 2^53) or a value to serialize. */
export interface StubReply {
  status?: number;
  headers?: Record<string, string>;
  body: string | Record<string, unknown>;
}

export interface StubRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * A stand-in for the Local API on loopback for replies the emulator does not make (business codes
 * such as 35000, integers beyond 2^53, top-level extras): answers each request with the next
 * scripted reply, then with `otherwise`.
 */
export interface StubApi {
  /** `http://127.0.0.1:<port>` */
  url: string;
  requests: StubRequest[];
  /** Replies for the next requests, in order. */
  script(...replies: StubReply[]): void;
  /** The reply once the script is used up (default: success with empty data). */
  otherwise: StubReply;
  /** Forgets requests, script and `otherwise`. */
  reset(): void;
  close(): Promise<void>;
}

export const SUCCESS: StubReply = { body: { code: 0, msg: "success", data: {}, requestId: "stub-ok" } };

/** An envelope with a non-zero code and no data, as MoreLogin sends for business errors. */
export function refusal(code: number, msg: string, status = 200): StubReply {
  return { status, body: { code, msg, data: null, requestId: `stub-${code}` } };
}

export async function startStubApi(): Promise<StubApi> {
  const queue: StubReply[] = [];
  const stub: StubApi = {
    url: "",
    requests: [],
    script: (...replies) => void queue.push(...replies),
    otherwise: SUCCESS,
    reset: () => {
      stub.requests.length = 0;
      queue.length = 0;
      stub.otherwise = SUCCESS;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      stub.requests.push({ method: req.method ?? "", path: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks).toString() });
      const reply = queue.shift() ?? stub.otherwise;
      const text = typeof reply.body === "string" ? reply.body : JSON.stringify(reply.body);
      res.writeHead(reply.status ?? 200, { "content-type": "application/json", ...reply.headers });
      res.end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  stub.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return stub;
}
