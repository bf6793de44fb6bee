import type { Page } from "playwright-core";
import { describeValue } from "../client";
import { inputError } from "./errors";

export const BROWSER_ACTIONS = ["open", "screenshot", "evaluate", "click", "type", "waitFor", "content", "cookies", "closePage"] as const;
export type BrowserAction = (typeof BROWSER_ACTIONS)[number];

export const WAIT_UNTIL = ["load", "domcontentloaded", "networkidle", "commit"] as const;
export const CONTENT_FORMATS = ["html", "text", "title", "url"] as const;

/** A step's inputs as the node read them for this message. */
export interface StepInputs {
  url?: unknown;
  waitUntil?: string;
  selector?: unknown;
  text?: unknown;
  expression?: unknown;
  format?: string;
  fullPage?: boolean;
}

export interface StepResult {
  /** The new msg.payload; absent when the step leaves it as it was (click, type, waitFor, closePage). */
  payload?: unknown;
  /** For the node's status: a host, a size, a count. */
  detail: string;
}

export type Step = (page: Page, inputs: StepInputs, timeoutMs: number) => Promise<StepResult>;

const OPENABLE = new Set(["http:", "https:", "about:", "data:"]);

/** The URL to open: http(s), about: or data:, nothing the browser would run or read from disk. */
export function urlToOpen(value: unknown): string {
  const given = typeof value === "string" ? value.trim() : "";
  let url: URL | undefined;
  try {
    url = new URL(given);
  } catch {
    url = undefined;
  }
  if (!url || !OPENABLE.has(url.protocol)) throw inputError(`url must be an http:// or https:// address (or about: / data:), got ${describeValue(value)}`);
  return given;
}

export function selectorOf(value: unknown): string {
  if (typeof value !== "string" || value.trim() === "") throw inputError(`selector is missing: give a CSS selector (e.g. #login), or text=…, got ${describeValue(value)}`);
  return value;
}

function textOf(value: unknown): string {
  if (value === undefined) throw inputError("text is missing: give the text to type");
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  throw inputError(`text must be a string, got ${describeValue(value)}`);
}

/** Refuses missing or unusable inputs before the browser is looked for. */
export function checkInputs(action: BrowserAction, inputs: StepInputs): void {
  if (action === "open" || (action === "cookies" && inputs.url !== undefined)) urlToOpen(inputs.url);
  if (action === "click" || action === "type" || action === "waitFor") selectorOf(inputs.selector);
  if (action === "type") textOf(inputs.text);
  if (action === "evaluate") expressionOf(inputs.expression);
}

function expressionOf(value: unknown): string {
  if (typeof value !== "string" || value.trim() === "")
    throw inputError(`expression is missing: give a JavaScript expression (document.title) or a function body with return, got ${describeValue(value)}`);
  return value;
}

const oneOf = <T extends string>(value: string | undefined, allowed: readonly T[], fallback: T): T => (allowed.includes(value as T) ? (value as T) : fallback);

/**
 * Runs the expression in the page: as a script whose last value is the result (awaited when it is a
 * promise); when that is not valid on its own (a `return`, a top-level `await`), as the body of an
 * async function. A syntax error runs nothing, so nothing runs twice.
 */
async function evaluateInPage(page: Page, expression: string): Promise<unknown> {
  try {
    return await page.evaluate(expression);
  } catch (error) {
    if (!/SyntaxError/.test(error instanceof Error ? error.message : "")) throw error;
    return page.evaluate(`(async () => {\n${expression}\n})()`);
  }
}

/** Every action but closePage, which the session runs (it must know the browser's other tabs). */
export const STEPS: Record<Exclude<BrowserAction, "closePage">, Step> = {
  async open(page, inputs, timeoutMs) {
    const url = urlToOpen(inputs.url);
    const response = await page.goto(url, { waitUntil: oneOf(inputs.waitUntil, WAIT_UNTIL, "load"), timeout: timeoutMs });
    const payload = { url: page.url(), title: await page.title(), status: response?.status() ?? null };
    return { payload, detail: hostOf(payload.url) };
  },
  async screenshot(page, inputs, timeoutMs) {
    const image = await page.screenshot({ type: "png", fullPage: inputs.fullPage === true, timeout: timeoutMs });
    return { payload: image, detail: `${Math.max(1, Math.round(image.length / 1024))} kB` };
  },
  async evaluate(page, inputs) {
    const value = await evaluateInPage(page, expressionOf(inputs.expression));
    return { payload: value, detail: typeof value };
  },
  async click(page, inputs, timeoutMs) {
    const selector = selectorOf(inputs.selector);
    await page.locator(selector).first().click({ timeout: timeoutMs });
    return { detail: selector };
  },
  async type(page, inputs, timeoutMs) {
    const selector = selectorOf(inputs.selector);
    const text = textOf(inputs.text);
    const field = page.locator(selector).first();
    await field.fill("", { timeout: timeoutMs });
    await field.pressSequentially(text, { timeout: timeoutMs });
    return { detail: selector };
  },
  async waitFor(page, inputs, timeoutMs) {
    const selector = selectorOf(inputs.selector);
    await page.locator(selector).first().waitFor({ state: "visible", timeout: timeoutMs });
    return { detail: selector };
  },
  async content(page, inputs, timeoutMs) {
    const format = oneOf(inputs.format, CONTENT_FORMATS, "html");
    return { payload: await pageContent(page, format, timeoutMs), detail: format };
  },
  async cookies(page, inputs) {
    const url = inputs.url === undefined ? undefined : urlToOpen(inputs.url);
    const cookies = await page.context().cookies(url);
    return { payload: cookies, detail: String(cookies.length) };
  },
};

async function pageContent(page: Page, format: (typeof CONTENT_FORMATS)[number], timeoutMs: number): Promise<string> {
  if (format === "html") return page.content();
  if (format === "title") return page.title();
  if (format === "url") return page.url();
  // biome-ignore lint/performance/useDomNodeTextContent: the text a person sees (Playwright's innerText), not every text node
  return page.locator("body").innerText({ timeout: timeoutMs });
}

function hostOf(url: string): string {
  try {
    return new URL(url).host || url;
  } catch {
    return url;
  }
}
