import type { Locator, Page } from "playwright-core";
import { BrowserStepError, inputError } from "./errors";
import { holdMs, keyGapMs, pause, settleMs } from "./human-pace";
import { approach, wheelLikeAPerson, wheelTo } from "./human-mouse";
import { attributesOf, keyOf, optionOf, scrollTargetOf, selectorOf, textOf } from "./inputs";
import type { PageElement, PageWindow } from "./page-globals";
import type { Step, StepContext } from "./step-types";

const first = (page: Page, selector: string): Locator => page.locator(selector).first();

/** Moves the pointer like a person to a random point of the element; replies where, for Playwright to act there. */
async function humanPosition(locator: Locator, context: StepContext): Promise<{ x: number; y: number }> {
  const position = await approach(locator, context.timeoutMs, context.signal);
  await pause(settleMs(), context.signal);
  return position;
}

/** Characters typed with a key of their own name. */
const KEY_OF_CHARACTER: Record<string, string> = { "\n": "Enter", "\r": "Enter", "\t": "Tab" };

/**
 * Types each character with a person's varied gaps between keys. Each key goes down when it is due
 * (the gap counted from the last key going down, so the browser's own time does not add to it), is
 * held a moment and comes up; a character no key gives (中) is inserted as text.
 */
async function typeLikeAPerson(page: Page, text: string, signal: AbortSignal): Promise<void> {
  let due = performance.now();
  for (const character of text) {
    const wait = due - performance.now();
    if (wait > 0) await pause(wait, signal);
    const key = KEY_OF_CHARACTER[character] ?? character;
    const down = await page.keyboard.down(key).then(
      () => true,
      () => false,
    );
    // Counted from when the browser had the key: a slow answer does not shorten the next gap.
    due = performance.now() + keyGapMs();
    if (!down) {
      await page.keyboard.insertText(character);
      continue;
    }
    await pause(Math.min(holdMs(), (due - performance.now()) * 0.8), signal);
    await page.keyboard.up(key);
  }
}

/** A Playwright "Unknown key" is the flow's input, not the page's fault. */
function unknownKey(error: unknown, key: string): unknown {
  if (error instanceof Error && /Unknown key/i.test(error.message)) {
    return inputError(`key ${JSON.stringify(key)} is not a key: use a key name such as Enter, Tab, Escape, ArrowDown or a, or a chord such as Control+A`);
  }
  return error;
}

/** The element's options, for an error that says which there are. */
async function optionsOf(locator: Locator, timeoutMs: number): Promise<{ isSelect: boolean; options: Array<{ value: string; label: string }> }> {
  return locator.evaluate(
    (element: PageElement) => {
      if (element.tagName !== "SELECT" || !element.options) return { isSelect: false, options: [] };
      return { isSelect: true, options: Array.from(element.options, (option) => ({ value: option.value, label: option.label })) };
    },
    undefined,
    { timeout: timeoutMs },
  );
}

const MAX_LISTED_OPTIONS = 10;

/** The steps that act on elements: click, type, hover, select, press, scroll, upload and extract. */
export const ELEMENT_STEPS = {
  async click(page, inputs, context) {
    const selector = selectorOf(inputs.selector);
    const element = first(page, selector);
    if (!inputs.human) await element.click({ timeout: context.timeoutMs });
    else await element.click({ position: await humanPosition(element, context), delay: holdMs(), timeout: context.timeoutMs });
    return { detail: selector };
  },
  async hover(page, inputs, context) {
    const selector = selectorOf(inputs.selector);
    const element = first(page, selector);
    if (!inputs.human) await element.hover({ timeout: context.timeoutMs });
    else await element.hover({ position: await humanPosition(element, context), timeout: context.timeoutMs });
    return { detail: selector };
  },
  async type(page, inputs, context) {
    const selector = selectorOf(inputs.selector);
    const text = textOf(inputs.text);
    const field = first(page, selector);
    await field.fill("", { timeout: context.timeoutMs });
    if (!inputs.human) {
      await field.pressSequentially(text, { timeout: context.timeoutMs });
      return { detail: selector };
    }
    // A person clicks into the field first, then types.
    await field.click({ position: await humanPosition(field, context), delay: holdMs(), timeout: context.timeoutMs });
    await typeLikeAPerson(page, text, context.signal);
    return { detail: selector };
  },
  async select(page, inputs, context) {
    const selector = selectorOf(inputs.selector);
    const option = optionOf(inputs.option);
    const element = first(page, selector);
    await element.waitFor({ state: "attached", timeout: context.timeoutMs });
    const { isSelect, options } = await optionsOf(element, context.timeoutMs);
    if (!isSelect) throw new BrowserStepError("page", `${JSON.stringify(selector)} is not a <select>, so it has no options to choose`);
    const wanted = options.find((candidate) => candidate.value === option) ?? options.find((candidate) => candidate.label === option);
    if (!wanted) {
      const listed = options
        .slice(0, MAX_LISTED_OPTIONS)
        .map((candidate) => (candidate.label === candidate.value ? JSON.stringify(candidate.value) : `${JSON.stringify(candidate.value)} (${candidate.label})`));
      const more = options.length > MAX_LISTED_OPTIONS ? `, and ${options.length - MAX_LISTED_OPTIONS} more` : "";
      throw new BrowserStepError("page", `${JSON.stringify(selector)} has no option ${JSON.stringify(option)} (by value or label); it has ${listed.join(", ") || "none"}${more}`);
    }
    await element.selectOption({ value: wanted.value }, { timeout: context.timeoutMs });
    return { detail: wanted.label || wanted.value };
  },
  async press(page, inputs, context) {
    const key = keyOf(inputs.key);
    const delay = inputs.human ? holdMs() : undefined;
    try {
      if (inputs.selector === undefined || inputs.selector === "") await page.keyboard.press(key, { delay });
      else await first(page, selectorOf(inputs.selector)).press(key, { delay, timeout: context.timeoutMs });
    } catch (error) {
      throw unknownKey(error, key);
    }
    return { detail: key };
  },
  async scroll(page, inputs, context) {
    const target = scrollTargetOf(inputs);
    if ("selector" in target) {
      const element = first(page, target.selector);
      if (inputs.human) await wheelTo(element, context.timeoutMs, context.signal);
      else await element.scrollIntoViewIfNeeded({ timeout: context.timeoutMs });
      return { detail: target.selector };
    }
    if (inputs.human) await wheelLikeAPerson(page, target.by, context.signal);
    else await page.evaluate((by) => (globalThis as unknown as PageWindow).scrollBy({ top: by, behavior: "instant" }), target.by);
    return { detail: `${target.by} px` };
  },
  async upload(page, inputs, context) {
    const selector = selectorOf(inputs.selector);
    const file = inputs.upload;
    if (!file) throw inputError("upload has no file to send");
    await first(page, selector).setInputFiles(file, { timeout: context.timeoutMs });
    return { detail: file.name };
  },
  async extract(page, inputs) {
    const selector = selectorOf(inputs.selector);
    const names = attributesOf(inputs.attributes);
    const items = await page.locator(selector).evaluateAll(
      (elements: PageElement[], attributeNames) =>
        elements.map((element) => {
          // biome-ignore lint/performance/useDomNodeTextContent: the text a person sees (innerText), as read the page's visible text does
          const item: Record<string, string | null> = { text: (element.innerText ?? element.textContent ?? "").trim() };
          for (const name of attributeNames) item[name] = element.getAttribute(name);
          return item;
        }),
      names,
    );
    return { payload: items, detail: String(items.length) };
  },
} satisfies Record<string, Step>;
