import type { Server } from "node:http";
import type { Server as NetServer, Socket } from "node:net";

/** A listening server that remembers its sockets so close() can destroy keep-alive and hanging ones. */
export interface Listener {
  readonly port: number;
  close(): Promise<void>;
}

/**
 * How long an idle kept-alive connection stays open. Node's default, 5 s, closes connections that
 * clients still hold and are about to reuse: Node's agents (the core http request node's among them)
 * keep idle connections with no limit of their own, Go keeps them 90 s, and a request written as the
 * server's close crosses it fails ("socket hang up", ECONNRESET). Above every common client's idle
 * time, the client is the side that closes, as servers behind load balancers are set up; clients that
 * follow the announced `Keep-Alive: timeout=120` (Node's agent, undici, so this package's client)
 * drop the connection 1 to 2 s before it.
 */
export const KEEP_ALIVE_TIMEOUT_MS = 120_000;
/** Above the keep-alive timeout, so that waiting for the next request's headers never ends an idle connection first. */
export const HEADERS_TIMEOUT_MS = KEEP_ALIVE_TIMEOUT_MS + 1_000;

/** Listens on `port` of `host` (0: any free port); resolves with the port, rejects when it cannot. */
export async function listenOn(server: NetServer, host: string, port: number): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("server has no TCP address");
  return address.port;
}

export async function listen(server: Server, host: string, port: number): Promise<Listener> {
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  server.headersTimeout = HEADERS_TIMEOUT_MS;
  const sockets = new Set<Socket>();
  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });
  const bound = await listenOn(server, host, port);

  let closing: Promise<void> | undefined;
  return {
    port: bound,
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
        sockets.clear();
      });
      return closing;
    },
  };
}
