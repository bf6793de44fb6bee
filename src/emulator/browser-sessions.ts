import { startDebugPort } from "./debug-port";
import type { Listener } from "./http-listener";
import type { RunningProfile } from "./types";

export const WEBDRIVER_PATH = "C:\\Users\\emulator\\AppData\\Roaming\\MoreLogin\\env-kit\\Core\\chrome_64_142.9\\webdriver.exe";

interface Session {
  envId: string;
  pid: number;
  listener: Promise<Listener>;
  /** Set once the listener is up. */
  port?: number;
}

/** Started profiles and their debug-port listeners. One listener per profile, however often it is started. */
export class BrowserSessions {
  private readonly sessions = new Map<string, Session>();
  private nextPid = 12_000;
  private closed = false;

  /** Starts the profile's debug port, or returns the one it already has. */
  async start(envId: string): Promise<string> {
    if (this.closed) throw new Error("emulator is closed");
    let session = this.sessions.get(envId);
    if (!session) {
      const created: Session = { envId, pid: this.nextPid++, listener: startDebugPort() };
      session = created;
      this.sessions.set(envId, created);
      created.listener.then(
        (listener) => (created.port = listener.port),
        () => this.sessions.delete(envId),
      );
    }
    const listener = await session.listener;
    return String(listener.port);
  }

  async stop(envId: string): Promise<void> {
    const session = this.sessions.get(envId);
    if (!session) return;
    this.sessions.delete(envId);
    await (await session.listener).close();
  }

  async stopAll(): Promise<void> {
    await Promise.all([...this.sessions.keys()].map((envId) => this.stop(envId).catch(() => undefined)));
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.stopAll();
  }

  /** True from the start request until the profile is stopped. */
  isOpen(envId: string): boolean {
    return this.sessions.has(envId);
  }

  /** The debug port as a string, or "" when the profile is not running. */
  portOf(envId: string): string {
    const port = this.sessions.get(envId)?.port;
    return port === undefined ? "" : String(port);
  }

  running(): (RunningProfile & { pid: number })[] {
    const list: (RunningProfile & { pid: number })[] = [];
    for (const session of this.sessions.values()) {
      if (session.port !== undefined) list.push({ envId: session.envId, debugPort: String(session.port), pid: session.pid });
    }
    return list;
  }
}
