import type { Socket } from "node:net";
import type { ProxyExit } from "../types";

/**
 * The exit of each upstream connection an emulated proxy holds open, by the connection's local port: the
 * echo route sees that port as its caller's remote port. One table for the process, not one per emulator,
 * because a proxy of one emulator may carry a request to another's echo route (tests run several).
 */
const exitsByLocalPort = new Map<number, ProxyExit>();

/** Records `exit` for the connected `socket` until it closes. */
export function recordExit(socket: Socket, exit: ProxyExit): void {
  const port = socket.localPort;
  if (port === undefined) return;
  exitsByLocalPort.set(port, exit);
  socket.once("close", () => {
    if (exitsByLocalPort.get(port) === exit) exitsByLocalPort.delete(port);
  });
}

/** The exit of the emulated proxy whose upstream connection comes from `remotePort`, if any. */
export function exitOfCaller(remotePort: number | undefined): ProxyExit | undefined {
  return remotePort === undefined ? undefined : exitsByLocalPort.get(remotePort);
}
