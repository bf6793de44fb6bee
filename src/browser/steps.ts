import type { Page } from "playwright-core";
import { COOKIE_FORMATS, formatCookies, parseCookies } from "./cookie-formats";
import { ELEMENT_STEPS } from "./element-steps";
import { inputError } from "./errors";
import { checkInputs, cookiePlaceOf, expressionOf, selectorOf, urlToOpen } from "./inputs";
import type { Step, StepInputs } from "./step-types";
import { fileToUpload } from "./upload-file";
import { checkIdentityInputs, identity } from "./identity";

export const BROWSER_ACTIONS = [
  "open",
  "screenshot",
  "evaluate",
  "click",
  "type",
  "waitFor",
  "content",
  "cookies",
  "closePage",
  "extract",
  "select",
  "press",
  "hover",
  "scroll",
  "upload",
  "setCookies",
  "identity",
] as const;
export type BrowserAction = (typeof BROWSER_ACTIONS)[number];

/** The actions that move, click, type or scroll like a person when `human` is on. */
export const HUMAN_ACTIONS = ["click", "hover", "type", "scroll"] as const satisfies readonly BrowserAction[];

export const WAIT_UNTIL = ["load", "domcontentloaded", "networkidle", "commit"] as const;
export const CONTENT_FORMATS = ["html", "text", "title", "url"] as const;

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

/**
 * The inputs the step runs with, checked before the browser is looked for: upload's file is read and
 * setCookies' cookies are read, whatever their format, here, so bad input never touches the browser.
 */
export async function readyInputs(action: BrowserAction, inputs: StepInputs): Promise<StepInputs> {
  checkInputs(action, inputs);
  if (action === "identity") checkIdentityInputs(inputs);
  if (action === "upload") return { ...inputs, upload: await fileToUpload(inputs) };
  if (action === "setCookies") return { ...inputs, cookies: parseCookies(inputs.payload, cookiePlaceOf(inputs.cookieDomain)) };
  return inputs;
}

/** Every action but closePage, which the session runs (it must know the browser's other tabs). */
export const STEPS: Record<Exclude<BrowserAction, "closePage">, Step> = {
  ...ELEMENT_STEPS,
  identity,
  async open(page, inputs, { timeoutMs }) {
    const url = urlToOpen(inputs.url);
    const response = await page.goto(url, { waitUntil: oneOf(inputs.waitUntil, WAIT_UNTIL, "load"), timeout: timeoutMs });
    const payload = { url: page.url(), title: await page.title(), status: response?.status() ?? null };
    return { payload, detail: hostOf(payload.url) };
  },
  async screenshot(page, inputs, { timeoutMs }) {
    const image = await page.screenshot({ type: "png", fullPage: inputs.fullPage === true, timeout: timeoutMs });
    return { payload: image, detail: `${Math.max(1, Math.round(image.length / 1024))} kB` };
  },
  async evaluate(page, inputs) {
    const value = await evaluateInPage(page, expressionOf(inputs.expression));
    return { payload: value, detail: typeof value };
  },
  async waitFor(page, inputs, { timeoutMs }) {
    const selector = selectorOf(inputs.selector);
    await page.locator(selector).first().waitFor({ state: "visible", timeout: timeoutMs });
    return { detail: selector };
  },
  async content(page, inputs, { timeoutMs }) {
    const format = oneOf(inputs.format, CONTENT_FORMATS, "html");
    return { payload: await pageContent(page, format, timeoutMs), detail: format };
  },
  async cookies(page, inputs) {
    const url = inputs.url === undefined ? undefined : urlToOpen(inputs.url);
    const cookies = await page.context().cookies(url);
    return { payload: formatCookies(cookies, oneOf(inputs.cookieFormat, COOKIE_FORMATS, "json")), detail: String(cookies.length) };
  },
  async setCookies(page, inputs) {
    const cookies = inputs.cookies;
    if (!cookies) throw inputError("setCookies has no cookies to set");
    await page.context().addCookies(cookies);
    return { detail: String(cookies.length) };
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
