import type { BrowserIdentity } from "./browser-identity";
import { launchChromium } from "./chromium";
import { startDebugPort } from "./debug-port";
import type { RunningProfile } from "./types";

export const WEBDRIVER_PATH = "C:\\Users\\emulator\\AppData\\Roaming\\MoreLogin\\env-kit\\Core\\chrome_64_142.9\\webdriver.exe";

/** What stands behind a started profile: a real Chromium, or a listener that only answers /json/version. */
export interface Browser {
  readonly port: number;
  readonly pid: number;
  close(): Promise<void>;
}

export interface SessionOptions<B extends Browser> {
  /**
   * What start() hands out for a launched browser: the browser itself, or something in front of it (a cloud
   * runtime's gateway) whose close() also closes the browser. When it rejects, the browser is closed.
   */
  front: (browser: Browser) => Promise<B>;
  /** Told when a started browser exits by itself, once its front is closed (not when it never came up). */
  onExit?: (envId: string) => void;
  /** The clock, languages and proxy a profile's Chromium starts with. */
  identityOf?: (envId: string) => Promise<BrowserIdentity>;
}

interface Session<B extends Browser> {
  envId: string;
  browser: Promise<B>;
  /** Set once the browser is up. */
  started?: B;
}

/**
 * Started profiles and the browsers behind them. One browser per profile, however often it is started;
 * with `binary` (a Chromium) a real headless one, otherwise a stand-in debug port.
 */
export class BrowserSessions<B extends Browser> {
  private readonly sessions = new Map<string, Session<B>>();
  private nextPid = 12_000;
  private closed = false;

  constructor(
    private binary: string | undefined,
    private readonly options: SessionOptions<B>,
  ) {}

  /** The Chromium behind profiles started from now on (undefined: a stand-in debug port); running ones keep theirs. */
  useBinary(binary: string | undefined): void {
    this.binary = binary;
  }

  /** Starts the profile's browser, or returns the port of the one it already has; rejects when it cannot start. */
  async start(envId: string): Promise<string> {
    return String((await this.open(envId)).port);
  }

  /** Starts the profile's browser, or returns the one it already has; rejects when it cannot start. */
  open(envId: string): Promise<B> {
    if (this.closed) return Promise.reject(new Error("emulator is closed"));
    let session = this.sessions.get(envId);
    if (!session) {
      const created: Session<B> = { envId, browser: this.launch(envId, () => this.exited(created)) };
      session = created;
      this.sessions.set(envId, created);
      created.browser.then(
        (browser) => (created.started = browser),
        () => this.forget(created),
      );
    }
    return session.browser;
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

  private async launch(envId: string, onExit: () => void): Promise<B> {
    const browser = await this.launchBrowser(envId, onExit);
    try {
      return await this.options.front(browser);
    } catch (error) {
      await browser.close();
      throw error;
    }
  }

  private async launchBrowser(envId: string, onExit: () => void): Promise<Browser> {
    if (this.binary !== undefined) return launchChromium(this.binary, { onExit, identity: await this.options.identityOf?.(envId) });
    const pid = this.nextPid++;
    const listener = await startDebugPort();
    return { port: listener.port, pid, close: () => listener.close() };
  }

  /** A browser that exited by itself no longer makes its profile run; what stood in front of it closes too. */
  private exited(session: Session<B>): void {
    if (!this.forget(session)) return;
    // A browser that never came up is told by start()'s rejection, not here.
    session.browser.then(
      (browser) =>
        browser
          .close()
          .catch(() => undefined)
          .then(() => this.options.onExit?.(session.envId)),
      () => undefined,
    );
  }

  /** Drops a session whose browser exited or never started; false when it was no longer there (stopped meanwhile). */
  private forget(session: Session<B>): boolean {
    if (this.sessions.get(session.envId) !== session) return false;
    this.sessions.delete(session.envId);
    return true;
  }
}
