import { launchChromium } from "./chromium";
import { startDebugPort } from "./debug-port";
import type { RunningProfile } from "./types";

export const WEBDRIVER_PATH = "C:\\Users\\emulator\\AppData\\Roaming\\MoreLogin\\env-kit\\Core\\chrome_64_142.9\\webdriver.exe";

/** What stands behind a started profile: a real Chromium, or a listener that only answers /json/version. */
interface Browser {
  port: number;
  pid: number;
  close(): Promise<void>;
}

interface Session {
  envId: string;
  browser: Promise<Browser>;
  /** Set once the browser is up. */
  started?: Browser;
}

/**
 * Started profiles and the browsers behind them. One browser per profile, however often it is started;
 * with `binary` (a Chromium) a real headless one, otherwise a stand-in debug port.
 */
export class BrowserSessions {
  private readonly sessions = new Map<string, Session>();
  private nextPid = 12_000;
  private closed = false;

  constructor(private binary?: string) {}

  /** The Chromium behind profiles started from now on (undefined: a stand-in debug port); running ones keep theirs. */
  useBinary(binary: string | undefined): void {
    this.binary = binary;
  }

  /** Starts the profile's browser, or returns the port of the one it already has; rejects when it cannot start. */
  async start(envId: string): Promise<string> {
    if (this.closed) throw new Error("emulator is closed");
    let session = this.sessions.get(envId);
    if (!session) {
      const created: Session = { envId, browser: this.launch(() => this.forget(created)) };
      session = created;
      this.sessions.set(envId, created);
      created.browser.then(
        (browser) => (created.started = browser),
        () => this.forget(created),
      );
    }
    const browser = await session.browser;
    return String(browser.port);
  }

  async stop(envId: string): Promise<void> {
    const session = this.sessions.get(envId);
    if (!session) return;
    this.sessions.delete(envId);
    const browser = await session.browser.catch(() => undefined);
    await browser?.close();
  }

  async stopAll(): Promise<void> {
    await Promise.all([...this.sessions.keys()].map((envId) => this.stop(envId).catch(() => undefined)));
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.stopAll();
  }

  /** Profiles open, counted from their start request on. */
  get openCount(): number {
    return this.sessions.size;
  }

  /** True from the start request until the profile is stopped or its browser exits. */
  isOpen(envId: string): boolean {
    return this.sessions.has(envId);
  }

  /** The debug port as a string, or "" when the profile is not running. */
  portOf(envId: string): string {
    const port = this.sessions.get(envId)?.started?.port;
    return port === undefined ? "" : String(port);
  }

  running(): (RunningProfile & { pid: number })[] {
    const list: (RunningProfile & { pid: number })[] = [];
    for (const { envId, started } of this.sessions.values()) {
      if (started) list.push({ envId, debugPort: String(started.port), pid: started.pid });
    }
    return list;
  }

  private async launch(onExit: () => void): Promise<Browser> {
    if (this.binary !== undefined) return launchChromium(this.binary, { onExit });
    const pid = this.nextPid++;
    const listener = await startDebugPort();
    return { port: listener.port, pid, close: () => listener.close() };
  }

  /** A browser that exited by itself, or never started, no longer makes its profile run. */
  private forget(session: Session): void {
    if (this.sessions.get(session.envId) === session) this.sessions.delete(session.envId);
  }
}
