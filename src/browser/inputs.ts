import { describeValue } from "../client";
import { type CookiePlace, placeOfUrl } from "./cookie-list";
import { inputError } from "./errors";
import type { BrowserAction } from "./steps";
import type { StepInputs } from "./step-types";

/** A host a cookie can name: a domain (with a leading dot for its subdomains too), an IPv4 or a bracketless IPv6 address. */
const COOKIE_HOST = /^\.?[\p{L}\p{N}_-]+(\.[\p{L}\p{N}_-]+)*$|^[0-9a-f:]+$/iu;

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

export function textOf(value: unknown): string {
  if (value === undefined) throw inputError("text is missing: give the text to type");
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  throw inputError(`text must be a string, got ${describeValue(value)}`);
}

export function expressionOf(value: unknown): string {
  if (typeof value !== "string" || value.trim() === "")
    throw inputError(`expression is missing: give a JavaScript expression (document.title) or a function body with return, got ${describeValue(value)}`);
  return value;
}

/** An attribute name as HTML allows it: no spaces, quotes, `>`, `/` or `=`. */
const ATTRIBUTE_NAME = /^[^\s"'>/=]+$/;

/** extract's attributes: "href, data-id" or ["href", "data-id"]; blank = only the text. */
export function attributesOf(value: unknown): string[] {
  if (value === undefined || value === "") return [];
  const names = typeof value === "string" ? value.split(",") : Array.isArray(value) ? value : undefined;
  if (!names || names.some((name) => typeof name !== "string")) throw inputError(`attributes must be names separated by commas (href, data-id) or an array of names, got ${describeValue(value)}`);
  const trimmed = (names as string[]).map((name) => name.trim()).filter((name) => name !== "");
  for (const name of trimmed) {
    if (!ATTRIBUTE_NAME.test(name)) throw inputError(`attributes: ${JSON.stringify(name)} is not an attribute name`);
    if (name === "text") throw inputError("attributes: text is already each element's visible text; name the attributes to read besides it");
  }
  return [...new Set(trimmed)];
}

export function optionOf(value: unknown): string {
  if (typeof value === "number") return String(value);
  if (typeof value !== "string" || value === "") throw inputError(`option is missing: give the value or the label of the option to choose, got ${describeValue(value)}`);
  return value;
}

export function keyOf(value: unknown): string {
  if (typeof value !== "string" || value.trim() === "") throw inputError(`key is missing: give a key such as Enter, Tab or ArrowDown, or a chord such as Control+A, got ${describeValue(value)}`);
  return value.trim();
}

/** The most scroll will move by in one step: a page a million pixels long is no page. */
const MAX_SCROLL_PX = 1_000_000;

/** scroll's target: an element (selector) or a distance in pixels (scrollBy), exactly one of them. */
export function scrollTargetOf(inputs: StepInputs): { selector: string } | { by: number } {
  const hasSelector = inputs.selector !== undefined && inputs.selector !== "";
  const hasBy = inputs.scrollBy !== undefined && inputs.scrollBy !== "";
  if (hasSelector && hasBy) throw inputError("scroll takes a selector (scroll to that element) or scrollBy (pixels), not both");
  if (hasSelector) return { selector: selectorOf(inputs.selector) };
  if (!hasBy) throw inputError("scroll needs a selector (the element to scroll to) or scrollBy (pixels down, negative for up)");
  const by = typeof inputs.scrollBy === "number" ? inputs.scrollBy : typeof inputs.scrollBy === "string" ? Number(inputs.scrollBy.trim()) : Number.NaN;
  if (!Number.isFinite(by) || Math.abs(by) > MAX_SCROLL_PX)
    throw inputError(`scrollBy must be a number of pixels (negative scrolls up), at most ${MAX_SCROLL_PX.toLocaleString("en")}, got ${describeValue(inputs.scrollBy)}`);
  return { by: Math.round(by) };
}

/** setCookies' Cookie domain: a host (example.com; .example.com for its subdomains too) or an http(s) URL; blank = none. */
export function cookiePlaceOf(value: unknown): CookiePlace {
  if (value === undefined) return {};
  const given = typeof value === "string" ? value.trim() : undefined;
  if (given === "") return {};
  if (given !== undefined && /^https?:\/\//i.test(given)) {
    placeOfUrl(given, `cookieDomain ${describeValue(value)}`);
    return { url: given };
  }
  if (given === undefined || !COOKIE_HOST.test(given))
    throw inputError(`cookieDomain must be a domain such as example.com (.example.com for its subdomains too) or an http(s):// address, got ${describeValue(value)}`);
  return { domain: given };
}

const NEEDS_SELECTOR = new Set<BrowserAction>(["click", "type", "waitFor", "extract", "select", "hover", "upload"]);

/** Refuses missing or unusable inputs before the browser is looked for (upload's file and setCookies' cookies are read by their own checks). */
export function checkInputs(action: BrowserAction, inputs: StepInputs): void {
  if (action === "open" || (action === "cookies" && inputs.url !== undefined)) urlToOpen(inputs.url);
  if (NEEDS_SELECTOR.has(action)) selectorOf(inputs.selector);
  if (action === "type") textOf(inputs.text);
  if (action === "evaluate") expressionOf(inputs.expression);
  if (action === "extract") attributesOf(inputs.attributes);
  if (action === "select") optionOf(inputs.option);
  if (action === "press") keyOf(inputs.key);
  if (action === "scroll") scrollTargetOf(inputs);
}
