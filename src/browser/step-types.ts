import type { Page } from "playwright-core";
import type { CookieToSet } from "./cookie-list";
import type { FileToUpload, UploadPlaces } from "./upload-file";

/** A step's inputs as the node read them for this message. */
export interface StepInputs {
  url?: unknown;
  waitUntil?: string;
  selector?: unknown;
  text?: unknown;
  expression?: unknown;
  format?: string;
  fullPage?: boolean;
  /** extract: the attributes to read besides the text, comma-separated or an array. */
  attributes?: unknown;
  /** select: the option's value or label. */
  option?: unknown;
  /** press: a key or chord (Enter, Control+A). */
  key?: unknown;
  /** scroll: pixels down (negative: up), when no selector is given. */
  scrollBy?: unknown;
  /** upload: a file path on Node-RED's machine. */
  file?: unknown;
  /** upload: where a relative path starts, and the folders a path may name (the runtime's settings). */
  places?: UploadPlaces;
  /** Move, click, type and scroll as a person would (click, hover, type, scroll). */
  human?: boolean;
  /** setCookies: the site of cookies given as a name=value; … header: a domain (example.com) or an http(s) URL. */
  cookieDomain?: unknown;
  /** cookies: json (an array of cookie objects) or netscape (a cookie file's text). */
  cookieFormat?: string;
  /** msg.payload: the file (a Buffer) for upload, the cookies (in any format parseCookies reads) for setCookies. */
  payload?: unknown;
  /** msg.filename: the name of the file msg.payload holds, for upload. */
  filename?: unknown;
  /** identity: the IP-echo service to open (blank: the default), and the STUN server WebRTC asks (blank: local candidates only). */
  echoUrl?: unknown;
  stunUrl?: unknown;
  /** identity: which mismatches count (names separated by commas, or an array; blank: the defaults). */
  rules?: unknown;
  /** identity: the exit country (ISO 3166 code) and IP the flow expects, and the operating system the profile should show. */
  expectCountry?: unknown;
  expectIp?: unknown;
  os?: unknown;
  /** upload: the file, read and checked before the browser is looked for. */
  upload?: FileToUpload;
  /** setCookies: the cookies, checked before the browser is looked for. */
  cookies?: CookieToSet[];
}

export interface StepResult {
  /** The new msg.payload; absent when the step leaves it as it was (click, type, waitFor, closePage, ...). */
  payload?: unknown;
  /** For the node's status: a host, a size, a count. */
  detail: string;
}

/** What a step runs with: its deadline, and a signal that ends a slow human-like step once the deadline or a redeploy has come. */
export interface StepContext {
  timeoutMs: number;
  signal: AbortSignal;
}

export type Step = (page: Page, inputs: StepInputs, context: StepContext) => Promise<StepResult>;
