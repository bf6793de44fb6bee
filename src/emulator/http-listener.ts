import type { Server } from "node:http";
import type { Socket } from "node:net";

/** A listening server that remembers its sockets so close() can destroy keep-alive and hanging ones. */
export interface Listener {
  readonly port: number;
  close(): Promise<void>;
}

export async function listen(server: Server, host: string, port: number): Promise<Listener> {
  const sockets = new Set<Socket>();
  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("server has no TCP address");

  let closing: Promise<void> | undefined;
  return {
    port: address.port,
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
