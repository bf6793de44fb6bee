/**
 * The few browser objects the functions we run in the page use: the project compiles without the DOM
 * library (its code runs in Node), so these say what the page offers. Only types: a function sent to
 * the page takes nothing from this module.
 */
export interface PageWindow {
  innerWidth: number;
  innerHeight: number;
  scrollY: number;
  scrollBy(options: { top: number; behavior: "instant" }): void;
}

export interface PageElement {
  tagName: string;
  textContent: string | null;
  /** Only HTML elements have it (an SVG element does not). */
  innerText?: string;
  getAttribute(name: string): string | null;
  /** A <select>'s options. */
  options?: ArrayLike<{ value: string; label: string }>;
}

/** What the identity probe reads of the page's navigator. */
export interface PageNavigator {
  languages: readonly string[];
  webdriver?: boolean;
  userAgent: string;
  platform: string;
  userAgentData?: { platform?: string };
}

/** The part of a WebRTC peer connection that gathers the candidates a site can see. */
export interface PagePeerConnection {
  createDataChannel(label: string): unknown;
  createOffer(): Promise<unknown>;
  setLocalDescription(description: unknown): Promise<void>;
  onicecandidate: ((event: { candidate: { candidate: string } | null }) => void) | null;
  close(): void;
}

export type PagePeerConnectionClass = new (configuration: { iceServers?: Array<{ urls: string }> }) => PagePeerConnection;
