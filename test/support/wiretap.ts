import { Agent, createServer, request, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** One request that went through the wiretap, with what the server answered. */
export interface TappedRequest {
  method: string;
  path: string;
  /** The request body as JSON, when it was JSON. */
  body: unknown;
  /**
   * The HTTP status of the answer, "reset" when the server dropped the connection without one, or
   * "lost" when the server answered but the wiretap dropped the connection instead of passing it on.
   */
  status: number | "reset" | "lost";
}

export interface Wiretap {
  /** `http://127.0.0.1:<port>`: use it instead of the target's URL. */
  url: string;
  /** Every request so far that `keep` accepted, in the order their answers ended. */
  readonly requests: readonly TappedRequest[];
  clear(): void;
  close(): Promise<void>;
}

function jsonOf(text: string): unknown {
  try {
    return text === "" ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}

export interface WiretapOptions {
  /**
   * Requests whose answer is lost on the way back: the server gets the request and runs it, and the
   * client sees its connection dropped without an answer (what a network failure after the request
   * arrived looks like). The request is noted with status "lost".
   */
  loseAnswer?: (path: string) => boolean;
  /**
   * Requests the wiretap answers itself, never passing them on: what the real API answers where the
   * emulator has nothing to say (a refusal with a code no source publishes). Noted with that status.
   */
  answer?: (path: string) => { status: number; body: unknown } | undefined;
}

/**
 * A pass-through HTTP proxy in front of `target` that writes down each request with the status the
 * server answered it with. The emulator's own request log has the request but not the answer, and a
 * test that must tell a refused start (HTTP 429: it did not run, and may be sent again) from one that
 * ran needs both. Headers are passed on, never recorded; a connection the server drops is dropped
 * towards the client too, so the client sees what it would have seen without the wiretap.
 */
export async function startWiretap(target: string, keep: (path: string) => boolean = () => true, options: WiretapOptions = {}): Promise<Wiretap> {
  const upstream = new URL(target);
  // An idle connection is dropped here well before the target's keep-alive timeout (Node's 5 s)
  // closes it: reusing one the target is closing at that moment fails the request ("reset"), which
  // the client would see as a dropped connection that its real server never gave it.
  const agent = new Agent({ keepAlive: true, maxSockets: 256, timeout: 3_000 });
  const requests: TappedRequest[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const raw = Buffer.concat(chunks);
      const text = raw.toString();
      const path = (req.url ?? "/").split("?")[0] as string;
      const note = (status: TappedRequest["status"]): void => {
        if (keep(path)) requests.push({ method: req.method ?? "GET", path, body: jsonOf(text), status });
      };
      const own = options.answer?.(path);
      if (own) {
        note(own.status);
        res.writeHead(own.status, { "content-type": "application/json" });
        res.end(JSON.stringify(own.body));
        return;
      }
      const forward = request({ agent, host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: { ...req.headers, host: upstream.host } }, (answer) => {
        const body: Buffer[] = [];
        answer.on("data", (chunk: Buffer) => body.push(chunk));
        answer.on("end", () => {
          if (options.loseAnswer?.(path)) {
            note("lost");
            req.socket.destroy();
            return;
          }
          note(answer.statusCode ?? 0);
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          res.end(Buffer.concat(body));
        });
        answer.on("error", () => {
          note("reset");
          req.socket.destroy();
        });
      });
      forward.on("error", () => {
        note("reset");
        req.socket.destroy();
      });
      forward.end(raw);
    });
  });
  // Idle client connections stay open longer than the client keeps them (undici closes first), so
  // the wiretap never closes one the client is about to reuse.
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    clear: () => {
      requests.length = 0;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        agent.destroy();
        server.close(() => resolve());
      }),
  };
}
