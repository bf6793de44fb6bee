import { path } from "ghost-cursor";
import type { Locator, Page } from "playwright-core";
import { BrowserStepError } from "./errors";
import { between, pause } from "./human-pace";
import type { PageWindow } from "./page-globals";

interface Point {
  x: number;
  y: number;
}

interface Box extends Point {
  width: number;
  height: number;
}

/** Where the pointer is in each tab, as far as our steps moved it (Playwright does not say). */
const pointers = new WeakMap<Page, Point>();

/** Paths longer than this sometimes overshoot the target and come back, as a hand does. */
const OVERSHOOT_FROM_PX = 300;

/** A random point inside the element, kept off its edges (the inner 70 %): seldom its exact centre. */
export function pointInside(box: Box): Point {
  return { x: box.x + box.width * between(0.15, 0.85), y: box.y + box.height * between(0.15, 0.85) };
}

/** At most this many moves per path: about what a mouse reports in the half second or so a hand takes (each move waits for the browser). */
const MAX_MOVES = 24;

/** Every n-th point, so a long curve keeps its shape in fewer moves; the last point is kept. */
function thinned(points: Point[], most = MAX_MOVES): Point[] {
  if (points.length <= most) return points;
  const every = points.length / most;
  return Array.from({ length: most }, (_, index) => points[Math.min(points.length - 1, Math.round((index + 1) * every) - 1)] as Point);
}

/** A small random wobble, as a hand's. */
const jitter = (point: Point): Point => ({ x: Math.max(0, point.x + between(-0.7, 0.7)), y: Math.max(0, point.y + between(-0.7, 0.7)) });

/**
 * A human path from one point to another: a Bezier curve with random anchors (ghost-cursor's `path`,
 * whose points suit any 2D plane), each point jittered; a long way may overshoot and come back.
 */
export function humanPath(from: Point, to: Point): Point[] {
  const distance = Math.hypot(to.x - from.x, to.y - from.y);
  if (distance > OVERSHOOT_FROM_PX && Math.random() < 0.5) {
    const angle = between(0, 2 * Math.PI);
    const radius = between(8, 24);
    const beyond = { x: Math.max(0, to.x + Math.cos(angle) * radius), y: Math.max(0, to.y + Math.sin(angle) * radius) };
    return [...thinned(path(from, beyond)), ...thinned(path(beyond, to, { spreadOverride: 10 }), MAX_MOVES / 3)].map(jitter).concat(to);
  }
  return thinned(path(from, to)).map(jitter).concat(to);
}

/** The tab's viewport size, as the page sees it (a profile's window has no fixed viewport). */
async function viewportOf(page: Page): Promise<{ width: number; height: number }> {
  return page.evaluate(() => {
    const view = globalThis as unknown as PageWindow;
    return { width: view.innerWidth, height: view.innerHeight };
  });
}

/** Moves the pointer to `to` along a human path, a move every few milliseconds. */
export async function moveLikeAPerson(page: Page, to: Point, signal: AbortSignal): Promise<void> {
  let from = pointers.get(page);
  if (!from) {
    const { width, height } = await viewportOf(page);
    from = { x: between(0, width), y: between(0, height) };
  }
  for (const point of humanPath(from, to)) {
    // A move every 6–12 ms: what the browser took to take the last one counts towards it.
    const next = performance.now() + between(6, 12);
    await page.mouse.move(point.x, point.y);
    const left = next - performance.now();
    if (left > 0) await pause(left, signal);
    else signal.throwIfAborted();
  }
  pointers.set(page, to);
}

/** Wheel steps a person's scroll takes for `deltaY` pixels: 60–140 px each, fewer and bigger for long ways (at most about 40). */
export function wheelSteps(deltaY: number): number[] {
  const steps: number[] = [];
  let left = Math.abs(deltaY);
  const sign = Math.sign(deltaY);
  const floor = left / 40;
  while (left > 0.5) {
    const step = Math.min(left, Math.max(between(60, 140), floor * between(0.8, 1.2)));
    steps.push(sign * Math.round(step));
    left -= Math.round(step);
  }
  return steps.filter((step) => step !== 0);
}

/** Scrolls by `deltaY` pixels in several wheel steps with short pauses. */
export async function wheelLikeAPerson(page: Page, deltaY: number, signal: AbortSignal): Promise<void> {
  for (const step of wheelSteps(deltaY)) {
    await page.mouse.wheel(0, step);
    await pause(between(30, 110), signal);
  }
}

/** How many rounds of wheel steps may bring an element into view before the browser is asked to do it. */
const WHEEL_ROUNDS = 4;

/** Scrolls with the wheel until the element is in view (the browser finishes the job if the wheel could not, e.g. inside a scrolled box). */
export async function wheelTo(locator: Locator, timeoutMs: number, signal: AbortSignal): Promise<void> {
  const page = locator.page();
  await locator.waitFor({ state: "visible", timeout: timeoutMs });
  for (let round = 0; round < WHEEL_ROUNDS; round++) {
    const box = await locator.boundingBox({ timeout: timeoutMs });
    const { height } = await viewportOf(page);
    if (!box || (box.y >= 0 && box.y + box.height <= height)) break;
    const before = await page.evaluate(() => (globalThis as unknown as PageWindow).scrollY);
    await wheelLikeAPerson(page, box.y + box.height / 2 - height / 2, signal);
    // The wheel scrolls smoothly: wait until the page has moved, briefly.
    await page.waitForFunction((start) => (globalThis as unknown as PageWindow).scrollY !== start, before, { timeout: 1000, polling: 50 }).catch(() => undefined);
  }
  await locator.scrollIntoViewIfNeeded({ timeout: timeoutMs });
}

/**
 * Brings the element into view with the wheel and moves the pointer to a random point inside it;
 * replies that point relative to the element, for Playwright's click or hover to act there.
 */
export async function approach(locator: Locator, timeoutMs: number, signal: AbortSignal): Promise<Point> {
  await wheelTo(locator, timeoutMs, signal);
  const box = await locator.boundingBox({ timeout: timeoutMs });
  if (!box) throw new BrowserStepError("page", "the element is not shown on the page, so the pointer cannot reach it");
  const target = pointInside(box);
  await moveLikeAPerson(locator.page(), target, signal);
  return { x: target.x - box.x, y: target.y - box.y };
}
