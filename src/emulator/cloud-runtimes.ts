import { BrowserSessions } from "./browser-sessions";
import { openGateway, type CloudBrowser } from "./cloud-gateway";
import { formatUtc } from "./dates";
import type { Timers } from "./timers";

/** A profile's cloud runtime as `/api/cloudbrowser/page` lists it. */
export interface RuntimeRow {
  cloudBrowserStatus: "STARTING" | "RUNNING" | "CLOSED";
  cloudBrowserArchiveStatus: "PENDING" | "ARCHIVING" | "COMPLETED" | null;
  startDate: string | null;
}

/** What `/api/cloudbrowser/connect` hands out: the gateway's port, the runtime's token and a new access token. */
export interface Connection {
  port: number;
  token: string;
  accessToken: string;
}

interface Runtime extends RuntimeRow {
  /** The provisioning time has passed. */
  booted: boolean;
  /** Set once the browser behind the gateway is up, until it stops. */
  browser?: CloudBrowser;
  /** Cancels the pending state change (boot or archive). */
  cancel?: () => void;
}

const CLOSED: RuntimeRow = { cloudBrowserStatus: "CLOSED", cloudBrowserArchiveStatus: null, startDate: null };

/**
 * Cloud runtimes of browser profiles (the browser spec's "Cloud Runtime"), each with its own browser behind a
 * gateway: a real headless Chromium with a binary, otherwise a stand-in debug port. A start is STARTING
 * until both `bootMs` has passed and the browser is up, then RUNNING. A stop archives: the runtime still
 * shows RUNNING (the spec: "a runtime that is stopping, archiving ... is also reported as RUNNING") with
 * archive PENDING, ARCHIVING after half of `bootMs`, and CLOSED with COMPLETED after the other half; its
 * browser and gateway end at once.
 */
export class CloudRuntimes {
  private readonly runtimes = new Map<string, Runtime>();
  private readonly browsers: BrowserSessions<CloudBrowser>;

  constructor(
    private readonly timers: Timers,
    private readonly bootMs: number,
    binary: string | undefined,
  ) {
    this.browsers = new BrowserSessions(binary, { front: openGateway, onExit: (envId) => this.browserExited(envId) });
  }

  /** The Chromium behind runtimes started from now on (undefined: a stand-in debug port). */
  useBinary(binary: string | undefined): void {
    this.browsers.useBinary(binary);
  }

  row(envId: string): RuntimeRow {
    const { cloudBrowserStatus, cloudBrowserArchiveStatus, startDate } = this.runtimes.get(envId) ?? CLOSED;
    return { cloudBrowserStatus, cloudBrowserArchiveStatus, startDate };
  }

  /** Accepts a start, or answers "active" while the profile has a run: starting, running, or stopping and archiving. */
  start(envId: string): "accepted" | "active" {
    if (this.row(envId).cloudBrowserStatus !== "CLOSED") return "active";
    const runtime: Runtime = { ...CLOSED, cloudBrowserStatus: "STARTING", booted: false };
    this.runtimes.set(envId, runtime);
    const current = (): boolean => this.runtimes.get(envId) === runtime && runtime.cloudBrowserStatus === "STARTING";
    runtime.cancel = this.timers.after(this.bootMs, () => {
      runtime.booted = true;
      this.run(runtime);
    });
    this.browsers.open(envId).then(
      (browser) => {
        if (!current()) return;
        runtime.browser = browser;
        this.run(runtime);
      },
      () => {
        if (current()) this.fail(runtime);
      },
    );
    return "accepted";
  }

  /**
   * Stops an active run: a starting one is CLOSED at once (nothing ran to archive), a running one archives.
   * Resolves once its browser and gateway have ended. A runtime that is closed or archiving is left alone.
   */
  async stop(envId: string): Promise<void> {
    const runtime = this.runtimes.get(envId);
    if (runtime === undefined || runtime.cloudBrowserStatus === "CLOSED" || runtime.cloudBrowserArchiveStatus !== null) return;
    runtime.cancel?.();
    runtime.browser = undefined;
    if (runtime.cloudBrowserStatus === "STARTING") runtime.cloudBrowserStatus = "CLOSED";
    else this.archive(runtime);
    await this.browsers.stop(envId);
  }

  /** Only a runtime exactly RUNNING (not archiving) connects. */
  connect(envId: string): Connection | undefined {
    const runtime = this.runtimes.get(envId);
    if (runtime?.cloudBrowserStatus !== "RUNNING" || runtime.cloudBrowserArchiveStatus !== null || runtime.browser === undefined) return undefined;
    return { port: runtime.browser.port, token: runtime.browser.token, accessToken: runtime.browser.mintAccessToken() };
  }

  /** Ends every runtime's browser and gateway (the emulator closes). */
  close(): Promise<void> {
    return this.browsers.close();
  }

  private run(runtime: Runtime): void {
    if (runtime.cloudBrowserStatus !== "STARTING" || !runtime.booted || runtime.browser === undefined) return;
    runtime.cloudBrowserStatus = "RUNNING";
    runtime.startDate = formatUtc(Date.now());
    runtime.cancel = undefined;
  }

  /** A start whose browser did not come up, or went before the runtime ran: CLOSED, "failed to start" (the spec). */
  private fail(runtime: Runtime): void {
    runtime.cancel?.();
    runtime.cancel = undefined;
    runtime.browser = undefined;
    runtime.cloudBrowserStatus = "CLOSED";
  }

  private archive(runtime: Runtime): void {
    runtime.cloudBrowserArchiveStatus = "PENDING";
    const pending = Math.floor(this.bootMs / 2);
    runtime.cancel = this.timers.after(pending, () => {
      runtime.cloudBrowserArchiveStatus = "ARCHIVING";
      runtime.cancel = this.timers.after(this.bootMs - pending, () => {
        runtime.cloudBrowserStatus = "CLOSED";
        runtime.cloudBrowserArchiveStatus = "COMPLETED";
        runtime.startDate = null;
        runtime.cancel = undefined;
      });
    });
  }

  /** A browser that exits by itself (a crash, CDP's Browser.close) ends its run as a stop does. */
  private browserExited(envId: string): void {
    const runtime = this.runtimes.get(envId);
    if (runtime?.browser === undefined) return;
    runtime.browser = undefined;
    if (runtime.cloudBrowserStatus === "STARTING") this.fail(runtime);
    else if (runtime.cloudBrowserArchiveStatus === null) {
      runtime.cancel?.();
      this.archive(runtime);
    }
  }
}
