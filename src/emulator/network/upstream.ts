import { connect, type Socket } from "node:net";
import { recordExit } from "./exit-registry";
import type { ProxyExit } from "../types";

/** A proxy's connection to where its client asked to go, recorded with the proxy's exit once connected. */
export function openUpstream(host: string, port: number, exit: ProxyExit): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host, port });
    socket.once("error", reject);
    socket.once("connect", () => {
      socket.off("error", reject);
      recordExit(socket, exit);
      resolve(socket);
    });
  });
}

/** Joins two sockets both ways; an error or end on either side ends both. */
export function splice(a: Socket, b: Socket): void {
  a.pipe(b);
  b.pipe(a);
  const end = (): void => {
    a.destroy();
    b.destroy();
  };
  a.once("error", end);
  b.once("error", end);
  a.once("close", end);
  b.once("close", end);
}
