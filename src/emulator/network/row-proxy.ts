import type { Server as HttpServer } from "node:http";
import { createServer, type Server, type Socket } from "node:net";
import type { Duplex } from "node:stream";
import type { ProxyCondition, ProxyExit, ProxyInfo, ProxyProtocol } from "../types";
import { listenOn } from "../http-listener";
import { timeZoneOf } from "./exits";
import { createHttpProxy } from "./http-proxy";
import type { ProxyCredentials, ProxyServing } from "./serving";
import { serveSocks5 } from "./socks5-proxy";

/** The address this proxy listens on, whatever host the APIs listen on: the rows say `127.0.0.1`. */
export const PROXY_HOST = "127.0.0.1";

/** One proxy row's listener: the row's protocol, credentials and exit, read on each connection. */
export class RowProxy implements ProxyServing {
  private server: Server | undefined;
  private readonly http: HttpServer | undefined;
  private readonly sockets = new Set<Socket>();
  /** What ends each pending delay. */
  private readonly delays = new Set<() => void>();
  private readonly delayed = new WeakSet<Duplex>();
  private current: ProxyCondition = {};
  private closed = false;
  port = 0;
  /** The second door of a proxy with credentials, opened for the emulator's Chromium (entrance()). */
  private door: Server | undefined;
  private doorPort = 0;
  private readonly doorView: ProxyServing = { credentials: () => undefined, exit: () => this.exit(), delayAnswer: (socket) => this.delayAnswer(socket) };
  private readonly doorHttp: HttpServer | undefined;

  /** `password`: the proxy asks for the row's username and this password; undefined, it takes anyone. */
  constructor(
    readonly row: ProxyInfo,
    readonly protocol: ProxyProtocol,
    readonly password: string | undefined,
  ) {
    this.http = protocol === "socks5" ? undefined : createHttpProxy(this);
    this.doorHttp = protocol === "socks5" ? undefined : createHttpProxy(this.doorView);
  }

  get condition(): ProxyCondition {
    return this.current;
  }

  credentials(): ProxyCredentials | undefined {
    return this.password === undefined ? undefined : { username: this.row.username, password: this.password };
  }

  exit(): ProxyExit {
    const { exportIp, countryCode, city } = this.row;
    return { ip: exportIp, country: countryCode, timezone: timeZoneOf(countryCode, city), ...this.current.exit };
  }

  /** Listens on `port` (0: any free port). */
  async start(port = 0): Promise<void> {
    const { server, port: bound } = await listenAt(port, (socket) => this.accept(socket, this));
    this.server = server;
    this.port = bound;
  }

  /**
   * Where the emulator's Chromium of a profile with this proxy connects. MoreLogin's browser kernel
   * answers the proxy's credentials itself; Chromium's --proxy-server cannot carry them, so a proxy with
   * credentials opens a second door that takes anyone, for that Chromium only (assumed, docs/EMULATOR.md).
   * A dead proxy's address is its closed port: the browser's pages then fail as behind a dead proxy.
   */
  async entrance(): Promise<string> {
    const scheme = this.protocol === "socks5" ? "socks5" : "http";
    if (this.password === undefined || this.current.dead || this.closed) return `${scheme}://${PROXY_HOST}:${this.port}`;
    if (!this.door) await this.openDoor(this.doorPort);
    return `${scheme}://${PROXY_HOST}:${this.doorPort}`;
  }

  /** Replaces the condition; a dead proxy stops listening (and drops its connections), a revived one listens on its port again. */
  async setCondition(condition: ProxyCondition): Promise<void> {
    this.current = { ...condition };
    if (condition.dead && this.server) await this.stop();
    else if (!condition.dead && !this.server && !this.closed) {
      await this.start(this.port);
      if (this.doorPort !== 0) await this.openDoor(this.doorPort);
    }
  }

  private async openDoor(port: number): Promise<void> {
    const { server, port: bound } = await listenAt(port, (socket) => this.accept(socket, this.doorView));
    this.door = server;
    this.doorPort = bound;
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.stop();
  }

  private async stop(): Promise<void> {
    const servers = [this.server, this.door];
    this.server = undefined;
    this.door = undefined;
    for (const end of [...this.delays]) end();
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    await Promise.all(servers.map((server) => server && new Promise<void>((resolve) => server.close(() => resolve()))));
  }

  /**
   * The condition's delay, once per connection, before the proxy answers it; the socket is being read
   * meanwhile, so a client that gives up closes it at once. Resolves early when the socket closes.
   */
  async delayAnswer(socket: Duplex): Promise<void> {
    const delayMs = this.current.delayMs ?? 0;
    if (delayMs <= 0 || this.delayed.has(socket) || socket.destroyed) return;
    this.delayed.add(socket);
    await new Promise<void>((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.delays.delete(done);
        socket.off("close", done);
        resolve();
      };
      const timer = setTimeout(done, delayMs);
      this.delays.add(done);
      socket.once("close", done);
    });
  }

  /** `serving`: this proxy, or its door that takes anyone. */
  private accept(socket: Socket, serving: ProxyServing): void {
    this.sockets.add(socket);
    socket.once("close", () => this.sockets.delete(socket));
    socket.on("error", () => socket.destroy());
    const http = serving === this ? this.http : this.doorHttp;
    if (http) http.emit("connection", socket);
    else serveSocks5(socket, serving);
  }
}

async function listenAt(port: number, accept: (socket: Socket) => void): Promise<{ server: Server; port: number }> {
  const server = createServer(accept);
  return { server, port: await listenOn(server, PROXY_HOST, port) };
}
